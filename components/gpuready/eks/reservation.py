"""The values of an EKS pool's ``reservation``: ids, resource group, selector terms, zone; and the rules each EKS
provisioner adds. Pure.

Shapes come from the EC2NodeClass CRD (aws/karpenter-provider-aws v1.14.1
``pkg/apis/crds/karpenter.k8s.aws_ec2nodeclasses.yaml``, in ../shared as
``karpenter-aws/karpenter.k8s.aws_ec2nodeclasses.v1.14.1.yaml`` L256-294: ``id`` ``^cr-[0-9a-z]+$``, ``ownerID``
12 digits, at most 20 ``tags`` with no empty key or value, at most 30 terms, each with ``tags``, ``id`` or
``instanceMatchCriteria``, ``id`` alone) and botocore's ec2 model (``CapacityReservationTarget``: one
``CapacityReservationId`` or one ``CapacityReservationResourceGroupArn``; ``InstanceMatchCriteria`` open | targeted).
The node-group rules are the EKS User Guide's "Create a managed node group with Capacity Blocks for ML"
(awsdocs/amazon-eks-user-guide ``doc_source/capacity-blocks-mng.md``): a Capacity Block node group needs a launch
template with the instance type, ``MarketType: capacity-block`` and the block's id, no instance types of its own,
and subnets in the block's Availability Zone only; it is upgraded at desired size 0.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gpuready.core.pool_parts import MATCH_CRITERIA, Reservation
from gpuready.errors import Problem
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec


@record(frozen=True, kw_only=True, slots=True)
class SelectorTermRules:
    """What the EC2NodeClass CRD allows of ``capacityReservationSelectorTerms`` (aws/karpenter-provider-aws v1.14.1
    ``pkg/apis/crds/karpenter.k8s.aws_ec2nodeclasses.yaml``; ../shared
    ``karpenter-aws/karpenter.k8s.aws_ec2nodeclasses.v1.14.1.yaml`` L256-294), the spec-side rules gpuready checks
    before anything registers. ``tests/eks/test_reservation_terms.py`` reads the CRD and compares every field."""

    fields: tuple[str, ...]
    """The properties of a term (``items.properties``)."""
    id_pattern: str
    """``items.properties.id.pattern`` (L264)."""
    owner_pattern: str
    """``items.properties.ownerID.pattern`` (L274)."""
    match_criteria: tuple[str, ...]
    """``items.properties.instanceMatchCriteria.enum`` (L267-270)."""
    max_tags: int
    """``items.properties.tags.maxProperties`` (L281)."""
    nonempty_tags: str
    """The CEL rule on ``tags`` refusing empty keys and values (L284-285)."""
    max_terms: int
    """``maxItems`` (L287)."""
    selecting: tuple[str, ...]
    """A term sets one of these at least (the CEL rule of L290-291)."""
    exclusive: str
    """The field that stands alone in a term (the CEL rule of L292-293)."""


TERMS = SelectorTermRules(
    fields=("id", "instanceMatchCriteria", "ownerID", "tags"),
    id_pattern="^cr-[0-9a-z]+$",
    owner_pattern="^[0-9]{12}$",
    match_criteria=("open", "targeted"),
    max_tags=20,
    nonempty_tags="self.all(k, k != '' && self[k] != '')",
    max_terms=30,
    selecting=("tags", "id", "instanceMatchCriteria"),
    exclusive="id",
)
"""The EC2NodeClass v1.14.1 rules of a selector term (EKS Auto Mode's NodeClass takes the same field: the Amazon
EKS User Guide's auto-odcr; ``gpuready.eks.auto_mode_capacity``)."""
TERM_FIELDS: Mapping[str, str] = {
    "id": "id",
    "tags": "tags",
    "ownerID": "owner_id",
    "instanceMatchCriteria": "instance_match_criteria",
}
"""A term's field as the CRD (and ``reservation.selectorTerms``) writes it -> its ``ReservationTerm`` attribute."""
RESERVATION_ID = re.compile(TERMS.id_pattern.removesuffix("$") + r"\Z")
OWNER_ID = re.compile(TERMS.owner_pattern.removesuffix("$") + r"\Z")
RESOURCE_GROUP_ARN = re.compile(r"^arn:aws[a-z-]*:resource-groups:[a-z0-9-]+:[0-9]{12}:group/[A-Za-z0-9_.-]{1,128}\Z")
"""An AWS Resource Groups group ARN (``arn:aws:resource-groups:<region>:<account>:group/<name>``; Amazon EC2 User
Guide, "Capacity Reservation groups")."""
ZONE = re.compile(r"^[a-z]{2}(-[a-z0-9]+)+[a-z]\Z")
"""An Availability Zone name (``us-east-1a``, Local Zones ``us-west-2-lax-1a``)."""
MAX_TERMS = TERMS.max_terms
MAX_TAGS = TERMS.max_tags
EXAMPLE_ID = "cr-0123456789abcdef0"


def value_problems(reservation: Reservation) -> list[Problem]:
    """The reservation's values as EC2 and the EC2NodeClass CRD take them."""
    found: list[Problem] = []
    for index, given in enumerate(reservation.ids):
        if not isinstance(given, str) or not RESERVATION_ID.match(given):
            found.append(Problem(f"reservation.ids[{index}]", "is not an EC2 capacity reservation id", given, (),
                                 f"ids look like {EXAMPLE_ID} (the Capacity Block's or reservation's id)"))  # fmt: skip
    arn = reservation.resource_group_arn
    if arn is not None and (not isinstance(arn, str) or not RESOURCE_GROUP_ARN.match(arn)):
        found.append(Problem("reservation.resourceGroupArn", "is not a resource group ARN", arn, (),
                             "e.g. arn:aws:resource-groups:us-east-1:123456789012:group/gpu-reservations"))  # fmt: skip
    criteria = reservation.instance_match_criteria
    if criteria is not None and criteria not in MATCH_CRITERIA:
        found.append(Problem("reservation.instanceMatchCriteria", "unknown match criteria", criteria, MATCH_CRITERIA))
    zone = reservation.zone
    if zone is not None and (not isinstance(zone, str) or not ZONE.match(zone)):
        found.append(Problem("reservation.zone", "is not an Availability Zone name", zone, (), "e.g. us-east-1a"))
    found.extend(_term_problems(reservation))
    return found


def _term_problems(reservation: Reservation) -> list[Problem]:
    found: list[Problem] = []
    terms = reservation.selector_terms
    if len(terms) + len(reservation.ids) > MAX_TERMS:
        found.append(Problem("reservation.selectorTerms", f"capacityReservationSelectorTerms takes at most "
                             f"{MAX_TERMS} terms (ids count as terms)", len(terms) + len(reservation.ids), (),
                             "tag the reservations and select them by tags: "
                             "{selectorTerms: [{tags: {team: ml}}]}"))  # fmt: skip
    for index, term in enumerate(terms):
        path = f"reservation.selectorTerms[{index}]"
        given = {key: getattr(term, name) for key, name in TERM_FIELDS.items() if getattr(term, name) is not None}
        if not any(key in given for key in TERMS.selecting):
            found.append(Problem(path, f"selects nothing: give one of {', '.join(TERMS.selecting)}", None, (),
                                 "e.g. {tags: {team: ml}}"))  # fmt: skip
        others = [key for key in given if key != TERMS.exclusive]
        if TERMS.exclusive in given and others:
            found.append(Problem(path, f"{TERMS.exclusive} selects one reservation: it cannot be set with "
                                 f"{', '.join(others)}", given[TERMS.exclusive], (),
                                 "split it into two terms"))  # fmt: skip
        if term.id is not None and not RESERVATION_ID.match(term.id):
            found.append(Problem(f"{path}.id", "is not an EC2 capacity reservation id", term.id, (),
                                 f"ids look like {EXAMPLE_ID}"))  # fmt: skip
        if term.owner_id is not None and not OWNER_ID.match(term.owner_id):
            found.append(Problem(f"{path}.ownerID", "is not a 12-digit AWS account id", term.owner_id, (),
                                 "e.g. ownerID: '123456789012' (quote it in YAML)"))  # fmt: skip
        if term.instance_match_criteria is not None and term.instance_match_criteria not in MATCH_CRITERIA:
            found.append(Problem(f"{path}.instanceMatchCriteria", "unknown match criteria",
                                 term.instance_match_criteria, MATCH_CRITERIA))  # fmt: skip
        found.extend(_tag_problems(f"{path}.tags", term.tags))
    return found


def _tag_problems(path: str, tags: Mapping[str, str] | None) -> list[Problem]:
    if tags is None:
        return []
    if len(tags) > MAX_TAGS:
        return [Problem(path, f"at most {MAX_TAGS} tags", len(tags), (), "select by fewer tags, or by ids")]
    return [Problem(f"{path}[{key!r}]", "empty tag keys or values are not supported", value, (),
                    "give the tag a value, or '*' for any value")
            for key, value in tags.items() if not key or not value]  # fmt: skip


def node_group_problems(spec: GpuPoolSpec) -> list[Problem]:
    """A node group's reservation: one target for its launch template, and a Capacity Block's own rules."""
    reservation = spec.reservation
    if not isinstance(reservation, Reservation):
        return []
    found = value_problems(reservation)
    targets = [key for key, given in (("ids", reservation.ids), ("resourceGroupArn", reservation.resource_group_arn))
               if given]  # fmt: skip
    if len(targets) > 1:
        found.append(Problem("reservation", "a launch template targets one reservation or one resource group "
                             "(botocore ec2 CapacityReservationTarget)", None, (),
                             "keep ids or resourceGroupArn"))  # fmt: skip
    if len(reservation.ids) > 1:
        found.append(Problem("reservation.ids", "a node group's launch template targets one reservation (botocore "
                             "ec2 CapacityReservationTarget.CapacityReservationId)", list(reservation.ids), (),
                             "put the reservations in a resource group and give resourceGroupArn, or make one pool "
                             "per reservation"))  # fmt: skip
    if spec.capacity == "reserved":
        found.extend(_odcr_problems(reservation, bool(targets)))
    else:
        found.extend(_block_problems(spec, reservation))
    if "launchTemplate" in spec.overrides:
        found.append(Problem("overrides.launchTemplate", f"capacity {spec.capacity} uses the launch template gpuready "
                             "makes for the pool (it carries the reservation)", None, (),
                             "remove overrides.launchTemplate; gpuready's template sets the reservation and the disk "
                             "(diskSizeGb)"))  # fmt: skip
    if reservation.zone is not None and "subnetIds" not in spec.overrides:
        found.append(Problem("overrides.subnetIds", f"the reservation is in {reservation.zone}: the node group's "
                             "subnets must be in that zone only", None, (),
                             f"give the pool its subnets in {reservation.zone}: "
                             "overrides: {subnetIds: [subnet-...]}"))  # fmt: skip
    return found


def _odcr_problems(reservation: Reservation, targeted: bool) -> list[Problem]:
    criteria = reservation.instance_match_criteria
    if criteria == "open" and targeted:
        return [Problem("reservation.instanceMatchCriteria", "open uses any matching open reservation: it names no "
                        "ids or resource group", criteria, MATCH_CRITERIA,
                        "set instanceMatchCriteria: targeted (or leave it out) to target the ids")]  # fmt: skip
    if criteria != "open" and not targeted:
        return [Problem("reservation", "says no reservation to draw on", None, (),
                        f"give ids: [{EXAMPLE_ID}] or resourceGroupArn (targeted), or instanceMatchCriteria: open "
                        "(any matching open reservation)")]  # fmt: skip
    return []


def _block_problems(spec: GpuPoolSpec, reservation: Reservation) -> list[Problem]:
    found: list[Problem] = []
    if len(reservation.ids) != 1:
        found.append(Problem("reservation.ids", "a Capacity Block node group names its block's id", None, (),
                             f"reservation: {{ids: [{EXAMPLE_ID}], zone: us-east-1a}}"))  # fmt: skip
    if reservation.zone is None:
        found.append(Problem("reservation.zone", "a Capacity Block lives in one Availability Zone, where the node "
                             "group's subnets must be (EKS capacity-blocks-mng)", None, (),
                             "set zone to the block's Availability Zone, e.g. zone: us-east-1a"))  # fmt: skip
    if spec.min_size != 0:
        found.append(Problem("minSize", "a Capacity Block node group is upgraded at desired size 0 (EKS "
                             "capacity-blocks-mng), and EKS scales it to 0 before the block ends", spec.min_size, (),
                             "set minSize: 0; desiredSize (read at creation) or the cluster autoscaler scales it up "
                             "once the block is active"))  # fmt: skip
    return found


def selector_problems(spec: GpuPoolSpec, node_class: str) -> list[Problem]:
    """An elastic pool's reservation: selector terms on its ``node_class`` (``EC2NodeClass``, Auto Mode's
    ``NodeClass``) to find it (ids or selectorTerms)."""
    reservation = spec.reservation
    if not isinstance(reservation, Reservation):
        return []
    found = value_problems(reservation)
    if not reservation.ids and not reservation.selector_terms:
        found.append(Problem("reservation", f"capacity {spec.capacity} needs capacityReservationSelectorTerms on the "
                             f"{node_class}: give ids or selectorTerms", None, (),
                             f"reservation: {{ids: [{EXAMPLE_ID}]}} or "
                             "{selectorTerms: [{tags: {team: ml}}]}"))  # fmt: skip
    return found


CAPACITY_BLOCK = "CAPACITY_BLOCK"
"""botocore eks ``CapacityTypes``: a node group on a Capacity Block."""


def planned_node_group_problems(inputs: Mapping[str, Any]) -> list[str]:
    """A raw program's ``aws.eks.NodeGroup`` of capacity type ``CAPACITY_BLOCK``: EKS rejects the create request
    unless a launch template names the instance type and the block, and the group names no instance types
    (EKS User Guide capacity-blocks-mng)."""
    if inputs.get("capacityType") != CAPACITY_BLOCK:
        return []
    found = []
    types = inputs.get("instanceTypes")
    if types:
        found.append(
            f"instanceTypes: a CAPACITY_BLOCK node group takes its instance type from its launch template, and EKS "
            f"rejects one on the group; got {list(types)}. Remove instanceTypes and set instanceType in the launch "
            "template (with instanceMarketOptions.marketType: capacity-block and the block's "
            "capacityReservationSpecification.capacityReservationTarget.capacityReservationId)"
        )
    if not inputs.get("launchTemplate"):
        found.append(
            "launchTemplate: a CAPACITY_BLOCK node group can only be created with a launch template (EKS User Guide "
            "capacity-blocks-mng). Give it one with instanceType, instanceMarketOptions.marketType: capacity-block "
            "and the block's capacityReservationTarget, or use gpuready's capacity: capacity-block, which makes it"
        )
    return found


def subnet_zone_problem(pool: str, subnets: list[str], zones: list[str | None], zone: str) -> str:
    """Why the pool's subnets do not fit its reservation's zone ("" when they do, or a zone is not reported)."""
    elsewhere = [f"{subnet} ({found})" for subnet, found in zip(subnets, zones, strict=True) if found and found != zone]
    if not elsewhere:
        return ""
    return (
        f"pool {pool}: reservation.zone is {zone}, but subnet(s) {', '.join(elsewhere)} are in another zone: the "
        f"reservation's instances launch in {zone} only (EKS capacity-blocks-mng). Give the pool only its subnets in "
        f"{zone} (overrides.subnetIds), or correct reservation.zone"
    )
