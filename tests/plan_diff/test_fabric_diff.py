"""``gpuready diff`` on fabric pools: dropping the fabric, changing its kind, dropping or changing the placement
group are losses a person acts on; a fabric pool replaced says what happens to its fabric."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.plan_diff.capacity import FABRIC_REPLACED
from gpuready.plan_diff.diff import diff_plans
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
