"""``capacity: reserved`` and ``capacity-block`` on ``provisioner: eks-auto-mode``: the NodeClass's
``capacityReservationSelectorTerms`` and the NodePool's requirements, table-driven; every NodeClass validated strictly
against the Auto Mode schema with Karpenter's property grafted in (``tests/eks/auto_mode_schema.py``, CEL rules
evaluated), every NodePool against the NodePool CRD v1.14.1; the graft against the schema's own property once it has
one; the plan's cluster-wide caveat note; the scale path bounded by the reservation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.core import pool_config
from gpuready.core.scale_path.verdict import pool_verdict
from gpuready.core.specs import GpuPoolSpec, Reservation, ReservationTerm
from gpuready.eks import auto_mode, auto_mode_capacity, karpenter
from tests.core.conftest import build_spec
from tests.crd_schemas import crd_problems, with_field
from tests.eks.auto_mode_schema import (
    FIELD,
    NODE_CLASS_SCHEMA,
    grafted_schema,
    karpenter_property,
    node_class_problems,
    own_property,
)

NODE_POOL_CRD = "karpenter-aws/karpenter.sh_nodepools.v1.14.1.yaml"
WIRING = karpenter.KarpenterWiring(
    cluster_name="ml", node_role="arn:aws:iam::123456789012:role/AmazonEKSAutoNodeRole", subnet_ids=("subnet-a1",)
)
BLOCK = Reservation(ids=("cr-02168da1478b509e0",), zone="us-east-1a", nodes=2)
CAPACITY_TYPE = "karpenter.sh/capacity-type"
RESERVATION_TYPE = "eks.amazonaws.com/capacity-reservation-type"
ZONE = "topology.kubernetes.io/zone"


def auto_pool(capacity: str = "on-demand", reservation: Reservation | None = None, **fields: Any) -> GpuPoolSpec:
    fields.setdefault("max_size", 2)
    return build_spec("eks", provisioner="eks-auto-mode", instance_type="p5.48xlarge", capacity=capacity,
                      reservation=reservation, **fields)  # fmt: skip


CASES: list[tuple[str, str, Reservation, dict[str, list[str] | None], list[dict[str, Any]]]] = [
    # id, capacity, reservation, requirement key -> values (None: absent), capacityReservationSelectorTerms
    ("block", "capacity-block", BLOCK,
     {CAPACITY_TYPE: ["reserved"], RESERVATION_TYPE: ["capacity-block"], ZONE: ["us-east-1a"]},
     [{"id": "cr-02168da1478b509e0"}]),
    ("odcr-ids-only-reserved", "reserved", Reservation(ids=("cr-0a", "cr-0b"), nodes=2),
     {CAPACITY_TYPE: ["reserved"], RESERVATION_TYPE: None, ZONE: None}, [{"id": "cr-0a"}, {"id": "cr-0b"}]),
    ("odcr-tags-then-on-demand", "reserved",
     Reservation(selector_terms=(ReservationTerm(tags={"team": "ml", "gpu": "*"}),), fallback="on-demand"),
     {CAPACITY_TYPE: ["reserved", "on-demand"], RESERVATION_TYPE: None}, [{"tags": {"team": "ml", "gpu": "*"}}]),
    ("odcr-id-and-tags-then-spot", "reserved",
     Reservation(ids=("cr-0a",), selector_terms=(ReservationTerm(tags={"team": "ml"}),), fallback="spot"),
     {CAPACITY_TYPE: ["reserved", "spot"]}, [{"id": "cr-0a"}, {"tags": {"team": "ml"}}]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("capacity", "reservation", "wanted", "terms"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_reserved_auto_mode_pools_pass_the_schemas(
    capacity: str, reservation: Reservation, wanted: dict[str, list[str] | None], terms: list[dict[str, Any]]
) -> None:
    spec = auto_pool(capacity, reservation)
    node_pool = auto_mode.node_pool(spec)
    node_class = auto_mode.node_class(spec, WIRING)
    requirements = {r["key"]: r["values"] for r in node_pool["spec"]["template"]["spec"]["requirements"]}
    assert {key: requirements.get(key) for key in wanted} == wanted
    assert node_class["spec"][FIELD] == terms
    assert crd_problems(NODE_POOL_CRD, node_pool) == []
    assert node_class_problems(node_class) == []


def test_a_pool_without_a_reservation_has_no_terms() -> None:
    spec = auto_pool("spot")
    assert FIELD not in auto_mode.node_class(spec, WIRING)["spec"]
    assert auto_mode_capacity.odcr_caveat(spec, (spec,)) == ""
    assert "capacityReservationSelectorTerms" not in auto_mode.lifecycle_summary(spec)


@pytest.mark.parametrize(
    ("term", "words"),
    [
        ({"id": "cr-0a", "tags": {"team": "ml"}}, "mutually exclusive"),  # CEL rule
        ({"tags": {"team": ""}}, "empty tag keys or values"),  # CEL rule
        ({"id": "sg-0a"}, "does not match '^cr-[0-9a-z]+$'"),
        ({"tag": {"team": "ml"}}, "'tag' was unexpected"),  # strict: a misspelt field
        ({}, "expected at least one"),  # CEL rule
    ],
    ids=["id-alone", "empty-tag", "id-pattern", "misspelt", "selects-nothing"],
)
def test_the_graft_refuses_what_the_crd_refuses(term: dict[str, Any], words: str) -> None:
    obj = auto_mode.node_class(auto_pool("reserved", Reservation(ids=("cr-0a",))), WIRING)
    obj["spec"][FIELD] = [term]
    found = node_class_problems(obj)
    assert any(words in p for p in found), found


def test_the_graft_stays_strict_elsewhere() -> None:
    obj = with_field(auto_mode.node_class(auto_pool("reserved", Reservation(ids=("cr-0a",))), WIRING), ("spec",),
                     "capacityReservationPreference")  # fmt: skip
    problems = node_class_problems(obj)
    assert len(problems) == 1 and "'capacityReservationPreference'" in problems[0]


def test_the_graft_puts_karpenters_property_in_the_strict_auto_mode_schema() -> None:
    spec = grafted_schema()["properties"]["spec"]
    assert spec["properties"][FIELD] == (own_property() or karpenter_property())  # the schema's own, once it has one
    assert spec["additionalProperties"] is False and "role" in spec["properties"]


def _shape(schema: Any) -> Any:
    """A schema without its prose (descriptions differ between publishers without changing what is valid)."""
    if isinstance(schema, dict):
        return {k: _shape(v) for k, v in schema.items() if k != "description"}
    if isinstance(schema, list):
        return [_shape(v) for v in schema]
    return schema


def test_the_graft_is_the_auto_mode_schemas_own_property_once_it_has_one() -> None:
    own = own_property()
    if own is None:
        pytest.skip(
            f"../shared/reference/upstream/{NODE_CLASS_SCHEMA} (datreeio/CRDs-catalog 7b1e26ef) has no spec.{FIELD}: "
            "the tests validate against Karpenter's EC2NodeClass v1.14.1 property grafted in; with a NodeClass "
            "schema that has the field in ../shared, this test compares the two"
        )
    assert _shape(own) == _shape(karpenter_property()), (
        f"the Auto Mode schema's own spec.{FIELD} differs from the graft (Karpenter's EC2NodeClass v1.14.1): drop "
        "the graft (tests/eks/auto_mode_schema.py) and revisit gpuready.eks.auto_mode_capacity's refused fields"
    )


STACK: list[tuple[str, list[tuple[str, str, Reservation | None]], dict[str, list[str] | None]]] = [
    # id, pools (name, capacity, reservation), pool -> other Auto Mode pools named as affected (None: no note)
    ("one-reserving-one-relying", [("res", "reserved", Reservation(ids=("cr-0a",))), ("od", "on-demand", None)],
     {"res": ["od"], "od": None}),
    ("spot-is-not-affected", [("blk", "capacity-block", BLOCK), ("sp", "spot", None)], {"blk": [], "sp": None}),
    ("two-reserving", [("a", "reserved", Reservation(ids=("cr-0a",))),
                       ("b", "reserved", Reservation(selector_terms=(ReservationTerm(tags={"t": "x"}),)))],
     {"a": [], "b": []}),
    ("none-reserving", [("od", "on-demand", None), ("sp", "spot", None)], {"od": None, "sp": None}),
]  # fmt: skip


@pytest.mark.parametrize(("pools", "affected"), [c[1:] for c in STACK], ids=[c[0] for c in STACK])
def test_the_cluster_wide_caveat_names_the_pools_it_affects(
    pools: list[tuple[str, str, Reservation | None]], affected: dict[str, list[str] | None]
) -> None:
    specs = [auto_pool(capacity, reservation, name=name) for name, capacity, reservation in pools]
    for spec in specs:
        note = auto_mode_capacity.odcr_caveat(spec, specs)
        wanted = affected[spec.name]
        if wanted is None:
            assert note == ""
            continue
        assert note.startswith(f"pool {spec.name}: its NodeClass sets capacityReservationSelectorTerms")
        assert "no longer launches into open On-Demand Capacity Reservations for any NodeClass" in note
        assert ("Affected in this stack" in note) is bool(wanted)
        assert all(f"pool(s) {name} (on-demand)" in note for name in wanted)


def test_a_karpenter_pool_beside_is_not_affected() -> None:
    """The caveat is Auto Mode's: a Karpenter pool's EC2NodeClass keeps its own ODCR choice."""
    reserving = auto_pool("reserved", Reservation(ids=("cr-0a",)), name="res")
    other = build_spec("eks", provisioner="karpenter", instance_type="g6.xlarge", max_size=2, name="kp")
    assert "Affected" not in auto_mode_capacity.odcr_caveat(reserving, (reserving, other))


@pytest.mark.parametrize(
    ("capacity", "reservation", "max_size", "text", "reserved"),
    [
        ("reserved", Reservation(ids=("cr-0a",), nodes=2), 2, "yes 0->2 nodes", 2),
        ("reserved", Reservation(ids=("cr-0a",), nodes=2, fallback="on-demand"), 4, "yes 0->4 nodes", 2),
        ("capacity-block", BLOCK, 2, "yes 0->2 nodes", 2),
    ],
    ids=["up-to-the-reservation", "on-demand-beyond-it", "block"],
)  # fmt: skip
def test_the_scale_path_bounds_a_reserved_pool_by_its_reservation(
    capacity: str, reservation: Reservation, max_size: int, text: str, reserved: int
) -> None:
    verdict = pool_verdict(auto_pool(capacity, reservation, max_size=max_size))
    assert (verdict.text, verdict.reserved) == (text, reserved)
    assert verdict.max_nodes == (reserved if reservation.fallback is None else max_size)


def test_the_example_of_docs_capacity_md_is_planned_as_it_says() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "capacity.md").read_text("utf-8")
    section = text[text.index("### EKS Auto Mode") :]
    pools = pool_config.parse_pools(yaml.safe_load(section.split("```yaml\n", 1)[1].split("```", 1)[0]), "eks")
    block, reserved = (auto_mode.node_class(spec, WIRING) for spec in pools)
    assert block["spec"][FIELD] == [{"id": "cr-02168da1478b509e0"}]
    assert reserved["spec"][FIELD] == [{"tags": {"team": "ml"}}]
    assert all(node_class_problems(obj) == [] for obj in (block, reserved))
