"""``GkeGpuNodePool`` lifecycle under the mock runtime: initialNodeCount creation-only and per zone, rotated names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from gpuready.core.specs import GpuPoolSpec, UpgradePolicy
from gpuready.errors import SpecError
from gpuready.gke.node_pool import GkeGpuNodePool, GkeGpuNodePoolArgs
from tests.pulumi_mocks import CapturingMonitor, runtime_test

NODE_POOL = "gcp:container/nodePool:NodePool"
L4 = GpuPoolSpec(cloud="gke", name="l4", instance_type="g2-standard-8", min_size=0, max_size=6, desired_size=3)


def build(spec: GpuPoolSpec, location: str = "us-central1", zones: Sequence[str] | None = ("us-central1-a",)) -> None:
    @runtime_test
    def program() -> None:
        GkeGpuNodePool("gpu", GkeGpuNodePoolArgs(pool=spec, cluster_name="ml", location=location, node_locations=zones))

    program()


def name_of(mocked: CapturingMonitor, spec: GpuPoolSpec, **where: Any) -> str:
    mocked.forget_registered()
    build(spec, **where)
    name: str = mocked.one(NODE_POOL).inputs["name"]
    return name


def test_initial_node_count_is_creation_only_and_never_deleted_first(mocked: CapturingMonitor) -> None:
    build(L4)
    assert mocked.one(NODE_POOL).options == {"ignoreChanges": ["initialNodeCount"], "deleteBeforeReplace": False}


@pytest.mark.parametrize(
    ("zones", "per_zone"), [(["us-central1-a"], 3), (["us-central1-a", "us-central1-b", "us-central1-c"], 1)]
)
def test_desired_size_is_split_over_the_zones(mocked: CapturingMonitor, zones: list[str], per_zone: int) -> None:
    build(L4, zones=zones)
    assert mocked.one(NODE_POOL).inputs["initialNodeCount"] == per_zone


def test_a_zonal_cluster_needs_no_node_locations(mocked: CapturingMonitor) -> None:
    build(L4, location="us-central1-a", zones=None)
    assert mocked.one(NODE_POOL).inputs["initialNodeCount"] == 3


@pytest.mark.parametrize(
    ("spec", "location", "zones", "text"),
    [
        (L4, "us-central1", None, "gkeNodeLocations: is required for a regional"),
        (replace(L4, desired_size=1), "us-central1", ["us-central1-a", "us-central1-b", "us-central1-c"],
         "desiredSize: GKE starts the same number of nodes in each of the pool's 3 zones"),
    ],
)  # fmt: skip
def test_counts_gke_cannot_honour_register_nothing(
    mocked: CapturingMonitor, spec: GpuPoolSpec, location: str, zones: list[str] | None, text: str
) -> None:
    @runtime_test
    def program() -> None:
        with pytest.raises(SpecError, match=text):
            GkeGpuNodePool("gpu", GkeGpuNodePoolArgs(pool=spec, cluster_name="ml", location=location,
                                                       node_locations=zones))  # fmt: skip

    program()
    mocked.assert_nothing_registered()


@pytest.mark.parametrize(
    "change",
    [
        {"desired_size": 6},
        {"max_size": 9},
        {"labels": {"example.com/team": "ml"}},
        {"upgrade": UpgradePolicy(strategy="blue-green")},
        {"instance_type": "g2-standard-12"},  # machine type updates in place
    ],
)
def test_in_place_changes_keep_the_name(mocked: CapturingMonitor, change: dict[str, Any]) -> None:
    assert name_of(mocked, replace(L4, **change)) == name_of(mocked, L4)


@pytest.mark.parametrize("change", [{"capacity": "spot"}, {"instance_type": "g2-standard-24"}])
def test_replacing_changes_rename_the_pool(mocked: CapturingMonitor, change: dict[str, Any]) -> None:
    """Spot is replace-only; g2-standard-24 has 2 L4s, and the accelerator count is replace-only."""
    assert name_of(mocked, replace(L4, **change)) != name_of(mocked, L4)


def test_a_fixed_name_stays_the_pool_name(mocked: CapturingMonitor) -> None:
    assert name_of(mocked, replace(L4, fixed_name=True, capacity="spot")) == "l4"
