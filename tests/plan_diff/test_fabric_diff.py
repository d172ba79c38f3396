"""``gpuready diff`` on fabric pools: dropping the fabric, changing its kind, dropping or changing the placement
group are losses a person acts on; a fabric pool replaced says what happens to its fabric."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.plan_diff.capacity import FABRIC_REPLACED
from gpuready.plan_diff.diff import diff_plans
from gpuready.plan_diff.report import to_text
from tests.plan_diff import test_capacity, test_diff

EFA = {"kind": "efa", "devices": 32, "placementGroup": "create", "summary": "efa x32, new placement group"}


@pytest.mark.parametrize(
    ("after", "words"),
    [
        (None, "the node fabric efa goes: NCCL collectives across the pool's nodes fall back to TCP sockets"),
        ({**EFA, "placementGroup": None}, "the placement group (create) is dropped"),
        ({**EFA, "placementGroup": "shared-pg"}, "the placement group changes (create -> shared-pg)"),
        ({**EFA, "kind": "infiniband"}, "the node fabric changes from efa to infiniband"),
    ],
)
def test_fabric_losses_are_at_risk(after: dict[str, Any] | None, words: str) -> None:
    old = test_capacity.plan(test_capacity.pool(fabric=EFA))
    new = test_capacity.plan(test_capacity.pool(fabric=after))
    (risk,) = diff_plans(old, new).at_risk
    assert any(words in loss for loss in risk.losses), risk.losses


def test_an_unchanged_fabric_pool_is_not_at_risk() -> None:
    same = test_capacity.plan(test_capacity.pool(fabric=EFA))
    assert diff_plans(same, same).at_risk == ()


def test_a_replaced_fabric_pool_says_what_happens_to_its_fabric() -> None:
    old_pool = {"name": "l4", "fabric": EFA}
    before = test_diff.plan(test_diff.pool(), test_diff.node_group()) | {"pools": [old_pool]}
    after_group = test_diff.node_group(instanceTypes=["g6.48xlarge"], nodeGroupName="l4-9f8e7d")
    after = test_diff.plan(test_diff.pool(), after_group) | {"pools": [old_pool]}
    (risk,) = diff_plans(before, after).at_risk
    assert risk.action == "replace"
    assert risk.losses[0] == FABRIC_REPLACED


def _child(type_token: str, name: str, **inputs: Any) -> dict[str, Any]:
    urn = f"{test_diff.POOL}${type_token}::{name}"
    return {"type": type_token, "name": name, "urn": urn, "parent": test_diff.POOL, "custom": True, "inputs": inputs}


LT = "aws:ec2/launchTemplate:LaunchTemplate"
SG = "aws:ec2/securityGroup:SecurityGroup"
CARD = {"deviceIndex": 1, "interfaceType": "efa-only", "networkCardIndex": 1, "deleteOnTermination": "true"}
RULE = {"fromPort": 0, "toPort": 0, "protocol": "-1", "self": True}

# (id, resource before, resource after, action, words of the note)
# fmt: off
LIFECYCLE: list[tuple[str, dict[str, Any], dict[str, Any], str, str]] = [
    ("efa-interfaces", _child(LT, "lt", networkInterfaces=[CARD]),
     _child(LT, "lt", networkInterfaces=[CARD, {**CARD, "networkCardIndex": 2}]), "update",
     "a new launch template version: the node group follows its latest version (launchTemplate.version, "
     "UpdateNodegroupVersion), so EKS replaces every node of the group"),
    ("placement-group", _child(LT, "lt", placement={"groupName": "a"}), _child(LT, "lt", placement={"groupName": "b"}),
     "update", "a new launch template version"),
    ("security-group-rules", _child(SG, "efa", ingress=[RULE], egress=[RULE]),
     _child(SG, "efa", ingress=[RULE, {**RULE, "protocol": "tcp"}], egress=[RULE]), "update",
     "its rules change in place"),
    ("security-group-description", _child(SG, "efa", description="a"), _child(SG, "efa", description="b"), "replace",
     ""),
    ("security-group-vpc", _child(SG, "efa", vpcId="vpc-1"), _child(SG, "efa", vpcId="vpc-2"), "replace", ""),
]
# fmt: on


@pytest.mark.parametrize(("was", "now", "action", "note"), [c[1:] for c in LIFECYCLE], ids=[c[0] for c in LIFECYCLE])
def test_a_fabric_pools_launch_template_and_security_group_changes_say_what_they_do(
    was: dict[str, Any], now: dict[str, Any], action: str, note: str
) -> None:
    diff = diff_plans(test_diff.plan(test_diff.pool(), was), test_diff.plan(test_diff.pool(), now))
    (change,) = diff.changes
    assert change.action == action
    assert note in change.note
    text = to_text(diff, allowed=False)
    if action == "update":
        assert f"updates in place:\n  {change.name}: {note}" in text
