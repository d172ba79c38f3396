"""Driver ownership per platform and GPU stack: the full matrix, written by hand from the shared reference.

Expected rows come from nvidia.md section 7 ("Driver / toolkit choice per platform"), not from the code:

- EKS AL2023 NVIDIA AMI: driver and toolkit preinstalled, no device plugin -> device-plugin chart, or the GPU
  Operator with ``driver.enabled=false`` / ``toolkit.enabled=false``; nothing at all leaves the GPUs unadvertised.
- EKS Bottlerocket NVIDIA: driver, toolkit and device plugin included -> "Do not install another device plugin";
  the GPU Operator only with driver, toolkit and device plugin off.
- AKS default GPU pool (Ubuntu / Azure Linux): driver and toolkit preinstalled, no device plugin -> device-plugin
  chart, or the GPU Operator with driver/toolkit off. AKS pool without the driver (``driver: operator``) -> the
  GPU Operator with defaults (it installs the driver).
- GKE with GKE's driver: GKE's driver and device plugin -> install nothing; NVIDIA's stack only with driver
  installation disabled, on Ubuntu (``driver: operator``, ``image: ubuntu``), where the operator installs it.
- No operator driver containers for Amazon Linux / Bottlerocket (NVIDIA/gpu-operator#686) and none for COS on
  GKE: those platforms cannot be built as pools at all.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from gpuready.core.clouds.registry import Cloud, cloud_names, cloud_profile
from gpuready.core.gpu_stack import ownership
from gpuready.core.gpu_stack.kinds import STACK_KINDS, StackKind, stack_kind
from gpuready.core.specs import DRIVER_OWNERS, GpuPoolSpec
from gpuready.errors import SpecError

INSTANCE_TYPES: dict[Cloud, str] = {"eks": "g6.xlarge", "aks": "Standard_NC4as_T4_v3", "gke": "g2-standard-4"}


class Row(NamedTuple):
    cloud: Cloud
    image: str
    driver: str
    kind: StackKind
    ok: bool
    operator_driver: bool
    hint_words: tuple[str, ...] = ()
    """For refusals: words the hint must contain (the way out)."""
    not_in_hint: tuple[str, ...] = ()
    """For refusals: ways that would be refused again on this platform (a dead end), which the hint must not offer."""


MATRIX: list[Row] = [
    # NVIDIA's DRA driver installs no driver (chart values nvidiaDriverRoot: /, the host's) and must not share a
    # node with a device plugin (its templates/validation.yaml): only where the cloud's image has the driver and
    # no device plugin of its own runs.
    Row("eks", "al2023", "cloud", "dra-driver", ok=True, operator_driver=False),
    Row("eks", "bottlerocket", "cloud", "dra-driver", ok=False, operator_driver=False, hint_words=("al2023",)),
    Row("aks", "ubuntu", "cloud", "dra-driver", ok=True, operator_driver=False),
    Row("aks", "azurelinux", "cloud", "dra-driver", ok=True, operator_driver=False),
    Row("aks", "ubuntu", "operator", "dra-driver", ok=False, operator_driver=False, hint_words=("driver: cloud",)),
    Row("aks", "azurelinux", "operator", "dra-driver", ok=False, operator_driver=False, hint_words=("driver: cloud",)),
    Row("gke", "cos", "cloud", "dra-driver", ok=False, operator_driver=False, hint_words=("none",)),
    Row("gke", "ubuntu", "cloud", "dra-driver", ok=False, operator_driver=False, hint_words=("none",)),
    Row("gke", "ubuntu", "operator", "dra-driver", ok=False, operator_driver=False,
        hint_words=("device-plugin",), not_in_hint=("driver: cloud",)),
    # The GPU Operator's GPUCluster (experimental) manages no driver (only through NVIDIADriver CRs, which gpuready
    # does not drive) and runs no container toolkit or device plugin (v26.7.0 gpucluster_types.go and
    # newGPUClusterStates): the same platforms as the DRA driver chart.
    Row("eks", "al2023", "cloud", "gpu-operator-dra", ok=True, operator_driver=False),
    Row("eks", "bottlerocket", "cloud", "gpu-operator-dra", ok=False, operator_driver=False, hint_words=("al2023",)),
    Row("aks", "ubuntu", "cloud", "gpu-operator-dra", ok=True, operator_driver=False),
    Row("aks", "azurelinux", "cloud", "gpu-operator-dra", ok=True, operator_driver=False),
    Row("aks", "ubuntu", "operator", "gpu-operator-dra", ok=False, operator_driver=False,
        hint_words=("driver: cloud",)),
    Row("aks", "azurelinux", "operator", "gpu-operator-dra", ok=False, operator_driver=False,
        hint_words=("driver: cloud",)),
    Row("gke", "cos", "cloud", "gpu-operator-dra", ok=False, operator_driver=False, hint_words=("none",)),
    Row("gke", "ubuntu", "cloud", "gpu-operator-dra", ok=False, operator_driver=False, hint_words=("none",)),
    Row("gke", "ubuntu", "operator", "gpu-operator-dra", ok=False, operator_driver=False,
        hint_words=("device-plugin",), not_in_hint=("driver: cloud",)),
    # EKS AL2023 NVIDIA AMI: driver + toolkit from the AMI, no device plugin.
    Row("eks", "al2023", "cloud", "gpu-operator", ok=True, operator_driver=False),
    Row("eks", "al2023", "cloud", "device-plugin", ok=True, operator_driver=False),
    Row("eks", "al2023", "cloud", "none", ok=False, operator_driver=False,
        hint_words=("gpu-operator", "device-plugin")),
    Row("eks", "al2023", "cloud", "external", ok=True, operator_driver=False),
    # EKS Bottlerocket NVIDIA: driver, toolkit and its own device plugin.
    Row("eks", "bottlerocket", "cloud", "gpu-operator", ok=True, operator_driver=False),
    Row("eks", "bottlerocket", "cloud", "device-plugin", ok=False, operator_driver=False,
        hint_words=("none", "gpu-operator")),
    Row("eks", "bottlerocket", "cloud", "none", ok=True, operator_driver=False),
    Row("eks", "bottlerocket", "cloud", "external", ok=False, operator_driver=False,
        hint_words=("none", "gpu-operator")),
    # AKS default GPU pools: driver + toolkit from AKS, no device plugin.
    Row("aks", "ubuntu", "cloud", "gpu-operator", ok=True, operator_driver=False),
    Row("aks", "ubuntu", "cloud", "device-plugin", ok=True, operator_driver=False),
    Row("aks", "ubuntu", "cloud", "none", ok=False, operator_driver=False,
        hint_words=("gpu-operator", "device-plugin")),
    Row("aks", "ubuntu", "cloud", "external", ok=True, operator_driver=False),
    Row("aks", "azurelinux", "cloud", "gpu-operator", ok=True, operator_driver=False),
    Row("aks", "azurelinux", "cloud", "device-plugin", ok=True, operator_driver=False),
    Row("aks", "azurelinux", "cloud", "none", ok=False, operator_driver=False,
        hint_words=("gpu-operator", "device-plugin")),
    Row("aks", "azurelinux", "cloud", "external", ok=True, operator_driver=False),
    # AKS pools without the AKS driver (gpuProfile.driver=None): the GPU Operator installs it.
    Row("aks", "ubuntu", "operator", "gpu-operator", ok=True, operator_driver=True),
    Row("aks", "ubuntu", "operator", "device-plugin", ok=False, operator_driver=False,
        hint_words=("gpu-operator", "driver: cloud")),
    Row("aks", "ubuntu", "operator", "none", ok=False, operator_driver=False, hint_words=("gpu-operator",),
        not_in_hint=("device-plugin",)),
    Row("aks", "ubuntu", "operator", "external", ok=True, operator_driver=False),
    Row("aks", "azurelinux", "operator", "gpu-operator", ok=True, operator_driver=True),
    Row("aks", "azurelinux", "operator", "device-plugin", ok=False, operator_driver=False,
        hint_words=("gpu-operator", "driver: cloud")),
    Row("aks", "azurelinux", "operator", "none", ok=False, operator_driver=False, hint_words=("gpu-operator",),
        not_in_hint=("device-plugin",)),
    Row("aks", "azurelinux", "operator", "external", ok=True, operator_driver=False),
    # GKE with GKE's driver and GKE's device plugin: nothing of NVIDIA's.
    Row("gke", "cos", "cloud", "gpu-operator", ok=False, operator_driver=False,
        hint_words=("none", "driver: operator", "ubuntu")),
    Row("gke", "cos", "cloud", "device-plugin", ok=False, operator_driver=False,
        hint_words=("none", "driver: operator", "ubuntu")),
    Row("gke", "cos", "cloud", "none", ok=True, operator_driver=False),
    Row("gke", "cos", "cloud", "external", ok=False, operator_driver=False,
        hint_words=("none", "driver: operator", "ubuntu")),
    Row("gke", "ubuntu", "cloud", "gpu-operator", ok=False, operator_driver=False,
        hint_words=("none", "driver: operator", "ubuntu")),
    Row("gke", "ubuntu", "cloud", "device-plugin", ok=False, operator_driver=False,
        hint_words=("none", "driver: operator", "ubuntu")),
    Row("gke", "ubuntu", "cloud", "none", ok=True, operator_driver=False),
    Row("gke", "ubuntu", "cloud", "external", ok=False, operator_driver=False,
        hint_words=("none", "driver: operator", "ubuntu")),
    # GKE Ubuntu with driver installation disabled: the GPU Operator's driver containers.
    Row("gke", "ubuntu", "operator", "gpu-operator", ok=True, operator_driver=True),
    Row("gke", "ubuntu", "operator", "device-plugin", ok=False, operator_driver=False,
        hint_words=("gpu-operator",), not_in_hint=("driver: cloud",)),
    Row("gke", "ubuntu", "operator", "none", ok=False, operator_driver=False, hint_words=("gpu-operator",),
        not_in_hint=("device-plugin",)),
    Row("gke", "ubuntu", "operator", "external", ok=True, operator_driver=False),
]  # fmt: skip

UNBUILDABLE: list[tuple[Cloud, str, str]] = [
    ("eks", "al2023", "operator"),  # no operator driver containers for Amazon Linux
    ("eks", "bottlerocket", "operator"),  # nor for Bottlerocket
    ("gke", "cos", "operator"),  # operator driver containers need Ubuntu on GKE
]

ADVERTISERS: list[tuple[Cloud, str, str, ownership.PlatformPlugin]] = [
    ("eks", "al2023", "cloud", "nvidia"),
    ("eks", "bottlerocket", "cloud", "bottlerocket"),
    ("aks", "ubuntu", "cloud", "nvidia"),
    ("aks", "azurelinux", "cloud", "nvidia"),
    ("aks", "ubuntu", "operator", "nvidia"),
    ("aks", "azurelinux", "operator", "nvidia"),
    ("gke", "cos", "cloud", "gke-device-plugin"),
    ("gke", "ubuntu", "cloud", "gke-device-plugin"),
    ("gke", "ubuntu", "operator", "nvidia"),
]


def _id(row: Row) -> str:
    return f"{row.cloud}-{row.image}-{row.driver}-{row.kind}"


def _pool(cloud: Cloud, image: str, driver: str) -> GpuPoolSpec:
    return GpuPoolSpec(
        cloud=cloud,
        name="gpu",
        instance_type=INSTANCE_TYPES[cloud],
        min_size=0,
        max_size=1,
        image=image,
        driver=driver,  # type: ignore[arg-type]  # the matrix walks every owner
    )


@pytest.mark.parametrize("row", MATRIX, ids=_id)
def test_fit(row: Row) -> None:
    verdict = ownership.fit(cloud_profile(row.cloud), row.image, row.driver, stack_kind(row.kind))
    assert verdict.ok is row.ok, verdict.summary
    assert verdict.operator_driver is row.operator_driver
    assert verdict.summary
    if row.ok:
        assert verdict.hint == ""
    else:
        for word in row.hint_words:
            assert word in verdict.hint, verdict.hint


@pytest.mark.parametrize("row", [r for r in MATRIX if r.not_in_hint], ids=_id)
def test_refusal_hint_offers_no_dead_end(row: Row) -> None:
    """A hint never proposes a way that the same platform refuses too (see the matrix above)."""
    verdict = ownership.fit(cloud_profile(row.cloud), row.image, row.driver, stack_kind(row.kind))
    assert not verdict.ok
    for word in row.not_in_hint:
        assert word not in verdict.hint, verdict.hint


def test_dead_ends_named_in_not_in_hint_are_refused() -> None:
    """The dead ends the table forbids in hints are indeed refused on those platforms (guards the table itself)."""
    refused = {(r.cloud, r.image, r.driver, r.kind) for r in MATRIX if not r.ok}
    assert ("aks", "ubuntu", "operator", "device-plugin") in refused
    assert ("gke", "ubuntu", "operator", "device-plugin") in refused
    assert ("gke", "ubuntu", "cloud", "device-plugin") in refused  # what "driver: cloud" would lead to on GKE


def test_matrix_covers_every_platform_and_kind() -> None:
    every = {(c, i, d) for c in cloud_names() for i in cloud_profile(c).images for d in DRIVER_OWNERS}
    in_matrix = {(r.cloud, r.image, r.driver) for r in MATRIX}
    assert in_matrix | set(UNBUILDABLE) == every
    assert not in_matrix & set(UNBUILDABLE)
    assert len(MATRIX) == len(in_matrix) * len(STACK_KINDS)
    assert {(r.cloud, r.image, r.driver, r.kind) for r in MATRIX} == {
        (c, i, d, k) for c, i, d in in_matrix for k in STACK_KINDS
    }


@pytest.mark.parametrize(("cloud", "image", "driver"), sorted({(r.cloud, r.image, r.driver) for r in MATRIX}))
def test_matrix_platforms_are_buildable_pools(cloud: Cloud, image: str, driver: str) -> None:
    pool = _pool(cloud, image, driver)
    assert (pool.cloud, pool.image_family, pool.driver) == (cloud, image, driver)


@pytest.mark.parametrize(("cloud", "image", "driver"), UNBUILDABLE)
def test_platforms_outside_the_matrix_are_refused_as_pools(cloud: Cloud, image: str, driver: str) -> None:
    with pytest.raises(SpecError) as raised:
        _pool(cloud, image, driver)
    assert any(p.path in ("driver", "image") for p in raised.value.problems), str(raised.value)


@pytest.mark.parametrize(("cloud", "image", "driver", "expected"), ADVERTISERS)
def test_platform_plugin(cloud: Cloud, image: str, driver: str, expected: ownership.PlatformPlugin) -> None:
    assert ownership.platform_plugin(cloud_profile(cloud), image, driver) == expected


def test_platform_plugin_table_covers_the_matrix_platforms() -> None:
    assert {(c, i, d) for c, i, d, _ in ADVERTISERS} == {(r.cloud, r.image, r.driver) for r in MATRIX}


@pytest.mark.parametrize(("cloud", "image", "driver", "expected"), ADVERTISERS)
def test_the_platforms_own_plugin_is_exactly_where_kind_none_works(
    cloud: Cloud, image: str, driver: str, expected: ownership.PlatformPlugin
) -> None:
    """``none`` fits exactly the platforms that bring a device plugin (GKE's, Bottlerocket's)."""
    assert ownership.fit(cloud_profile(cloud), image, driver, stack_kind("none")).ok is (expected != "nvidia")
