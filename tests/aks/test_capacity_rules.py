"""AKS capacity (issue #28): capacity reservation groups (``reservation.groupId``) and proximity placement groups
(``overrides.proximityPlacementGroupID``) validated, not passed through; each rule of ``aks.capacity_rules`` a row."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gpuready.aks import capacity_rules, lifecycle, plan
from gpuready.core import resource_inputs
from gpuready.core.specs import GpuPoolSpec, Reservation
from gpuready.core.stack_settings import parse_stack_settings
from gpuready.errors import ConfigError, SpecError

SUB = "00000000-0000-0000-0000-000000000000"
OTHER = "11111111-1111-1111-1111-111111111111"
CRG = f"/subscriptions/{SUB}/resourceGroups/rg-ml/providers/Microsoft.Compute/capacityReservationGroups/h100-crg"
PPG = f"/subscriptions/{SUB}/resourceGroups/rg-ml/providers/Microsoft.Compute/proximityPlacementGroups/train-ppg"
SUBNET = f"/subscriptions/{SUB}/resourceGroups/rg-ml/providers/Microsoft.Network/virtualNetworks/vnet/subnets/gpu"


def spec(**extra: Any) -> GpuPoolSpec:
    given: dict[str, Any] = {"name": "gpu", "instance_type": "Standard_NC24ads_A100_v4", "min_size": 0, "max_size": 2}
    return GpuPoolSpec(cloud="aks", **{**given, **extra})


REFUSED = [
    pytest.param({"capacity": "reserved"}, "reservation.groupId", "names its capacity reservation group",
                 "reservation.groupId: /subscriptions/", id="reserved-without-group"),
    pytest.param({"reservation": Reservation(group_id=CRG)}, "reservation.groupId", "on-demand pool consumes no",
                 "capacity: reserved", id="on-demand-with-group"),
    pytest.param({"capacity": "spot", "reservation": Reservation(group_id=CRG)}, "reservation.groupId",
                 "Spot VMs cannot use capacity reservations", "remove reservation", id="spot-with-group"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(group_id=CRG.replace("capacityReservationGroups",
                                                                                           "hostGroups"))},
                 "reservation.groupId", "not a capacity reservation group resource id", "az capacity reservation",
                 id="group-wrong-type"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(group_id="h100-crg")}, "reservation.groupId",
                 "not a capacity reservation group resource id", "/subscriptions/<subscription GUID>",
                 id="group-name-not-id"),
    pytest.param({"overrides": {"proximityPlacementGroupID": "train-ppg"}}, "overrides.proximityPlacementGroupID",
                 "not a proximity placement group resource id", "az ppg show", id="ppg-format"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(group_id=CRG),
                  "overrides": {"proximityPlacementGroupID": PPG}}, "overrides.proximityPlacementGroupID",
                 "not both", "remove overrides.proximityPlacementGroupID", id="crg-and-ppg"),
    pytest.param({"zones": ("1", "2"), "overrides": {"proximityPlacementGroupID": PPG}}, "zones",
                 "one availability zone at most", "keep one zone", id="ppg-two-zones"),
    pytest.param({"overrides": {"capacityReservationGroupID": CRG}}, "overrides.capacityReservationGroupID",
                 "owned by reservation.groupId", "set reservation.groupId", id="override-crg"),
    pytest.param({"capacity": "flex-start"}, "capacity", "not offered by the AKS node-pool", "choose one",
                 id="flex-start"),
    pytest.param({"reservation": Reservation(affinity="any")}, "reservation.affinity",
                 "not read by the AKS node-pool", "no AKS provisioner reads it", id="gke-field"),
    pytest.param({"provisioner": "nap", "min_size": 0, "capacity": "reserved"}, "capacity",
                 "AKSNodeClass has no capacity reservation group", "provisioner: node-pool", id="nap-reserved"),
    pytest.param({"provisioner": "nap", "reservation": Reservation(group_id=CRG)}, "reservation.groupId",
                 "not read by the AKS nap", "provisioner: node-pool", id="nap-group"),
    pytest.param({"capacity": "reserved", "zones": ("1", "2"), "reservation": Reservation(group_id=CRG, zone="3")},
                 "reservation.zone", "not one of the pool's zones", 'set zones: ["3"]', id="zone-outside-pool"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(group_id=CRG, zone="2")},
                 "reservation.zone", "a pool without zones is regional", 'set zones: ["2"]', id="zonal-on-regional"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(group_id=CRG, zone="eastus-1")},
                 "reservation.zone", "not an availability zone as AKS names it", 'e.g. zone: "1"', id="zone-format"),
    pytest.param({"reservation": Reservation(zone="1")}, "reservation.zone", "pool of capacity on-demand does not "
                 "consume", "set capacity: reserved", id="zone-on-demand"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(group_id=CRG, region="East US")},
                 "reservation.region", "not an Azure region name", "e.g. eastus", id="region-format"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(group_id=CRG, vm_size="Standard_NC40ads_H100_v5")},
                 "reservation.vmSize", "draw on none of it", "use a group of Standard_NC24ads_A100_v4",
                 id="vm-size-not-the-pool-s"),
    pytest.param({"reservation": Reservation(region="eastus")}, "reservation.region", "does not consume",
                 "set capacity: reserved", id="region-on-demand"),
    pytest.param({"capacity": "reserved", "max_size": 4, "reservation": Reservation(group_id=CRG, nodes=2)},
                 "maxSize", "above the 2 nodes the reservation holds", "lower maxSize to 2", id="above-the-group"),
]  # fmt: skip


@pytest.mark.parametrize(("extra", "path", "words", "hint"), REFUSED)
def test_a_capacity_rule_is_refused_with_a_working_hint(
    extra: dict[str, Any], path: str, words: str, hint: str
) -> None:
    with pytest.raises(SpecError) as caught:
        spec(**extra)
    matching = [p for p in caught.value.problems if p.path == path and words in str(p)]
    assert matching, caught.value.problems
    assert hint in matching[0].hint


@pytest.mark.parametrize(
    ("zones", "zone"),
    [(("2",), "2"), (("1", "2", "3"), "3"), ((), None), (("1",), None)],
    ids=["zonal-in-its-zone", "zonal-among-the-pool-s", "regional-pool-zone-not-stated", "zonal-pool-zone-not-stated"],
)
def test_a_reservation_s_zone_and_the_pool_s_zones_that_pass(zones: tuple[str, ...], zone: str | None) -> None:
    """The zone rows that pass (``capacity_rules.ZONAL_SOURCE``): a zonal reservation in one of the pool's zones; a
    zone not stated is not judged (a group's zones cannot be read offline)."""
    pool = spec(capacity="reserved", reservation=Reservation(group_id=CRG, zone=zone), zones=zones or None)
    assert pool.reservation is not None and pool.reservation.zone == zone


def test_a_reserved_pool_plans_its_group_and_a_placement_group_reaches_the_pool() -> None:
    reserved = plan.agent_pool_args(spec(capacity="reserved", reservation=Reservation(group_id=CRG), zones=("1",)))
    assert reserved["capacity_reservation_group_id"] == CRG
    assert "scale_set_priority" not in reserved
    placed = plan.agent_pool_args(spec(zones=("2",), overrides={"proximityPlacementGroupID": PPG}))
    assert placed["proximity_placement_group_id"] == PPG
    assert "capacity_reservation_group_id" not in plan.agent_pool_args(spec())


def test_both_inputs_are_azure_native_s_and_replace_the_pool() -> None:
    tree = resource_inputs.load("gpuready.aks")
    paths = {"capacityReservationGroupID": "", "proximityPlacementGroupID": ""}
    assert resource_inputs.owned_paths_problems(paths, tree) == []
    immutable = {rule.field for rule in lifecycle.AKS_IMMUTABLE}
    assert set(paths) <= immutable


def _settings(pool: dict[str, Any], subnet: str = SUBNET) -> dict[str, object]:
    return {
        "cloud": "aks",
        "clusterName": "ml",
        "aksResourceGroup": "rg-ml",
        "aksVnetSubnetId": subnet,
        "nodePools": json.dumps([pool]),
        "gpuStack": json.dumps({"kind": "device-plugin"}),
    }


POOL = {"name": "gpu", "instanceType": "Standard_NC24ads_A100_v4", "minSize": 0, "maxSize": 2}


def test_a_group_of_another_subscription_than_the_cluster_s_is_refused() -> None:
    other = CRG.replace(SUB, OTHER)
    with pytest.raises(ConfigError) as caught:
        parse_stack_settings(_settings({**POOL, "capacity": "reserved", "reservation": {"groupId": other}}))
    paths = [p.path for p in caught.value.problems]
    assert "gpuready:nodePools[0].reservation.groupId" in paths, caught.value.problems


def test_a_group_of_the_cluster_s_subscription_passes() -> None:
    settings = parse_stack_settings(_settings({**POOL, "capacity": "reserved", "reservation": {"groupId": CRG}}))
    assert settings.pools[0].reservation == Reservation(group_id=CRG)
    assert capacity_rules.cluster_subscription("") is None


@pytest.mark.parametrize(
    ("region", "location", "warned"),
    [("eastus", "westeurope", True), ("westeurope", "West Europe", False), ("eastus", None, False),
     (None, "westeurope", False)],
)  # fmt: skip
def test_a_group_of_another_region_than_the_cluster_s_is_warned_of(
    region: str | None, location: str | None, warned: bool
) -> None:
    pool = spec(capacity="reserved", reservation=Reservation(group_id=CRG, region=region))
    warning = capacity_rules.region_warning(pool, location)
    assert (warning is not None) == warned
    if warning is not None:
        assert "reservation.region eastus is not the cluster's location westeurope" in warning


def test_the_plan_warns_of_the_group_s_region() -> None:
    from gpuready.cli.program_log import collected  # noqa: PLC0415
    from tests.stacks.program_runs import config_bag, run_stack  # noqa: PLC0415

    pool = {**POOL, "capacity": "reserved", "reservation": {"groupId": CRG, "region": "eastus"}}
    with collected() as log:
        run_stack("aks-dev", config_bag("aks-dev", [f"gpuready:nodePools={json.dumps([pool])}"]))
    assert any("reservation.region eastus is not the cluster's location westeurope" in m for m in log.warnings)
