"""The capacity policies on raw programs, through the analyzer: ``gpu-node-pool-capacity-rules`` (GKE queued /
flex-start node pools, AKS reservation and placement group ids, judged by the same rules gpuready's own pools are
refused by); a CAPACITY_BLOCK node group with instance types on the group or without a launch template, a reserved
NodePool whose node class selects no reservation, Auto Mode's cluster-wide caveat (docs/capacity.md)."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.specs import Reservation
from gpuready.eks import plan, reservation
from tests.core.conftest import build_spec
from tests.policy.builders import AKS, AKS_CLUSTER, EKS, GKE, NODE_POOL, aks, eks, gke, node_pool
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


WIRED = "gpu-pool-capacity-block-wired"
SELECTS = "gpu-reserved-nodepool-selects-reservations"
TEMPLATE = {"id": "lt-0123", "version": "1"}
NODE_CLASS = "kubernetes:karpenter.k8s.aws/v1:EC2NodeClass"
AUTO_NODE_CLASS = "kubernetes:eks.amazonaws.com/v1:NodeClass"
TERMS = [{"id": "cr-0123456789abcdef0"}]

NODE_GROUPS: list[tuple[str, dict[str, Any], list[str]]] = [
    # id, node group changes, the start of every message
    ("on-demand", {}, []),
    ("block-wired", {"capacityType": "CAPACITY_BLOCK", "instanceTypes": None, "launchTemplate": TEMPLATE}, []),
    ("block-with-types", {"capacityType": "CAPACITY_BLOCK", "launchTemplate": TEMPLATE},
     ["instanceTypes: a CAPACITY_BLOCK node group takes its instance type from its launch template"]),
    ("block-without-template", {"capacityType": "CAPACITY_BLOCK", "instanceTypes": None},
     ["launchTemplate: a CAPACITY_BLOCK node group can only be created with a launch template"]),
    ("block-with-neither", {"capacityType": "CAPACITY_BLOCK"}, ["instanceTypes:", "launchTemplate:"]),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "starts"), [c[1:] for c in NODE_GROUPS], ids=[c[0] for c in NODE_GROUPS])
def test_capacity_block_node_groups(changes: dict[str, Any], starts: list[str]) -> None:
    found = messages(WIRED, [(EKS, eks(**changes))])
    assert len(found) == len(starts), found
    for message, start in zip(found, starts, strict=True):
        assert message.startswith(f"NodeGroup 'r0': {start}"), message


def _reserved(*values: str, group: str = "karpenter.k8s.aws", kind: str = "EC2NodeClass") -> dict[str, Any]:
    return node_pool(
        requirements=[
            {"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["p5.48xlarge"]},
            {"key": "karpenter.sh/capacity-type", "operator": "In", "values": list(values)},
        ],
        template={"nodeClassRef": {"group": group, "kind": kind, "name": "l4"}},
    )


def _node_class(api: str, kind: str, **spec: Any) -> dict[str, Any]:
    return {"apiVersion": api, "kind": kind, "metadata": {"name": "l4"}, "spec": {"role": "gpu", **spec}}


EC2 = ("karpenter.k8s.aws/v1", "EC2NodeClass")
AUTO = ("eks.amazonaws.com/v1", "NodeClass")
NODE_POOLS: list[tuple[str, list[tuple[str, dict[str, Any]]], int]] = [
    # id, resources, findings
    ("reserved-without-terms", [(NODE_POOL, _reserved("reserved", "on-demand")), (NODE_CLASS, _node_class(*EC2))], 1),
    ("reserved-with-terms",
     [(NODE_POOL, _reserved("reserved")),
      (NODE_CLASS, _node_class(*EC2, capacityReservationSelectorTerms=TERMS))], 0),
    ("on-demand-only", [(NODE_POOL, _reserved("on-demand")), (NODE_CLASS, _node_class(*EC2))], 0),
    ("node-class-elsewhere", [(NODE_POOL, _reserved("reserved"))], 0),
    ("auto-mode-without-terms",
     [(NODE_POOL, _reserved("reserved", group="eks.amazonaws.com", kind="NodeClass")),
      (AUTO_NODE_CLASS, _node_class(*AUTO))], 1),
]  # fmt: skip


@pytest.mark.parametrize(("resources", "count"), [c[1:] for c in NODE_POOLS], ids=[c[0] for c in NODE_POOLS])
def test_reserved_node_pools_need_reservation_terms(resources: list[tuple[str, dict[str, Any]]], count: int) -> None:
    found = messages(SELECTS, resources)
    assert len(found) == count, found
    for message in found:
        assert "allows karpenter.sh/capacity-type: reserved" in message
        assert "Add spec.capacityReservationSelectorTerms" in message


def test_gpureadys_own_capacity_block_pool_passes() -> None:
    """What gpuready plans for capacity: capacity-block passes the rule it enforces on raw programs."""
    spec = build_spec("eks", instance_type="p5.48xlarge", capacity="capacity-block",
                      reservation=Reservation(ids=("cr-0a",), zone="us-east-1a"),
                      overrides={"subnetIds": ["subnet-a"]})  # fmt: skip
    args = plan.node_group_args(spec)
    inputs = {"capacityType": args["capacity_type"], "launchTemplate": TEMPLATE}
    assert "instance_types" not in args
    assert reservation.planned_node_group_problems(inputs) == []


CAVEAT = "gpu-reservation-terms-cluster-wide"


@pytest.mark.parametrize(
    ("type_", "node_class", "count"),
    [
        (AUTO_NODE_CLASS, _node_class(*AUTO, capacityReservationSelectorTerms=TERMS), 1),
        (AUTO_NODE_CLASS, _node_class(*AUTO), 0),
        (NODE_CLASS, _node_class(*EC2, capacityReservationSelectorTerms=TERMS), 0),  # Karpenter: the class's own
    ],
    ids=["auto-mode-terms", "auto-mode-none", "karpenter-terms"],
)
def test_auto_modes_cluster_wide_caveat_is_said(type_: str, node_class: dict[str, Any], count: int) -> None:
    found = messages(CAVEAT, [(type_, node_class)])
    assert len(found) == count, found
    assert all("no longer launches into open On-Demand Capacity Reservations for any NodeClass" in m for m in found)
