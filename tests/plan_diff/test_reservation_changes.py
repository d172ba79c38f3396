"""``gpuready diff`` on a pool bound to a reservation: leaving it, moving to another, and being replaced."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.plan_diff.capacity import PoolView, replacing_reserved, reservation_losses

BLOCK = {"type": "capacity-block", "reservation": ["cr-0a"], "nodes": 2, "zone": "us-east-1a", "fallback": None}
ODCR = {"type": "reserved", "reservation": ["cr-0b"], "nodes": None, "zone": None, "fallback": None}
ON_DEMAND = {"type": "on-demand", "reservation": None, "nodes": None, "zone": None, "fallback": None}

CHANGES: list[tuple[str, Any, Any, str | None]] = [
    ("leaves-its-block", BLOCK, ON_DEMAND, "moves off its reservation (block cr-0a (2 nodes, us-east-1a)): new nodes "
     "launch as on-demand"),
    ("moves-to-another", BLOCK, ODCR, "moves from reservation cr-0a to cr-0b"),
    ("stays", BLOCK, {**BLOCK, "nodes": 3}, None),
    ("never-had-one", ON_DEMAND, BLOCK, None),
    ("an-older-plan-without-capacity", None, ON_DEMAND, None),
]  # fmt: skip


@pytest.mark.parametrize(("was", "now", "words"), [c[1:] for c in CHANGES], ids=[c[0] for c in CHANGES])
def test_reservation_losses(was: Any, now: Any, words: str | None) -> None:
    found = reservation_losses(was, now)
    if words is None:
        assert found == []
    else:
        assert len(found) == 1 and found[0].startswith(words), found


def test_a_replacement_of_a_reserved_pool_says_the_reservation_is_held() -> None:
    view = PoolView("train", "h100", None, None, capacity=BLOCK)
    assert "the replacement is created while the old pool still holds the reserved nodes" in replacing_reserved(view)
    assert replacing_reserved(PoolView("infer", "l4", None, None, capacity=ON_DEMAND)) == ""
