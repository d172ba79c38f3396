"""The spec-side rules of ``capacityReservationSelectorTerms`` (``gpuready.eks.reservation.TERMS``, cited from the
EC2NodeClass CRD v1.14.1) against that CRD in ../shared: every field of the table is read back from it, and what
gpuready refuses of a term the CRD (strict, CEL rules evaluated) refuses too. Karpenter pools and EKS Auto Mode pools
(whose NodeClass takes the same field, tests/eks/auto_mode_schema.py) are checked by the same table."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.pool_parts import MATCH_CRITERIA
from gpuready.core.specs import Reservation, ReservationTerm
from gpuready.eks import karpenter, reservation
from tests.core.conftest import build_spec
from tests.crd_schemas import crd_problems
from tests.eks.auto_mode_schema import EC2_NODE_CLASS_CRD, karpenter_property

TERMS = reservation.TERMS


def _rule(messages: str) -> str:
    rules = [v["rule"] for v in karpenter_property()["x-kubernetes-validations"] if messages in v["message"]]
    assert len(rules) == 1, messages
    return str(rules[0])


def test_the_table_is_the_crds() -> None:
    crd = karpenter_property()
    items = crd["items"]["properties"]
    assert tuple(sorted(items)) == tuple(sorted(TERMS.fields)) == tuple(sorted(reservation.TERM_FIELDS))
    assert items["id"]["pattern"] == TERMS.id_pattern
    assert items["ownerID"]["pattern"] == TERMS.owner_pattern
    assert tuple(items["instanceMatchCriteria"]["enum"]) == TERMS.match_criteria == MATCH_CRITERIA
    assert items["tags"]["maxProperties"] == TERMS.max_tags
    assert [v["rule"] for v in items["tags"]["x-kubernetes-validations"]] == [TERMS.nonempty_tags]
    assert crd["maxItems"] == TERMS.max_terms
    selecting = _rule("expected at least one")
    assert selecting == " || ".join(f"has(x.{field})" for field in TERMS.selecting).join(("self.all(x, ", ")"))
    assert f"has(x.{TERMS.exclusive}) && (" in _rule(f"'{TERMS.exclusive}' is mutually exclusive")


def _pool(terms: tuple[ReservationTerm, ...] = (), ids: tuple[str, ...] = ()) -> dict[str, Any]:
    """The EC2NodeClass gpuready plans for a pool of these terms, built past its own checks (``karpenter.node_class``
    on a valid pool, its terms replaced), to ask the CRD what it makes of them."""
    spec = build_spec("eks", provisioner="karpenter", instance_type="p5.48xlarge", max_size=2, capacity="reserved",
                      reservation=Reservation(ids=("cr-0a",)))  # fmt: skip
    node_class = karpenter.node_class(spec, karpenter.KarpenterWiring(cluster_name="ml", node_role="r",
                                                                      subnet_ids=("subnet-a",)))  # fmt: skip
    fields = {"id": "id", "tags": "tags", "ownerID": "owner_id", "instanceMatchCriteria": "instance_match_criteria"}
    node_class["spec"]["capacityReservationSelectorTerms"] = [{"id": i} for i in ids] + [
        {key: dict(value) if key == "tags" else value for key, name in fields.items()
         if (value := getattr(term, name)) is not None}
        for term in terms
    ]  # fmt: skip
    return node_class


AGREEMENT: list[tuple[str, tuple[ReservationTerm, ...], tuple[str, ...], bool]] = [
    # id, terms, ids, refused (by both)
    ("id", (ReservationTerm(id="cr-0a"),), (), False),
    ("tags-owner", (ReservationTerm(tags={"team": "ml"}, owner_id="123456789012"),), (), False),
    ("match-criteria", (ReservationTerm(instance_match_criteria="targeted"),), (), False),
    ("id-with-tags", (ReservationTerm(id="cr-0a", tags={"team": "ml"}),), (), True),
    ("id-with-owner", (ReservationTerm(id="cr-0a", owner_id="123456789012"),), (), True),
    ("bad-id", (ReservationTerm(id="cr-0A"),), (), True),
    ("bad-owner", (ReservationTerm(tags={"team": "ml"}, owner_id="12345"),), (), True),
    ("empty-tag-value", (ReservationTerm(tags={"team": ""}),), (), True),
    ("21-tags", (ReservationTerm(tags={f"k{i}": "v" for i in range(21)}),), (), True),
    ("owner-alone", (ReservationTerm(owner_id="123456789012"),), (), True),
    ("31-terms", (), tuple(f"cr-{i:02d}" for i in range(31)), True),
    ("30-terms", (), tuple(f"cr-{i:02d}" for i in range(30)), False),
]  # fmt: skip


@pytest.mark.parametrize(("terms", "ids", "refused"), [c[1:] for c in AGREEMENT], ids=[c[0] for c in AGREEMENT])
def test_gpuready_and_the_crd_agree_on_a_term(terms: tuple[ReservationTerm, ...], ids: tuple[str, ...],
                                              refused: bool) -> None:  # fmt: skip
    """One term at a time: the CRD's exclusivity rule as written (``!self.all(x, has(x.id) && ...)``) refuses a list
    only when every term breaks it, gpuready each term that does (stricter, and what the CRD's message says)."""
    ours = reservation.value_problems(Reservation(ids=ids, selector_terms=terms))
    theirs = crd_problems(EC2_NODE_CLASS_CRD, _pool(terms, ids))
    assert (bool(ours), bool(theirs)) == (refused, refused), (ours, theirs)
