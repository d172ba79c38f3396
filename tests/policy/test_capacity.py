"""``gpu-node-pool-capacity-rules`` (issue #28) on raw programs: GKE queued / flex-start node pools and AKS
reservation and placement group ids, judged by the same rules gpuready's own pools are refused by."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy.builders import AKS, AKS_CLUSTER, GKE, aks, gke
from tests.policy.harness import messages

POLICY = "gpu-node-pool-capacity-rules"
SUB = "00000000-0000-0000-0000-000000000000"
CRG = f"/subscriptions/{SUB}/resourceGroups/rg/providers/Microsoft.Compute/capacityReservationGroups/h100"
PPG = f"/subscriptions/{SUB}/resourceGroups/rg/providers/Microsoft.Compute/proximityPlacementGroups/train"
QUEUED = {"queuedProvisioning": {"enabled": True}, "autoscaling": {"locationPolicy": "ANY"},
          "management": {"autoRepair": False}}  # fmt: skip


def queued(**top: Any) -> dict[str, Any]:
    props = gke(flexStart=True, reservationAffinity={"consumeReservationType": "NO_RESERVATION"})
    return {**props, **QUEUED, **top}


def flex(**top: Any) -> dict[str, Any]:
    return {**gke(flexStart=True), "autoscaling": {"locationPolicy": "ANY"}, "management": {"autoRepair": False},
            **top}  # fmt: skip


CASES = [
    pytest.param(GKE, queued(), None, id="queued-ok"),
    pytest.param(GKE, flex(), None, id="flex-ok"),
    pytest.param(GKE, gke(), None, id="on-demand-ok"),
    pytest.param(GKE, {**gke(), "placementPolicy": {"type": "COMPACT"}}, None, id="compact-on-demand-ok"),
    pytest.param(GKE, queued(placementPolicy={"type": "COMPACT"}), "takes no COMPACT placement", id="queued-compact"),
    pytest.param(GKE, queued(autoscaling={"locationPolicy": "BALANCED"}), "location policy ANY only",
                 id="queued-balanced"),
    pytest.param(GKE, {**queued(), "nodeConfig": {**queued()["nodeConfig"], "reservationAffinity": {
        "consumeReservationType": "SPECIFIC_RESERVATION", "key": "compute.googleapis.com/reservation-name",
        "values": ["r"]}}}, "consumes no reservation", id="queued-specific"),
    pytest.param(GKE, queued(management={"autoRepair": True}), "needs auto-repair off", id="queued-repair"),
    pytest.param(GKE, flex(management={"autoRepair": True}), "needs auto-repair off", id="flex-repair"),
    pytest.param(AKS, aks(capacityReservationGroupID=CRG), None, id="aks-crg-ok"),
    pytest.param(AKS, aks(proximityPlacementGroupID=PPG), None, id="aks-ppg-ok"),
    pytest.param(AKS, aks(capacityReservationGroupID="h100"), "not a resource id of the kind capacityReservationGroups",
                 id="aks-crg-name"),
    pytest.param(AKS, aks(proximityPlacementGroupID=CRG), "not a resource id of the kind proximityPlacementGroups",
                 id="aks-ppg-wrong-kind"),
    pytest.param(AKS, aks(capacityReservationGroupID=CRG, proximityPlacementGroupID=PPG), "not both", id="aks-both"),
    pytest.param(AKS, aks(capacityReservationGroupID=CRG, scaleSetPriority="Spot"), "Spot VMs cannot",
                 id="aks-spot-crg"),
]  # fmt: skip


@pytest.mark.parametrize(("type_", "props", "expected"), CASES)
def test_capacity_rules_on_raw_pools(type_: str, props: dict[str, Any], expected: str | None) -> None:
    found = messages(POLICY, [(type_, props)])
    if expected is None:
        assert found == []
    else:
        assert any(expected in message for message in found), found


def test_an_aks_managed_cluster_profile_is_judged_with_its_path() -> None:
    profile = {**aks(capacityReservationGroupID="h100"), "name": "a100", "mode": "User"}
    profile.pop("agentPoolName")
    props = {"resourceGroupName": "rg", "agentPoolProfiles": [profile]}
    found = messages(POLICY, [(AKS_CLUSTER, props)])
    assert any("agentPoolProfiles[0].capacityReservationGroupID: not a resource id" in m for m in found), found
