"""Lifecycle settings of a pool: upgrade policy per cloud, EKS AMI pin, fixed names (table-driven)."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.clouds.registry import Cloud
from gpuready.core.specs import UpgradePolicy
from gpuready.errors import SpecError
from tests.core.conftest import SpecFactory


def _any(value: str) -> Any:
    """A string as a user could write it, where the type checker expects a Literal."""
    return value


ACCEPTED = [
    pytest.param("eks", {}, id="eks-defaults"),
    pytest.param("eks", {"upgrade": UpgradePolicy(max_unavailable=100)}, id="eks-max-unavailable-100"),
    pytest.param("eks", {"upgrade": UpgradePolicy(strategy="surge")}, id="eks-surge-default-strategy"),
    pytest.param("eks", {"release_version": "1.33.0-20250704"}, id="eks-al2023-release"),
    pytest.param("eks", {"release_version": "1.41.0-5d9ac849", "image": "bottlerocket"}, id="eks-br-release"),
    pytest.param("eks", {"fixed_name": True}, id="eks-fixed-name"),
    pytest.param("aks", {"upgrade": UpgradePolicy(max_unavailable=2)}, id="aks-rolling-2"),
    pytest.param("aks", {"upgrade": UpgradePolicy(strategy="surge", max_surge=2)}, id="aks-surge-2"),
    pytest.param("aks", {"fixed_name": True}, id="aks-fixed-name-explicit"),
    pytest.param("gke", {"upgrade": UpgradePolicy(strategy="blue-green", batch_node_count=2)}, id="gke-blue-green"),
    pytest.param("gke", {"upgrade": UpgradePolicy(strategy="surge", max_surge=1, max_unavailable=1)}, id="gke-surge"),
]

REFUSED = [
    pytest.param(
        "eks", {"upgrade": UpgradePolicy(strategy=_any("canary"))}, "upgrade.strategy", "unknown", id="strategy"
    ),
    pytest.param(
        "gke", {"upgrade": UpgradePolicy(max_surge=1)}, "upgrade.maxSurge", "strategy surge", id="surge-rolling"
    ),
    pytest.param(
        "gke", {"upgrade": UpgradePolicy(max_unavailable=0)}, "upgrade.maxUnavailable", "at least 1", id="rolling-0"
    ),
    pytest.param(
        "aks", {"upgrade": UpgradePolicy(strategy="surge", max_surge=0)}, "upgrade.maxSurge", "at least 1", id="surge-0"
    ),
    pytest.param(
        "gke", {"upgrade": UpgradePolicy(max_unavailable=-1)}, "upgrade.maxUnavailable", "0 or more", id="negative"
    ),
    pytest.param(
        "eks", {"upgrade": UpgradePolicy(strategy="blue-green")}, "upgrade.strategy", "GKE feature", id="eks-blue-green"
    ),
    pytest.param(
        "aks", {"upgrade": UpgradePolicy(strategy="blue-green")}, "upgrade.strategy", "GKE feature", id="aks-blue-green"
    ),
    pytest.param(
        "gke",
        {"upgrade": UpgradePolicy(strategy="blue-green", max_surge=1)},
        "upgrade",
        "belong to rolling",
        id="bg-surge",
    ),
    pytest.param(
        "gke",
        {"upgrade": UpgradePolicy(strategy="blue-green", batch_node_count=0)},
        "upgrade.batchNodeCount",
        "1 or more",
        id="bg-batch-0",
    ),
    pytest.param(
        "gke",
        {"upgrade": UpgradePolicy(strategy="blue-green", pool_soak_seconds=8 * 86400)},
        "upgrade.poolSoakSeconds",
        "7 days",
        id="bg-soak-8d",
    ),
    pytest.param(
        "gke",
        {"upgrade": UpgradePolicy(batch_node_count=3)},
        "upgrade.batchNodeCount",
        "blue-green only",
        id="batch-on-rolling",
    ),
    pytest.param(
        "eks",
        {"upgrade": UpgradePolicy(strategy="surge", max_surge=2)},
        "upgrade.maxSurge",
        "EKS decides",
        id="eks-surge-count",
    ),
    pytest.param(
        "eks", {"upgrade": UpgradePolicy(max_unavailable=101)}, "upgrade.maxUnavailable", "1 to 100", id="eks-101"
    ),
    pytest.param("gke", {"release_version": "1.33.0-20250704"}, "releaseVersion", "EKS AMI", id="gke-release"),
    pytest.param(
        "eks", {"release_version": "latest"}, "releaseVersion", "not an EKS AMI release", id="eks-release-bad"
    ),
    pytest.param("aks", {"fixed_name": False}, "fixedName", "12 characters", id="aks-rotating"),
    pytest.param("eks", {"name": "a" * 57}, "name", "suffix", id="eks-no-room-for-suffix"),
    pytest.param("gke", {"name": "a" * 34}, "name", "at most 33", id="gke-no-room-for-suffix"),
]


@pytest.mark.parametrize(("cloud", "overrides"), ACCEPTED)
def test_lifecycle_settings_are_accepted(make_spec: SpecFactory, cloud: Cloud, overrides: dict[str, Any]) -> None:
    spec = make_spec(cloud, **overrides)
    assert spec.upgrade == overrides.get("upgrade", UpgradePolicy())


@pytest.mark.parametrize(("cloud", "overrides", "path", "text"), REFUSED)
def test_lifecycle_settings_are_refused(
    make_spec: SpecFactory, cloud: Cloud, overrides: dict[str, Any], path: str, text: str
) -> None:
    with pytest.raises(SpecError) as info:
        make_spec(cloud, **overrides)
    assert any(p.path == path and text in str(p) for p in info.value.problems), info.value.problems


@pytest.mark.parametrize(
    ("cloud", "fixed", "rotates"),
    [("eks", None, True), ("eks", True, False), ("gke", None, True), ("gke", True, False), ("aks", None, False)],
)
def test_which_pools_rotate_their_names(
    make_spec: SpecFactory, cloud: Cloud, fixed: bool | None, rotates: bool
) -> None:
    assert make_spec(cloud, fixed_name=fixed).rotates_name is rotates


@pytest.mark.parametrize(
    ("policy", "unavailable", "surge"),
    [
        (UpgradePolicy(), 1, 0),
        (UpgradePolicy(strategy="surge"), 0, 1),
        (UpgradePolicy(strategy="surge", max_unavailable=2), 2, 1),
    ],
)
def test_upgrade_defaults_follow_the_strategy(policy: UpgradePolicy, unavailable: int, surge: int) -> None:
    assert (policy.unavailable, policy.surge) == (unavailable, surge)
