"""The advertiser seam: the registry, the pool's choice, and the extended-resources advertiser's facts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from gpuready.core.advertisers import registry
from gpuready.core.advertisers.dra import DYNAMIC_RESOURCES
from gpuready.core.advertisers.extended_resources import EXTENDED_RESOURCES, ExtendedResources
from gpuready.core.advertisers.interface import Advertiser, GpuRequest
from gpuready.core.scheduling import LABEL_ADVERTISE, pool_labels
from gpuready.core.specs import GpuSharing, MigPartitioning
from gpuready.core.workload import GpuWorkload
from gpuready.errors import SpecError
from tests.core.conftest import SpecFactory, build_spec


def test_every_advertiser_is_registered_once_under_its_key() -> None:
    keys = [a.key for a in registry.ADVERTISERS]
    assert keys == ["extended-resources", "dra"]
    assert registry.ADVERTISE_VALUES == ("device-plugin", "dra")
    for advertiser in registry.ADVERTISERS:
        assert isinstance(advertiser, Advertiser)
        assert registry.advertiser_named(advertiser.key) is advertiser


def test_an_unknown_advertiser_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="no GPU advertiser 'claims'; known: extended-resources, dra"):
        registry.advertiser_named("claims")


@pytest.mark.parametrize("cloud", ["eks", "aks", "gke"])
@pytest.mark.parametrize(
    ("advertise", "expected"),
    [(None, EXTENDED_RESOURCES), ("device-plugin", EXTENDED_RESOURCES), ("dra", DYNAMIC_RESOURCES)],
)
def test_the_pool_chooses_its_advertiser_by_its_advertise_key(
    make_spec: SpecFactory, cloud: str, advertise: str | None, expected: Advertiser
) -> None:
    spec = make_spec(cloud) if advertise is None else make_spec(cloud, advertise=advertise)
    assert registry.advertiser_for(spec) is expected


@pytest.mark.parametrize(("given", "hint"), [("dr", "did you mean 'dra'?"), ("extended", "omit advertise")])
def test_an_unknown_advertise_value_is_refused_with_the_allowed_ones(
    make_spec: SpecFactory, given: str, hint: str
) -> None:
    with pytest.raises(SpecError) as caught:
        make_spec("eks", advertise=given)
    (problem,) = [p for p in caught.value.problems if p.path == "advertise"]
    assert (problem.value, tuple(problem.allowed)) == (given, ("device-plugin", "dra"))
    assert hint in str(problem)


@pytest.mark.parametrize(
    ("name", "gpu"),
    [
        ("nvidia.com/gpu", True),
        ("nvidia.com/gpu.shared", True),
        ("nvidia.com/mig-1g.10gb", True),
        ("nvidia.com/mig-3g.40gb", True),
        ("nvidia.com/gpu.present", False),
        ("amd.com/gpu", False),
        ("cpu", False),
    ],
)
def test_gpu_resources(name: str, gpu: bool) -> None:
    assert EXTENDED_RESOURCES.is_gpu_resource(name) is gpu
    assert registry.is_gpu_resource(name) is gpu


@pytest.mark.parametrize(
    ("capacity", "partitions"),
    [({"nvidia.com/mig-1g.10gb": 7}, True), ({"nvidia.com/gpu": 8}, False), ({}, False)],
)
def test_partitions_shown_by_capacity(capacity: Mapping[str, int], partitions: bool) -> None:
    assert EXTENDED_RESOURCES.shows_partitions(capacity) is partitions


@pytest.mark.parametrize(
    ("capacity", "gpus", "replicas", "mig", "expected"),
    [
        ({"nvidia.com/gpu": 8}, 8, None, False, {"nvidia.com/gpu": 8}),
        ({"nvidia.com/gpu": 16}, 4, 4, False, {"nvidia.com/gpu": 16}),
        ({"nvidia.com/gpu.shared": 16}, 4, 4, False, {"nvidia.com/gpu.shared": 16}),
        ({"nvidia.com/gpu.shared": 4}, 4, None, False, {"nvidia.com/gpu": 4}),
        ({"nvidia.com/mig-1g.10gb": 7}, 1, None, True, {}),
        ({}, None, None, False, {}),
    ],
)
def test_inferred_allocatable_of_a_foreign_node(
    capacity: Mapping[str, int], gpus: int | None, replicas: int | None, mig: bool, expected: dict[str, int]
) -> None:
    assert EXTENDED_RESOURCES.inferred_allocatable(capacity, gpus, replicas, mig=mig) == expected


def test_a_node_is_matched_to_the_advertiser_of_its_resources() -> None:
    assert registry.advertiser_for_node({"nvidia.com/gpu": 1}) is EXTENDED_RESOURCES
    assert registry.advertiser_for_node({"cpu": 4}) is EXTENDED_RESOURCES
    assert registry.advertiser_for_node({"cpu": 4}) is registry.ADVERTISERS[0]


def test_requests_equal_limits() -> None:
    fragment = ExtendedResources().container_resources(GpuRequest(resource="nvidia.com/mig-1g.10gb", count=2))
    assert fragment == {"limits": {"nvidia.com/mig-1g.10gb": 2}, "requests": {"nvidia.com/mig-1g.10gb": 2}}


def test_summary_is_the_primary_resource_and_allocatable(make_spec: SpecFactory) -> None:
    shared = make_spec("eks", instance_type="g6.12xlarge", sharing=GpuSharing(mode="time-slicing", replicas=4))
    summary = EXTENDED_RESOURCES.summary(shared)
    assert (summary.resource_name, dict(summary.allocatable)) == ("nvidia.com/gpu", {"nvidia.com/gpu": 16})
    mixed = make_spec(
        "eks",
        instance_type="p4de.24xlarge",
        sharing=MigPartitioning(strategy="mixed", layout={"3g.40gb": 1, "1g.10gb": 4}),
    )
    assert EXTENDED_RESOURCES.summary(mixed).resource_name == "nvidia.com/mig-1g.10gb"


class _ClaimsAdvertiser(ExtendedResources):
    """A stand-in second advertiser that asks for GPUs at pod level, as DRA's ResourceClaims will."""

    key = "claims"

    def container_resources(self, request: GpuRequest) -> dict[str, Any]:
        return {"claims": [{"name": "gpu"}]}

    def pod_fields(self, request: GpuRequest) -> dict[str, Any]:
        return {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": f"{request.resource}-{request.count}"}]}


def test_extended_resources_need_no_pod_fields() -> None:
    assert EXTENDED_RESOURCES.pod_fields(GpuRequest(resource="nvidia.com/gpu", count=1)) == {}


def test_a_workload_asks_its_advertiser_for_container_and_pod_fields() -> None:
    workload = GpuWorkload(
        pool="p",
        resource="gpu.example.com",
        count=2,
        node_selector={"k": "v"},
        tolerations=(),
        advertiser=_ClaimsAdvertiser(),
    )
    assert workload.resources() == {"claims": [{"name": "gpu"}]}
    assert workload.pod_spec() == {
        "nodeSelector": {"k": "v"},
        "tolerations": [],
        "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "gpu.example.com-2"}],
    }


@pytest.mark.parametrize(("advertise", "marker"), [("device-plugin", None), ("dra", "dra")])
def test_a_pools_labels_say_how_its_gpus_are_advertised(advertise: str, marker: str | None) -> None:
    spec = build_spec("eks", advertise=advertise)
    labels = pool_labels(spec)
    assert labels.get(LABEL_ADVERTISE) == marker
    assert registry.advertiser_for_labels(labels) is registry.advertiser_for(spec)
    assert registry.advertiser_for(spec).serves_device_class("gpu.nvidia.com") is (advertise == "dra")
