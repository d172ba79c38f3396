"""GKE escape hatches: ``diskSizeGb``, ``zones`` and ``overrides`` (gVNIC, reservation affinity, placement policy,
local SSDs) reach the registered node pool; the owned set covers the plan."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from gpuready.core import resource_inputs
from gpuready.core.health.repair import RepairPolicy
from gpuready.core.lifecycle import wire_name
from gpuready.core.specs import GpuPoolSpec, Reservation
from gpuready.errors import SpecError
from gpuready.gke import lifecycle, plan
from tests.fidelity.spec_matrix import valid_specs
from tests.gke.test_node_pool import NODE_POOL, build
from tests.pulumi_mocks import CapturingMonitor


def spec(**extra: Any) -> GpuPoolSpec:
    return GpuPoolSpec(cloud="gke", name="gpu", instance_type="g2-standard-8", min_size=0, max_size=4, **extra)


OVERRIDES = {
    "nodeConfig": {
        "gvnic": {"enabled": True},
        "ephemeralStorageLocalSsdConfig": {"localSsdCount": 1},
    },
    "placementPolicy": {"type": "COMPACT"},
    "management": {"autoUpgrade": False},
}


def test_disk_size_zones_and_overrides_reach_the_node_pool(mocked: CapturingMonitor) -> None:
    build(
        spec(
            disk_size_gb=200,
            zones=("us-central1-b", "us-central1-c"),
            desired_size=2,
            overrides=OVERRIDES,
            capacity="reserved",
            reservation=Reservation(affinity="specific", name="r1"),
        ),
        node_locations=["us-central1-a"],
    )
    inputs = mocked.one(NODE_POOL).inputs
    config = inputs["nodeConfig"]
    assert config["diskSizeGb"] == 200.0
    assert inputs["nodeLocations"] == ["us-central1-b", "us-central1-c"]  # the pool's zones win over the stack's
    assert inputs["initialNodeCount"] == 1.0  # 2 nodes over the pool's 2 zones
    assert config["gvnic"] == {"enabled": True}
    assert config["reservationAffinity"] == {
        "consumeReservationType": "SPECIFIC_RESERVATION",
        "key": "compute.googleapis.com/reservation-name",
        "values": ["r1"],
    }
    assert config["ephemeralStorageLocalSsdConfig"] == {"localSsdCount": 1.0}
    assert inputs["placementPolicy"] == {"type": "COMPACT"}
    # Deep-merged: the override turns auto upgrade off and keeps gpuready's auto repair.
    assert inputs["management"] == {"autoRepair": True, "autoUpgrade": False}
    assert config["machineType"] == "g2-standard-8"


def test_owned_nested_override_is_refused_before_anything_registers(mocked: CapturingMonitor) -> None:
    with pytest.raises(SpecError, match=r"overrides\.nodeConfig\.guestAccelerators: owned by instanceType"):
        build(spec(overrides={"nodeConfig": {"guestAccelerators": [{"type": "nvidia-h100-80gb", "count": 8}]}}))
    mocked.assert_nothing_registered()


def test_disk_size_updates_in_place_and_keeps_the_name() -> None:
    wiring = {"cluster": "c", "location": "us-central1-a"}
    before, after = spec(), spec(disk_size_gb=300)
    names = [lifecycle.cloud_name(s, {**wiring, **plan.node_pool_args(s, 1)}) for s in (before, after)]
    assert names[0] == names[1]  # disk_size_gb: no ForceNew in the bridged provider (gke.lifecycle)


def _paths(value: Mapping[str, Any], prefix: str = "") -> set[str]:
    found = set()
    for key, item in value.items():
        path = f"{prefix}{wire_name(key)}"
        found.add(path)
        if isinstance(item, Mapping) and path in ("nodeConfig", "autoscaling"):
            found |= _paths(item, f"{path}.")
    return found


def test_every_input_the_plan_sets_is_owned_or_a_default() -> None:
    tree = resource_inputs.load("gpuready.gke")
    specs = [
        *valid_specs("gke"),
        spec(disk_size_gb=100, zones=("us-central1-a",)),
        spec(capacity="queued", max_run_duration=3600, repair=RepairPolicy(enabled=False)),
        spec(capacity="reserved", reservation=Reservation(affinity="specific", name="r1", project="team-project")),
    ]
    planned = set().union(*(_paths(plan.node_pool_args(s, 1)) for s in specs)) - {"nodeConfig", "autoscaling"}
    assert planned - set(plan.OWNED_INPUTS) - set(plan.DEFAULT_INPUTS) == set()
    assert (
        resource_inputs.owned_paths_problems({**plan.OWNED_INPUTS, **dict.fromkeys(plan.DEFAULT_INPUTS, "")}, tree)
        == []
    )
