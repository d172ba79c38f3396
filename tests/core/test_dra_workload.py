"""The workload helper on DRA pools: the claim, the ResourceClaimTemplate it emits (strict ``resource.k8s.io/v1``),
MIG profiles through ``mig.nvidia.com``, CEL selectors on the driver's attributes, one claim shared by containers."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.advertisers.device_selectors import DeviceSelector
from gpuready.core.specs import GpuPoolSpec, MigPartitioning
from gpuready.core.workload import gpu_workload
from gpuready.errors import SpecError
from tests.core.conftest import build_spec
from tests.helm_render import strict_problems

DRA_K8S = "1.34.0"
L4X4 = build_spec("eks", name="l4", instance_type="g6.12xlarge", advertise="dra")
A100_LAYOUT = MigPartitioning(layout={"3g.20gb": 1, "2g.10gb": 1, "1g.5gb": 2}, strategy="mixed")
A100_MIG = build_spec("eks", name="a100", instance_type="p4d.24xlarge", advertise="dra", sharing=A100_LAYOUT)
H100_MIG = build_spec("eks", name="h100", instance_type="p5.48xlarge", advertise="dra",
                      sharing=MigPartitioning(profile="1g.10gb"))  # fmt: skip
PLUGIN = build_spec("eks", name="plain", instance_type="g6.12xlarge")
PRODUCT = DeviceSelector("productName", "==", "NVIDIA L4")
MEMORY = DeviceSelector("memory", ">=", "20Gi")
CC = DeviceSelector("cudaComputeCapability", ">=", "8.9.0")
ATTRS = 'device.attributes["gpu.nvidia.com"]'


@pytest.mark.parametrize(
    ("pool", "gpus", "kwargs", "device_class", "name", "expressions"),
    [
        (L4X4, 2, {}, "gpu.nvidia.com", "gpuready-gpu-2", None),
        (L4X4, 1, {"selectors": [PRODUCT]}, "gpu.nvidia.com", None, [f'{ATTRS}.productName == "NVIDIA L4"']),
        (L4X4, 1, {"selectors": [MEMORY, CC]}, "gpu.nvidia.com", None, [
            'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("20Gi")) >= 0',
            f'{ATTRS}.cudaComputeCapability.compareTo(semver("8.9.0")) >= 0',
        ]),
        (A100_MIG, 2, {"mig_profile": "1g.5gb"}, "mig.nvidia.com", "gpuready-mig-2-1g-5gb",
         [f'{ATTRS}.profile == "1g.5gb"']),
        (A100_MIG, 1, {"mig_profile": "3g.20gb", "selectors": [DeviceSelector("multiprocessors", ">=", "42")]},
         "mig.nvidia.com", None, [f'{ATTRS}.profile == "3g.20gb"',
                                  'device.capacity["gpu.nvidia.com"].multiprocessors.compareTo(quantity("42")) >= 0']),
        (H100_MIG, 7, {"mig_profile": "1g.10gb"}, "mig.nvidia.com", "gpuready-mig-7-1g-10gb",
         [f'{ATTRS}.profile == "1g.10gb"']),
    ],
)  # fmt: skip
def test_a_dra_workload_claims_from_the_template_it_emits(  # noqa: PLR0917  # one parameter per table column
    pool: GpuPoolSpec,
    gpus: int,
    kwargs: dict[str, Any],
    device_class: str,
    name: str | None,
    expressions: list[str] | None,
) -> None:
    workload = gpu_workload(pool, gpus, **kwargs)
    (template,) = workload.objects("ml")
    assert strict_problems(template, DRA_K8S) == []
    assert template["kind"] == "ResourceClaimTemplate"
    assert template["metadata"]["namespace"] == "ml"
    if name is not None:
        assert template["metadata"]["name"] == name
    (request,) = template["spec"]["spec"]["devices"]["requests"]
    exactly = request["exactly"]
    assert (exactly["deviceClassName"], exactly["count"], exactly["allocationMode"]) == (
        device_class,
        gpus,
        "ExactCount",
    )
    got = [s["cel"]["expression"] for s in exactly.get("selectors", [])]
    assert got == (expressions or [])
    pod = workload.pod_spec()
    assert pod["resourceClaims"] == [{"name": "gpus", "resourceClaimTemplateName": template["metadata"]["name"]}]
    pod_object = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ml"},
                  "spec": {**pod, "containers": [workload.container({"name": "c", "image": "busybox"})]}}  # fmt: skip
    assert strict_problems(pod_object, DRA_K8S) == []


def test_template_names_are_stable_and_differ_by_request() -> None:
    names = {
        (gpus, tuple(kw.items())): gpu_workload(A100_MIG, gpus, mig_profile=kw["mig_profile"]).objects("ml")[0][
            "metadata"
        ]["name"]
        for gpus, kw in [
            (1, {"mig_profile": "1g.5gb"}),
            (2, {"mig_profile": "1g.5gb"}),
            (1, {"mig_profile": "2g.10gb"}),
        ]
    }
    assert len(set(names.values())) == 3
    again = gpu_workload(A100_MIG, 1, mig_profile="1g.5gb").objects("other")[0]["metadata"]["name"]
    assert again == names[(1, (("mig_profile", "1g.5gb"),))]
    with_selector = gpu_workload(L4X4, 1, selectors=[PRODUCT]).objects("ml")[0]["metadata"]["name"]
    assert with_selector == gpu_workload(L4X4, 1, selectors=[PRODUCT]).objects("ml")[0]["metadata"]["name"]
    assert with_selector != gpu_workload(L4X4, 1, selectors=[MEMORY]).objects("ml")[0]["metadata"]["name"]
    assert with_selector.startswith("gpuready-gpu-1-")


def test_containers_share_the_pods_one_claim() -> None:
    workload = gpu_workload(L4X4, 2)
    containers = [workload.container({"name": n, "image": "busybox", "resources": {"limits": {"cpu": "1"}}})
                  for n in ("trainer", "sidecar")]  # fmt: skip
    assert [c["resources"] for c in containers] == [{"limits": {"cpu": "1"}, "claims": [{"name": "gpus"}]}] * 2
    assert len(workload.pod_spec()["resourceClaims"]) == 1


def test_a_device_plugin_workload_emits_no_objects() -> None:
    assert gpu_workload(PLUGIN, 1).objects("ml") == []


@pytest.mark.parametrize(
    ("pool", "gpus", "kwargs", "paths", "text"),
    [
        (A100_MIG, 1, {"mig_profile": "1g.10gb+me"}, ["migProfile"], "no such MIG profile"),
        (A100_MIG, 1, {"mig_profile": "7g.40gb"}, ["migProfile"], "not partitioned into this profile"),
        (A100_MIG, 17, {"mig_profile": "3g.20gb"}, ["gpus"], "each publishes 8 3g.20gb MIG devices"),
        (L4X4, 1, {"mig_profile": "1g.10gb"}, ["migProfile"], "has no MIG"),
        (L4X4, 1, {"selectors": [DeviceSelector("vram", ">=", "20Gi")]}, ["selectors[0].attribute"], "no such device"),
        (L4X4, 1, {"selectors": [DeviceSelector("profile", "==", "1g.10gb")]}, ["selectors[0].attribute"], "MIG only"),
        (L4X4, 1, {"selectors": [DeviceSelector("productName", ">=", "A")]}, ["selectors[0].operator"], "string"),
        (L4X4, 1, {"selectors": [DeviceSelector("memory", ">=", "lots")]}, ["selectors[0].value"], "quantity"),
        (L4X4, 1, {"selectors": [DeviceSelector("driverVersion", ">=", "580")]}, ["selectors[0].value"], "8.0.0"),
        (L4X4, 1, {"selectors": [DeviceSelector("productName", "==", 'x" || true')]}, ["selectors[0].value"], "quotes"),
        (L4X4, 1, {"selectors": ["memory >= 20Gi"]}, ["selectors[0]"], "DeviceSelector"),
        (PLUGIN, 1, {"resource": "gpu.nvidia.com"}, ["resource"], "advertise: dra"),
        (PLUGIN, 1, {"selectors": [PRODUCT]}, ["selectors"], "advertise: dra"),
        (PLUGIN, 1, {"mig_profile": "1g.10gb"}, ["migProfile"], "nvidia.com/mig-<profile>"),
    ],
)  # fmt: skip
def test_bad_claims_are_refused(
    pool: GpuPoolSpec, gpus: object, kwargs: dict[str, Any], paths: list[str], text: str
) -> None:
    with pytest.raises(SpecError) as caught:
        gpu_workload(pool, gpus, **kwargs)
    assert [p.path for p in caught.value.problems] == paths
    assert text in str(caught.value)


@pytest.mark.parametrize("namespace", ["", "ML", "a.b", "x" * 64, "-a"])
def test_objects_refuse_a_bad_namespace(namespace: str) -> None:
    with pytest.raises(SpecError) as caught:
        gpu_workload(L4X4, 1).objects(namespace)
    assert caught.value.problems[0].path == "namespace"
