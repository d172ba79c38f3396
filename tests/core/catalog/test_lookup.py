"""Resolving an instance type (plus an optional explicit GPU description) to GPU model, count and arch."""

from __future__ import annotations

import pytest

from gpuready.core.catalog import lookup
from gpuready.core.catalog.gpus import GPU_MODELS
from gpuready.core.catalog.instance_types import Arch
from gpuready.core.catalog.lookup import ExplicitGpu
from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.errors import Problem, SpecError, UnknownGpuModelError

LISTED = [
    # EKS: one row per family, plus the multi-GPU sizes.
    ("eks", "g4dn.xlarge", "t4", 1, "x86_64"),
    ("eks", "g4dn.12xlarge", "t4", 4, "x86_64"),
    ("eks", "g4dn.metal", "t4", 8, "x86_64"),
    ("eks", "g5.xlarge", "a10g", 1, "x86_64"),
    ("eks", "g5.16xlarge", "a10g", 1, "x86_64"),
    ("eks", "g5.12xlarge", "a10g", 4, "x86_64"),
    ("eks", "g5.48xlarge", "a10g", 8, "x86_64"),
    ("eks", "g5g.xlarge", "t4g", 1, "arm64"),
    ("eks", "g5g.16xlarge", "t4g", 2, "arm64"),
    ("eks", "g5g.metal", "t4g", 2, "arm64"),
    ("eks", "g6.xlarge", "l4", 1, "x86_64"),
    ("eks", "g6.24xlarge", "l4", 4, "x86_64"),
    ("eks", "g6.48xlarge", "l4", 8, "x86_64"),
    ("eks", "g6e.xlarge", "l40s", 1, "x86_64"),
    ("eks", "g6e.12xlarge", "l40s", 4, "x86_64"),
    ("eks", "g6e.48xlarge", "l40s", 8, "x86_64"),
    ("eks", "gr6.4xlarge", "l4", 1, "x86_64"),
    ("eks", "gr6.8xlarge", "l4", 1, "x86_64"),
    ("eks", "p3dn.24xlarge", "v100-32gb", 8, "x86_64"),
    ("eks", "p4d.24xlarge", "a100", 8, "x86_64"),
    ("eks", "p4de.24xlarge", "a100-80gb", 8, "x86_64"),
    ("eks", "p5.4xlarge", "h100", 1, "x86_64"),
    ("eks", "p5.48xlarge", "h100", 8, "x86_64"),
    ("eks", "p5e.48xlarge", "h200", 8, "x86_64"),
    ("eks", "p5en.48xlarge", "h200", 8, "x86_64"),
    ("eks", "p6-b200.48xlarge", "b200", 8, "x86_64"),
    # AKS
    ("aks", "Standard_NC4as_T4_v3", "t4", 1, "x86_64"),
    ("aks", "Standard_NC64as_T4_v3", "t4", 4, "x86_64"),
    ("aks", "Standard_NC24ads_A100_v4", "a100-80gb", 1, "x86_64"),
    ("aks", "Standard_NC48ads_A100_v4", "a100-80gb", 2, "x86_64"),
    ("aks", "Standard_NC96ads_A100_v4", "a100-80gb", 4, "x86_64"),
    ("aks", "Standard_NC40ads_H100_v5", "h100-nvl", 1, "x86_64"),
    ("aks", "Standard_NC80adis_H100_v5", "h100-nvl", 2, "x86_64"),
    ("aks", "Standard_ND96asr_v4", "a100", 8, "x86_64"),
    ("aks", "Standard_ND96amsr_A100_v4", "a100-80gb", 8, "x86_64"),
    ("aks", "Standard_ND96isr_H100_v5", "h100", 8, "x86_64"),
    ("aks", "Standard_ND96isr_H200_v5", "h200", 8, "x86_64"),
    # GKE
    ("gke", "g2-standard-4", "l4", 1, "x86_64"),
    ("gke", "g2-standard-32", "l4", 1, "x86_64"),
    ("gke", "g2-standard-24", "l4", 2, "x86_64"),
    ("gke", "g2-standard-48", "l4", 4, "x86_64"),
    ("gke", "g2-standard-96", "l4", 8, "x86_64"),
    ("gke", "a2-highgpu-1g", "a100", 1, "x86_64"),
    ("gke", "a2-highgpu-8g", "a100", 8, "x86_64"),
    ("gke", "a2-megagpu-16g", "a100", 16, "x86_64"),
    ("gke", "a2-ultragpu-1g", "a100-80gb", 1, "x86_64"),
    ("gke", "a2-ultragpu-8g", "a100-80gb", 8, "x86_64"),
    ("gke", "a3-highgpu-1g", "h100", 1, "x86_64"),
    ("gke", "a3-highgpu-8g", "h100", 8, "x86_64"),
    ("gke", "a3-megagpu-8g", "h100-mega", 8, "x86_64"),
    ("gke", "a3-ultragpu-8g", "h200", 8, "x86_64"),
    ("gke", "a4-highgpu-8g", "b200", 8, "x86_64"),
]


@pytest.mark.parametrize(("cloud", "instance_type", "model", "gpus", "arch"), LISTED)
def test_listed_instance_type_resolves_from_the_catalog(
    cloud: Cloud, instance_type: str, model: str, gpus: int, arch: Arch
) -> None:
    resolved = lookup.resolve_instance_type(cloud_profile(cloud), instance_type, None)
    assert (resolved.instance_type, resolved.model.key, resolved.gpus, resolved.arch, resolved.listed) == (
        instance_type,
        model,
        gpus,
        arch,
        True,
    )


@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        ("standard_nc24ads_a100_v4", "Standard_NC24ads_A100_v4"),
        ("STANDARD_ND96ASR_V4", "Standard_ND96asr_v4"),
        ("Standard_nc4as_t4_V3", "Standard_NC4as_T4_v3"),
        ("Standard_NC40ads_H100_v5", "Standard_NC40ads_H100_v5"),
    ],
)
def test_aks_vm_size_is_case_insensitive_and_normalised(given: str, canonical: str) -> None:
    resolved = lookup.resolve_instance_type(cloud_profile("aks"), given, None)
    assert resolved.instance_type == canonical
    assert resolved.listed


@pytest.mark.parametrize(
    ("cloud", "instance_type"), [("eks", "G6.xlarge"), ("eks", "G5.XLARGE"), ("gke", "G2-standard-4")]
)
def test_eks_and_gke_names_are_exact(cloud: Cloud, instance_type: str) -> None:
    with pytest.raises(UnknownGpuModelError):
        lookup.resolve_instance_type(cloud_profile(cloud), instance_type, None)


@pytest.mark.parametrize(
    ("machine", "model", "count"),
    [
        ("n1-standard-8", "t4", 1),
        ("n1-standard-8", "t4", 2),
        ("n1-highmem-16", "t4", 4),
        ("n1-standard-8", "v100", 1),
        ("n1-standard-16", "v100", 2),
        ("n1-standard-32", "v100", 4),
        ("n1-highmem-64", "v100", 8),
        ("n1-standard-8", "T4", 1),
    ],
)
def test_gke_n1_attaches_the_explicit_gpu(machine: str, model: str, count: int) -> None:
    resolved = lookup.resolve_instance_type(cloud_profile("gke"), machine, ExplicitGpu(model, count))
    assert (resolved.instance_type, resolved.model.key, resolved.gpus, resolved.arch, resolved.listed) == (
        machine,
        model.lower(),
        count,
        "x86_64",
        False,
    )


@pytest.mark.parametrize(
    ("explicit", "path", "text"),
    [
        (None, "gpu", "n1-standard-8 has no built-in GPU"),
        (ExplicitGpu("l4", 1), "gpu.model", "N1 machines (instanceType) cannot attach this GPU"),
        (ExplicitGpu("a100", 1), "gpu.model", "cannot attach"),
        (ExplicitGpu("t4", 3), "gpu.count", "N1 attaches t4 only in these counts"),
        (ExplicitGpu("t4", 8), "gpu.count", "only in these counts"),
        (ExplicitGpu("v100", 3), "gpu.count", "N1 attaches v100 only in these counts"),
        (ExplicitGpu("t4", 0), "gpu.count", "only in these counts"),
        (ExplicitGpu("p100", 1), "gpu.model", "unknown GPU model"),
    ],
)
def test_gke_n1_refuses_missing_or_unattachable_gpus(explicit: ExplicitGpu | None, path: str, text: str) -> None:
    with pytest.raises(SpecError) as info:
        lookup.resolve_instance_type(cloud_profile("gke"), "n1-standard-8", explicit)
    (problem,) = info.value.problems
    assert problem.path == path
    assert text in problem.problem


def test_gke_n1_without_gpu_lists_allowed_counts_and_a_hint() -> None:
    with pytest.raises(SpecError) as info:
        lookup.resolve_instance_type(cloud_profile("gke"), "n1-standard-4", None)
    (problem,) = info.value.problems
    assert list(problem.allowed) == ["t4 x 1/2/4", "v100 x 1/2/4/8"]
    assert "gpu: {model: t4, count: 1}" in problem.hint


@pytest.mark.parametrize(
    ("cloud", "instance_type", "explicit", "arch"),
    [
        ("eks", "g9.2xlarge", ExplicitGpu("l4", 1), "x86_64"),
        ("eks", "g5g.32xlarge", ExplicitGpu("t4g", 4), "arm64"),
        ("eks", "p6e-gb200.36xlarge", ExplicitGpu("gh200", 4), "arm64"),
        ("eks", "g7.xlarge", ExplicitGpu("L40S", 2), "x86_64"),
        ("eks", "custom.metal", ExplicitGpu("h100", 8, "arm64"), "arm64"),
        ("eks", "custom.metal", ExplicitGpu("gh200", 1, "x86_64"), "x86_64"),
        ("aks", "Standard_NV36ads_A10_v5", ExplicitGpu("a10", 1), "x86_64"),
        ("gke", "g9-standard-12", ExplicitGpu("l4", 1), "x86_64"),
    ],
)
def test_unlisted_type_with_explicit_gpu_is_accepted(
    cloud: Cloud, instance_type: str, explicit: ExplicitGpu, arch: Arch
) -> None:
    resolved = lookup.resolve_instance_type(cloud_profile(cloud), instance_type, explicit)
    assert (resolved.instance_type, resolved.model.key, resolved.gpus, resolved.arch, resolved.listed) == (
        instance_type,
        explicit.model.lower(),
        explicit.count,
        arch,
        False,
    )


@pytest.mark.parametrize("count", [0, -1])
def test_unlisted_type_needs_at_least_one_gpu(count: int) -> None:
    with pytest.raises(SpecError) as info:
        lookup.resolve_instance_type(cloud_profile("eks"), "g9.2xlarge", ExplicitGpu("l4", count))
    assert [p.path for p in info.value.problems] == ["gpu.count"]


@pytest.mark.parametrize(
    ("cloud", "instance_type", "did_you_mean"),
    [
        ("eks", "g5.xlarg", "did you mean g5.xlarge"),
        ("eks", "p5.48xl", "did you mean"),
        ("aks", "Standard_NC24ads_A100_v5", "did you mean Standard_NC24ads_A100_v4"),
        ("gke", "a3-highgpu-9g", "did you mean a3-highgpu-"),
        ("eks", "m5.large", ""),
    ],
)
def test_unlisted_type_without_gpu_is_refused_with_a_hint(cloud: Cloud, instance_type: str, did_you_mean: str) -> None:
    with pytest.raises(UnknownGpuModelError) as info:
        lookup.resolve_instance_type(cloud_profile(cloud), instance_type, None)
    (problem,) = info.value.problems
    assert problem.path == "instanceType"
    assert problem.value == instance_type
    assert f"not a GPU instance type gpuready knows on {cloud}" in problem.problem
    assert did_you_mean in problem.hint
    assert "gpu: {model: <accelerator>, count: <GPUs per node>}" in problem.hint


def test_empty_instance_type_gets_no_did_you_mean() -> None:
    with pytest.raises(UnknownGpuModelError) as info:
        lookup.resolve_instance_type(cloud_profile("eks"), "", None)
    assert "did you mean" not in info.value.problems[0].hint


def test_unknown_instance_type_error_uses_the_given_path() -> None:
    with pytest.raises(UnknownGpuModelError) as info:
        lookup.resolve_instance_type(cloud_profile("eks"), "m5.large", None, path="pools[0].type")
    assert info.value.problems[0].path == "pools[0].type"


@pytest.mark.parametrize(
    ("cloud", "instance_type", "explicit", "path", "text"),
    [
        ("eks", "g6.xlarge", ExplicitGpu("t4", 1), "gpu", "contradicts the catalog entry for g6.xlarge (1 x l4)"),
        ("eks", "g6.xlarge", ExplicitGpu("l4", 2), "gpu", "contradicts the catalog entry"),
        ("eks", "p4d.24xlarge", ExplicitGpu("a100-80gb", 8), "gpu", "(8 x a100)"),
        ("aks", "standard_nd96asr_v4", ExplicitGpu("a100", 4), "gpu", "Standard_ND96asr_v4 (8 x a100)"),
        ("gke", "a2-highgpu-1g", ExplicitGpu("a100-80gb", 1), "gpu", "contradicts"),
        ("eks", "g6.xlarge", ExplicitGpu("l4", 1, "arm64"), "gpu.arch", "g6.xlarge is x86_64"),
        ("eks", "g5g.xlarge", ExplicitGpu("t4g", 1, "x86_64"), "gpu.arch", "g5g.xlarge is arm64"),
        ("eks", "g6.xlarge", ExplicitGpu("l5", 1), "gpu.model", "unknown GPU model"),
    ],
)
def test_explicit_gpu_contradicting_a_listed_type_is_refused(
    cloud: Cloud, instance_type: str, explicit: ExplicitGpu, path: str, text: str
) -> None:
    with pytest.raises(SpecError) as info:
        lookup.resolve_instance_type(cloud_profile(cloud), instance_type, explicit)
    (problem,) = info.value.problems
    assert problem.path == path
    assert text in problem.problem


@pytest.mark.parametrize(
    ("cloud", "instance_type", "explicit"),
    [
        ("eks", "g6.xlarge", ExplicitGpu("l4", 1)),
        ("eks", "g6.xlarge", ExplicitGpu("L4", 1, "x86_64")),
        ("aks", "standard_nc24ads_a100_v4", ExplicitGpu("a100-80gb", 1)),
        ("gke", "a3-megagpu-8g", ExplicitGpu("h100-mega", 8)),
    ],
)
def test_explicit_gpu_agreeing_with_a_listed_type_is_accepted(
    cloud: Cloud, instance_type: str, explicit: ExplicitGpu
) -> None:
    resolved = lookup.resolve_instance_type(cloud_profile(cloud), instance_type, explicit)
    assert resolved.listed
    assert resolved.model.key == explicit.model.lower()


@pytest.mark.parametrize("key", ["l4", "L4", "A100-80GB", "h100-nvl"])
def test_lookup_gpu_model_is_case_insensitive(key: str) -> None:
    assert lookup.lookup_gpu_model(key) is GPU_MODELS[key.lower()]


@pytest.mark.parametrize(
    ("key", "hint"),
    [
        ("h10", "did you mean"),
        ("a100-40gb", "did you mean a100"),
        ("nvidia-tesla-t4", "use one of the canonical lowercase accelerator names"),
    ],
)
def test_unknown_gpu_model_lists_known_keys(key: str, hint: str) -> None:
    with pytest.raises(UnknownGpuModelError) as info:
        lookup.lookup_gpu_model(key, "nodePools[0].gpu.model")
    (problem,) = info.value.problems
    assert problem == Problem(
        "nodePools[0].gpu.model", "unknown GPU model", key, tuple(sorted(GPU_MODELS)), problem.hint
    )
    assert hint in problem.hint


def test_unknown_gpu_model_error_is_a_spec_error() -> None:
    assert issubclass(UnknownGpuModelError, SpecError)
