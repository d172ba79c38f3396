"""How a pool gets capacity, as the plan shows it (``capacity_view``) and as the scale path bounds it."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.capacity.capacity_view import capacity_object, capacity_text
from gpuready.core.pool_parts import Fallback
from gpuready.core.scale_path.verdict import pool_verdict
from gpuready.core.specs import Reservation, ReservationTerm
from tests.core.conftest import build_spec

ARN = "arn:aws:resource-groups:us-east-1:123456789012:group/gpu"
KARPENTER = {"provisioner": "karpenter", "max_size": 4}
CASES: list[tuple[str, dict[str, Any], str]] = [
    ("on-demand", {}, "on-demand"),
    ("spot", {"capacity": "spot"}, "spot"),
    ("odcr-id", {"capacity": "reserved", "reservation": Reservation(ids=("cr-0abc",), nodes=2), "max_size": 2},
     "reserved cr-0abc (2 nodes)"),
    ("odcr-group", {"capacity": "reserved", "reservation": Reservation(resource_group_arn=ARN)}, "reserved group/gpu"),
    ("odcr-open", {"capacity": "reserved", "reservation": Reservation(instance_match_criteria="open")},
     "reserved open"),
    ("block", {"capacity": "capacity-block", "overrides": {"subnetIds": ["subnet-0a"]},
               "reservation": Reservation(ids=("cr-0abc",), zone="us-east-1a", nodes=2)},
     "block cr-0abc (2 nodes, us-east-1a)"),
    ("karpenter-tags-then-spot", {**KARPENTER, "capacity": "reserved", "reservation": Reservation(
        selector_terms=(ReservationTerm(tags={"team": "ml"}, owner_id="123456789012"),), fallback="spot")},
     "reserved tags team=ml owner 123456789012, then spot"),
]  # fmt: skip


@pytest.mark.parametrize(("fields", "text"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_capacity_cell_and_object(fields: dict[str, Any], text: str) -> None:
    spec = build_spec("eks", instance_type="p5.48xlarge", **fields)
    found = capacity_object(spec)
    assert found["text"] == text
    assert capacity_text(found) == text  # a plan file read back words it the same
    assert found["type"] == spec.capacity


@pytest.mark.parametrize(
    ("fallback", "most"), [(None, 2), ("on-demand", 4)], ids=["bounded-by-the-reservation", "fallback-beyond-it"]
)
def test_the_scale_path_knows_the_reservations_size(fallback: Fallback | None, most: int) -> None:
    """A reserved pool scales up to its reservation's nodes; with a fallback, on to maxSize."""
    spec = build_spec("eks", instance_type="p5.48xlarge", **{**KARPENTER, "max_size": most}, capacity="reserved",
                      reservation=Reservation(ids=("cr-0abc",), nodes=2, fallback=fallback))  # fmt: skip
    verdict = pool_verdict(spec)
    assert (verdict.reserved, verdict.fallback, verdict.max_nodes) == (2, fallback, most)
    assert verdict.text == f"yes 0->{most} nodes"
