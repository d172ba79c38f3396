"""A validated pool carries what it resolves to (profile, provisioner, advertiser, GPUs, image, sharing delivery,
platform plugin), the same answers the registries give by name; code downstream of validation reads them from the
pool and asks no registry again."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gpuready.core import sharing_plan
from gpuready.core.advertisers.registry import advertiser_for
from gpuready.core.capacity.registry import provisioner_for
from gpuready.core.clouds import registry as clouds
from gpuready.core.cluster_quotas import pool_count_problems
from gpuready.core.gpu_stack import ownership
from gpuready.core.pool_parts import GpuSharing, MigPartitioning
from gpuready.core.pool_summary import pool_outputs
from gpuready.core.scheduling import pool_labels, pool_taints
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import parse_stack_settings
from gpuready.core.workload import gpu_workload
from gpuready.verify.expectations import expectation_for
from tests.core.conftest import build_spec

POOLS: dict[str, Callable[[], GpuPoolSpec]] = {
    "eks default": lambda: build_spec("eks"),
    "eks bottlerocket": lambda: build_spec("eks", image="bottlerocket"),
    "eks time-slicing": lambda: build_spec("eks", sharing=GpuSharing(mode="time-slicing", replicas=4)),
    "eks karpenter dra": lambda: build_spec("eks", provisioner="karpenter", advertise="dra", min_size=0),
    "eks auto mode": lambda: build_spec("eks", provisioner="eks-auto-mode", min_size=0),
    "aks mig by the cloud": lambda: build_spec(
        "aks", instance_type="Standard_NC24ads_A100_v4", sharing=MigPartitioning(profile="1g.10gb")
    ),
    "gke operator driver": lambda: build_spec("gke", image="ubuntu", driver="operator"),
    "gke time-sharing by the cloud": lambda: build_spec("gke", sharing=GpuSharing(mode="time-slicing", replicas=2)),
}

EXPECTED: dict[str, tuple[str, str, str, str, str, str]] = {
    # pool: (cloud, provisioner, advertiser, image, delivery, platform plugin)
    "eks default": ("eks", "node-group", "extended-resources", "al2023", "none", "nvidia"),
    "eks bottlerocket": ("eks", "node-group", "extended-resources", "bottlerocket", "none", "bottlerocket"),
    "eks time-slicing": ("eks", "node-group", "extended-resources", "al2023", "device-plugin-config", "nvidia"),
    "eks karpenter dra": ("eks", "karpenter", "dra", "al2023", "none", "nvidia"),
    "eks auto mode": ("eks", "eks-auto-mode", "extended-resources", "al2023", "none", "eks-auto-mode"),
    "aks mig by the cloud": ("aks", "node-pool", "extended-resources", "ubuntu", "cloud", "nvidia"),
    "gke operator driver": ("gke", "node-pool", "extended-resources", "ubuntu", "none", "nvidia"),
    "gke time-sharing by the cloud": ("gke", "node-pool", "extended-resources", "cos", "cloud", "gke-device-plugin"),
}  # fmt: skip


@pytest.mark.parametrize("name", POOLS)
def test_a_validated_pool_carries_what_it_resolves_to(name: str) -> None:
    resolved = POOLS[name]().resolved
    got = (
        resolved.profile.name,
        resolved.provisioner.key,
        resolved.advertiser.key,
        resolved.image,
        resolved.delivery,
        resolved.platform_plugin,
    )
    assert got == EXPECTED[name]


@pytest.mark.parametrize("name", POOLS)
def test_the_resolved_pool_agrees_with_the_registries(name: str) -> None:
    spec = POOLS[name]()
    resolved = spec.resolved
    assert spec.profile is resolved.profile is clouds.cloud_profile(spec.cloud)
    assert resolved.provisioner is provisioner_for(spec)
    assert resolved.advertiser is advertiser_for(spec)
    assert resolved.image == spec.image_family
    assert resolved.delivery == sharing_plan.delivery(spec.profile, spec.driver, spec.sharing_mode)
    assert resolved.platform_plugin == ownership.platform_plugin(
        spec.profile, resolved.image, spec.driver, spec.provisioner
    )


VALIDATION_LOOKUPS_MOST = 1
"""Profile look-ups by name to validate one pool: the spec's own (the catalog's instance-type resolution reads the
pool's profile as its ``CloudCatalog``); 26 before pools were resolved once (issue #25)."""


class _CountingProfiles(dict[str, Any]):
    """The registry's registered profiles, counting every look-up by name."""

    def __init__(self, loaded: dict[str, Any]) -> None:
        super().__init__(loaded)
        self.asked: list[str] = []

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.append(key)
        return super().get(key, default)


@pytest.fixture
def profile_lookups(monkeypatch: pytest.MonkeyPatch) -> Iterator[_CountingProfiles]:
    build_spec("eks")  # what validation caches on first use (every cloud's reserved keys) is not a pool's look-up
    counting = _CountingProfiles(clouds.REGISTRY._profiles)
    monkeypatch.setattr(clouds.REGISTRY, "_profiles", counting)
    yield counting


@pytest.mark.parametrize("name", POOLS)
def test_downstream_of_validation_no_profile_or_provisioner_is_looked_up_by_name(
    name: str, profile_lookups: _CountingProfiles
) -> None:
    spec = POOLS[name]()
    made = len(profile_lookups.asked)
    assert 1 <= made <= VALIDATION_LOOKUPS_MOST, profile_lookups.asked
    outputs = pool_outputs(spec, driver="d", lifecycle="l")
    expectation = expectation_for(spec)
    workload = gpu_workload(spec)
    assert (pool_labels(spec), pool_taints(spec)) == (outputs.node_labels, expectation.taints)
    assert workload.resource == outputs.resource_name
    assert profile_lookups.asked[made:] == []


STACK = {
    "cloud": "gke",
    "clusterName": "ml",
    "gkeLocation": "us-central1-a",
    "nodePools": "- {name: l4, instanceType: g2-standard-8, minSize: 0, maxSize: 2}\n"
    "- {name: l4b, instanceType: g2-standard-4, minSize: 0, maxSize: 1}",
}


def test_the_stack_settings_resolve_their_cloud_once(profile_lookups: _CountingProfiles) -> None:
    parse_stack_settings(STACK)  # the joined settings model, built once from every profile, is not the stack's look-up
    profile_lookups.asked.clear()
    settings = parse_stack_settings(STACK)
    assert profile_lookups.asked == ["gke"] * (1 + len(settings.pools))  # `gpuready:cloud`, then each pool's `cloud`
    plan = settings.planned_gpu_stack
    assert settings.profile is plan.profile is settings.pools[0].profile is clouds.cloud_profile("gke")
    assert pool_count_problems(settings.profile, 1000, "nodePools") == []  # no GKE limit, asked of the profile
    assert profile_lookups.asked == ["gke"] * (2 + len(settings.pools))  # only the check's own look-up above
