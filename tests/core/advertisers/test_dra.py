"""The DRA advertiser's facts: DeviceClasses per pool, claim requests, and the ResourceClaimTemplate it names."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.advertisers.dra import DYNAMIC_RESOURCES, claim_template, claim_template_name
from gpuready.core.advertisers.interface import GpuRequest
from gpuready.core.specs import MigPartitioning
from gpuready.errors import SpecError
from tests.core.conftest import SpecFactory
from tests.helm_render import strict_problems

DRA_K8S = "1.34.0"
"""``resource.k8s.io/v1`` is served from Kubernetes 1.34."""


@pytest.mark.parametrize(
    ("instance_type", "sharing", "devices"),
    [
        ("g6.xlarge", None, {"gpu.nvidia.com": 1}),
        ("g6.12xlarge", None, {"gpu.nvidia.com": 4}),
        ("p4d.24xlarge", MigPartitioning(profile="1g.5gb"), {"mig.nvidia.com": 56}),
        ("p5.48xlarge", MigPartitioning(profile="3g.40gb"), {"mig.nvidia.com": 16}),
    ],
)
def test_devices_per_node_by_device_class(
    make_spec: SpecFactory, instance_type: str, sharing: MigPartitioning | None, devices: dict[str, int]
) -> None:
    extra: dict[str, Any] = {} if sharing is None else {"sharing": sharing}
    spec = make_spec("eks", instance_type=instance_type, advertise="dra", **extra)
    assert DYNAMIC_RESOURCES.devices_per_node(spec) == devices
    summary = DYNAMIC_RESOURCES.summary(spec)
    assert (summary.resource_name, dict(summary.allocatable)) == (next(iter(devices)), {})


def test_a_dra_node_advertises_no_gpu_resource() -> None:
    for name in ("nvidia.com/gpu", "nvidia.com/mig-1g.10gb", "gpu.nvidia.com"):
        assert DYNAMIC_RESOURCES.is_gpu_resource(name) is False
    assert DYNAMIC_RESOURCES.inferred_allocatable({"nvidia.com/gpu": 1}, 1, None, mig=False) == {}


@pytest.mark.parametrize(
    ("gpus", "resource", "paths"),
    [
        (0, None, ["gpus"]),
        (1.5, None, ["gpus"]),
        (True, None, ["gpus"]),
        (5, None, ["gpus"]),
        (1, "mig.nvidia.com", ["resource"]),
        (1, "nvidia.com/gpu", ["resource"]),
    ],
)
def test_bad_requests_are_refused(make_spec: SpecFactory, gpus: object, resource: str | None, paths: list[str]) -> None:
    spec = make_spec("eks", instance_type="g6.12xlarge", advertise="dra")
    with pytest.raises(SpecError) as caught:
        DYNAMIC_RESOURCES.request(spec, gpus, resource)
    assert [p.path for p in caught.value.problems] == paths


def test_a_request_becomes_a_claim_in_the_pod_and_in_each_container(make_spec: SpecFactory) -> None:
    spec = make_spec("eks", instance_type="g6.12xlarge", advertise="dra")
    request = DYNAMIC_RESOURCES.request(spec, 2, None)
    assert request == GpuRequest(resource="gpu.nvidia.com", count=2)
    assert DYNAMIC_RESOURCES.container_resources(request) == {"claims": [{"name": "gpus"}]}
    assert DYNAMIC_RESOURCES.pod_fields(request) == {
        "resourceClaims": [{"name": "gpus", "resourceClaimTemplateName": "gpuready-gpu-2"}]
    }


@pytest.mark.parametrize(
    "request_", [GpuRequest(resource="gpu.nvidia.com", count=2), GpuRequest(resource="mig.nvidia.com", count=1)]
)
def test_the_claim_template_is_valid_resource_k8s_io_v1(request_: GpuRequest) -> None:
    template = claim_template(request_, "ml")
    assert strict_problems(template, DRA_K8S) == []
    assert template["metadata"]["name"] == claim_template_name(request_)
    (device_request,) = template["spec"]["spec"]["devices"]["requests"]
    assert device_request["exactly"]["deviceClassName"] == request_.resource
    assert device_request["exactly"]["count"] == request_.count
