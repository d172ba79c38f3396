"""The cross-field rules of ``capacity`` and ``reservation`` on EKS that no schema states, one row each with its
source, and what the shared capacity table refuses (``core.capacity.reservation_rules``): every refusal names the
field and the value, and carries a hint."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.capacity import registry
from gpuready.core.specs import Reservation, ReservationTerm
from gpuready.errors import SpecError
from tests.core.conftest import build_spec

BLOCK_ID = ("cr-02168da1478b509e0",)
SUBNETS = {"subnetIds": ["subnet-0a"]}
MNG = "awsdocs/amazon-eks-user-guide doc_source/capacity-blocks-mng.md"
TARGET = "botocore ec2 LaunchTemplateCapacityReservationSpecificationRequest / CapacityReservationTarget"
CRD = "karpenter-aws/karpenter.k8s.aws_ec2nodeclasses.v1.14.1.yaml L256-294"
AUTO = "awsdocs/amazon-eks-user-guide latest/ug/automode/auto-odcr.adoc @4f3d5005 (docs.aws.amazon.com auto-odcr)"

RULES: list[tuple[str, str, dict[str, Any], str, str]] = [
    # id, source, spec fields (EKS, p5.48xlarge), refused path, words of the problem
    ("block-one-id", MNG, {"capacity": "capacity-block", "overrides": SUBNETS,
                           "reservation": Reservation(ids=("cr-0a", "cr-0b"), zone="us-east-1a")},
     "reservation.ids", "targets one reservation"),
    ("block-in-one-zone", MNG, {"capacity": "capacity-block", "reservation": Reservation(ids=BLOCK_ID)},
     "reservation.zone", "lives in one Availability Zone"),
    ("block-subnets-in-its-zone", MNG, {"capacity": "capacity-block",
                                        "reservation": Reservation(ids=BLOCK_ID, zone="us-east-1a")},
     "overrides.subnetIds", "must be in that zone only"),
    ("block-upgraded-at-zero", MNG, {"capacity": "capacity-block", "min_size": 1, "overrides": SUBNETS,
                                     "reservation": Reservation(ids=BLOCK_ID, zone="us-east-1a")},
     "minSize", "upgraded at desired size 0"),
    ("block-template-is-gpureadys", MNG, {"capacity": "capacity-block",
                                          "overrides": {**SUBNETS, "launchTemplate": {"id": "lt-0a", "version": "1"}},
                                          "reservation": Reservation(ids=BLOCK_ID, zone="us-east-1a")},
     "overrides.launchTemplate", "uses the launch template gpuready makes"),
    ("odcr-one-target", TARGET, {"capacity": "reserved", "reservation": Reservation(
        ids=("cr-0a",), resource_group_arn="arn:aws:resource-groups:us-east-1:123456789012:group/gpu")},
     "reservation", "one reservation or one resource group"),
    ("odcr-open-names-none", TARGET, {"capacity": "reserved",
                                      "reservation": Reservation(ids=("cr-0a",), instance_match_criteria="open")},
     "reservation.instanceMatchCriteria", "names no ids"),
    ("odcr-targeted-names-one", TARGET, {"capacity": "reserved",
                                         "reservation": Reservation(instance_match_criteria="targeted")},
     "reservation", "no reservation to draw on"),
    ("max-size-within-the-reservation", "issue #28 (modelplaneai/modelplane #184: a count mismatch fails at apply)",
     {"capacity": "reserved", "max_size": 3, "reservation": Reservation(ids=("cr-0a",), nodes=2)},
     "maxSize", "above the 2 nodes the reservation holds"),
    ("karpenter-selects-a-reservation", CRD, {"provisioner": "karpenter", "capacity": "reserved",
                                              "reservation": Reservation(fallback="on-demand")},
     "reservation", "needs capacityReservationSelectorTerms"),
    ("karpenter-id-stands-alone", CRD, {"provisioner": "karpenter", "capacity": "reserved", "reservation": Reservation(
        selector_terms=(ReservationTerm(id="cr-0a", owner_id="123456789012"),))},
     "reservation.selectorTerms[0]", "id selects one reservation"),
    ("karpenter-at-most-30-terms", CRD, {"provisioner": "karpenter", "capacity": "reserved",
                                         "reservation": Reservation(ids=tuple(f"cr-{i:02d}" for i in range(31)))},
     "reservation.selectorTerms", "at most 30 terms"),
    ("karpenter-block-no-fallback", "aws/karpenter-provider-aws v1.14.1 pkg/providers/instance/filter/filter.go "
     "L204-235 (CapacityBlockFilter)", {"provisioner": "karpenter", "capacity": "capacity-block",
                                       "reservation": Reservation(ids=BLOCK_ID, fallback="spot")},
     "reservation.fallback", "is not read by the EKS karpenter provisioner"),
    ("node-group-no-fallback", "botocore eks CreateNodegroup capacityType (one per node group)",
     {"capacity": "reserved", "reservation": Reservation(ids=("cr-0a",), fallback="spot")},
     "reservation.fallback", "use provisioner: karpenter"),
    ("auto-mode-selects-a-reservation", AUTO, {"provisioner": "eks-auto-mode", "capacity": "reserved",
                                               "reservation": Reservation(fallback="on-demand")},
     "reservation", "needs capacityReservationSelectorTerms on the NodeClass"),
    ("auto-mode-block-needs-terms", AUTO, {"provisioner": "eks-auto-mode", "capacity": "capacity-block"},
     "reservation", "capacity capacity-block needs a reservation"),
    ("auto-mode-block-no-fallback", AUTO, {"provisioner": "eks-auto-mode", "capacity": "capacity-block",
                                           "reservation": Reservation(ids=BLOCK_ID, fallback="on-demand")},
     "reservation.fallback", "is not read by the EKS eks-auto-mode provisioner for capacity capacity-block"),
    ("auto-mode-owner-not-guessed", AUTO, {"provisioner": "eks-auto-mode", "capacity": "reserved",
                                           "reservation": Reservation(selector_terms=(
                                               ReservationTerm(tags={"team": "ml"}, owner_id="123456789012"),))},
     "reservation.selectorTerms[0].ownerID", "spells the owning account of a term owner"),
    ("auto-mode-no-match-criteria", AUTO, {"provisioner": "eks-auto-mode", "capacity": "reserved",
                                           "reservation": Reservation(selector_terms=(
                                               ReservationTerm(instance_match_criteria="open"),))},
     "reservation.selectorTerms[0].instanceMatchCriteria", "selects reservations by id or tags only"),
    ("auto-mode-no-resource-group", AUTO, {"provisioner": "eks-auto-mode", "capacity": "reserved",
                                           "reservation": Reservation(resource_group_arn=(
                                               "arn:aws:resource-groups:us-east-1:123456789012:group/gpu"))},
     "reservation.resourceGroupArn", "use provisioner: node-group"),
    ("auto-mode-id-stands-alone", CRD, {"provisioner": "eks-auto-mode", "capacity": "reserved",
                                        "reservation": Reservation(selector_terms=(
                                            ReservationTerm(id="cr-0a", tags={"team": "ml"}),))},
     "reservation.selectorTerms[0]", "id selects one reservation"),
    ("auto-mode-max-size-within-the-reservation", "issue #28", {
        "provisioner": "eks-auto-mode", "capacity": "reserved", "max_size": 3,
        "reservation": Reservation(ids=("cr-0a",), nodes=2)}, "maxSize", "above the 2 nodes the reservation holds"),
    ("reservation-only-where-taken", "gpuready capacity table (capacity_offers)",
     {"capacity": "on-demand", "reservation": Reservation(ids=("cr-0a",))},
     "reservation", "set capacity: reserved or capacity-block"),
]  # fmt: skip


@pytest.mark.parametrize(("source", "fields", "path", "words"), [r[1:] for r in RULES], ids=[r[0] for r in RULES])
def test_each_rule_refuses_with_a_hint(source: str, fields: dict[str, Any], path: str, words: str) -> None:
    assert source
    fields = {"instance_type": "p5.48xlarge", **fields}
    if fields.get("provisioner") in ("karpenter", "eks-auto-mode"):
        fields.setdefault("max_size", 2)
    fields = {k: v for k, v in fields.items() if v is not None}
    with pytest.raises(SpecError) as info:
        build_spec("eks", **fields)
    hits = [p for p in info.value.problems if p.path == path and words in str(p)]
    assert hits, "\n".join(map(str, info.value.problems))
    assert all(p.hint for p in hits)


@pytest.mark.parametrize(
    "fields",
    [
        {"capacity": "capacity-block", "overrides": SUBNETS, "reservation": Reservation(ids=BLOCK_ID, zone="us-east-1a",
                                                                                        nodes=2)},
        {"capacity": "reserved", "reservation": Reservation(instance_match_criteria="open")},
        {"capacity": "reserved", "max_size": 5, "provisioner": "karpenter",
         "reservation": Reservation(ids=("cr-0a",), nodes=2, fallback="on-demand")},
        {"capacity": "reserved", "reservation": Reservation(ids=("cr-0a",), fallback="none")},
    ],
    ids=["block", "odcr-open", "karpenter-fallback-beyond-the-reservation", "node-group-says-no-fallback"],
)  # fmt: skip
def test_what_the_rules_allow(fields: dict[str, Any]) -> None:
    spec = build_spec("eks", instance_type="p5.48xlarge", **fields)
    assert spec.reservation == fields["reservation"]


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"capacity": "capacity-block", "desired_size": 2, "overrides": SUBNETS,
          "reservation": Reservation(ids=BLOCK_ID, zone="us-east-1a")}, 0),
        ({"capacity": "reserved", "desired_size": 2, "reservation": Reservation(ids=("cr-0a",))}, 2),
    ],
    ids=["block-starts-later", "odcr-is-there-now"],
)  # fmt: skip
def test_verification_waits_for_no_node_of_a_block(fields: dict[str, Any], expected: int) -> None:
    """A Capacity Block's nodes launch once it is active (capacity-blocks-mng): none to wait for at deploy."""
    spec = build_spec("eks", instance_type="p5.48xlarge", **fields)
    bounds = registry.provisioner_for(spec).bounds(spec)
    assert (bounds.initial, bounds.expected_nodes) == (2, expected)
