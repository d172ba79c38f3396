"""Reservations and Capacity Blocks on EKS Auto Mode pools: the provisioner's row of the capacity table, what the
NodeClass and NodePool carry for them, what is refused, and the cluster-wide note. Pure.

Amazon EKS User Guide, "Control deployment of workloads into Capacity Reservations with EKS Auto Mode"
(https://docs.aws.amazon.com/eks/latest/userguide/auto-odcr.html; source awsdocs/amazon-eks-user-guide
``latest/ug/automode/auto-odcr.adoc`` @4f3d5005, PR #1110):

- a NodeClass selects On-Demand Capacity Reservations and Capacity Blocks for ML by
  ``capacityReservationSelectorTerms``, by ``id`` or by ``tags``; nodes launched into them carry
  ``karpenter.sh/capacity-type: reserved`` and are preferred to on-demand and spot, which the NodePool may allow beside
  ``reserved`` (the example NodePool's "Enable other capacity types" lines): ``fallback`` ``on-demand`` or ``spot``;
- a Capacity Block NodeClass names its block (the example ``capacityReservationSelectorTerms: [{id: cr-...}]``) and its
  NodePool "only uses reserved capacity" (``karpenter.sh/capacity-type In [reserved]``): no fallback; the published page
  (newer than the source stored at 4f3d5005) adds "Capacity Blocks for ML always require
  ``capacityReservationSelectorTerms``" and the node label ``eks.amazonaws.com/capacity-reservation-type`` (``default``
  or ``capacity-block``, "Scheduling labels for Capacity Reservations"), which a Capacity Block pool requires so a tag
  term selecting ODCRs too cannot put it on an ODCR;
- once any NodeClass of the cluster sets the terms, Auto Mode no longer launches into open ODCRs for any NodeClass
  (the page's Warning): ``auto_mode.AUTO_MODE_ODCR_CAVEAT``, said in the plan (``odcr_caveat``).

The owning account of a tag term is refused: the guide's example writes ``owner``, Karpenter's EC2NodeClass CRD
``ownerID`` (``reservation.TERMS``), and the NodeClass schema in ../shared (datreeio/CRDs-catalog ``7b1e26ef``
``eks.amazonaws.com/nodeclass_v1.json``) has no such field to settle it. ``instanceMatchCriteria`` is refused too:
the guide selects by ``id`` or ``tags`` only. The terms themselves are checked as the EC2NodeClass CRD checks them
(``reservation.TERMS``); the emitted NodeClass is validated against the Auto Mode schema with Karpenter's property
grafted in (``tests/eks/auto_mode_schema.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gpuready.core.capacity import karpenter_nodepool
from gpuready.core.capacity.capacity_offers import CapacityOffer
from gpuready.core.pool_parts import Reservation
from gpuready.eks import karpenter, reservation
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

SOURCE = "Amazon EKS User Guide, auto-odcr"
RESERVATION_TYPE = "eks.amazonaws.com/capacity-reservation-type"
"""Auto Mode's node label of a reserved node's kind of reservation, ``default`` or ``capacity-block`` (auto-odcr,
"Scheduling labels for Capacity Reservations")."""
RESERVATION_TYPES: Mapping[str, str] = {"capacity-block": "capacity-block"}
"""Pool capacity -> the ``RESERVATION_TYPE`` its nodes must have (a Capacity Block pool takes blocks only)."""

AUTO_MODE_CAPACITIES: Mapping[str, CapacityOffer] = karpenter.KARPENTER_CAPACITIES
"""The EKS Auto Mode row of the capacity table (``capacity.capacity_offers``): Karpenter's, since Auto Mode's NodePool
is ``karpenter.sh/v1`` and its guide documents the same reserved (with a fallback) and Capacity Block offers
(auto-odcr); what differs, the NodeClass's terms, is this module's."""

REFUSED_TERM_FIELDS: Mapping[str, tuple[str, str]] = {
    "ownerID": (
        "EKS Auto Mode's documentation spells the owning account of a term owner (auto-odcr example), Karpenter's "
        "EC2NodeClass CRD ownerID, and the NodeClass schema gpuready validates against (datreeio/CRDs-catalog "
        "7b1e26ef eks.amazonaws.com/nodeclass_v1.json) has neither: gpuready does not guess",
        "select the reservations shared with this account by id (ids: [cr-...]), or use provisioner: karpenter, whose "
        "EC2NodeClass takes ownerID",
    ),
    "instanceMatchCriteria": (
        "EKS Auto Mode's documentation selects reservations by id or tags only (auto-odcr)",
        "select the reservations by id or tags, or use provisioner: karpenter, whose EC2NodeClass takes "
        "instanceMatchCriteria",
    ),
}
"""Selector term fields (as written) an Auto Mode pool refuses: why, and what works instead."""


def reservation_problems(spec: GpuPoolSpec) -> list[Problem]:
    """An Auto Mode pool's reservation: selector terms on its NodeClass, as the EC2NodeClass CRD checks them, with
    only the fields Auto Mode documents."""
    given = spec.reservation
    if not isinstance(given, Reservation):
        return []
    found = reservation.selector_problems(spec, "NodeClass")
    for index, term in enumerate(given.selector_terms):
        values = {"ownerID": term.owner_id, "instanceMatchCriteria": term.instance_match_criteria}
        for key, value in values.items():
            if value is not None:
                why, hint = REFUSED_TERM_FIELDS[key]
                allowed = ("id", "tags")
                found.append(Problem(f"reservation.selectorTerms[{index}].{key}", why, value, allowed, hint))
    return found


def requirements(spec: GpuPoolSpec) -> list[dict[str, Any]]:
    """The NodePool requirements a reservation adds: a Capacity Block's reservation type, the reservation's zone."""
    found: list[dict[str, Any]] = []
    kind = RESERVATION_TYPES.get(spec.capacity)
    if kind is not None:
        found.append(karpenter_nodepool.requirement(RESERVATION_TYPE, kind))
    if spec.reservation is not None and spec.reservation.zone is not None:
        found.append(karpenter_nodepool.requirement(karpenter.ZONE, spec.reservation.zone))
    return found


def reservation_terms(spec: GpuPoolSpec) -> list[dict[str, Any]]:
    """The NodeClass's ``capacityReservationSelectorTerms``: one ``id`` term per reservation id, then the pool's
    selector terms (``id`` or ``tags``: the other fields are refused first)."""
    return karpenter.reservation_terms(spec)


def selects_reservations(spec: GpuPoolSpec) -> bool:
    """Whether the pool's NodeClass sets ``capacityReservationSelectorTerms``."""
    return spec.capacity in AUTO_MODE_CAPACITIES and bool(reservation_terms(spec))


def lifecycle_note(spec: GpuPoolSpec) -> str:
    """What the pool's reservation means, for the plan's lifecycle line ("" without one)."""
    if not selects_reservations(spec):
        return ""
    then = {"capacity-block": "reserved only (a Capacity Block, from its start)"}.get(spec.capacity)
    fallback = spec.reservation.fallback if spec.reservation is not None else None
    if then is None:
        then = f"reserved first, then {fallback}" if fallback not in (None, "none") else "reserved only"
    return (
        f"; the NodeClass selects its reservations (capacityReservationSelectorTerms), nodes {then}; cluster-wide, "
        "Auto Mode then uses no open ODCR a NodeClass does not select"
    )


def odcr_caveat(spec: GpuPoolSpec, stack_pools: Sequence[GpuPoolSpec] = ()) -> str:
    """The plan's note of Auto Mode's cluster-wide caveat for a pool whose NodeClass selects reservations ("" for
    any other pool), naming the stack's other Auto Mode pools that may have relied on open ODCRs (on-demand ones:
    Auto Mode launches them into open ODCRs by default, auto-odcr)."""
    if not selects_reservations(spec):
        return ""
    chosen = spec.resolved.provisioner
    affected = [
        pool.name for pool in stack_pools
        if pool.name != spec.name and pool.resolved.provisioner is chosen and pool.capacity == "on-demand"
    ]  # fmt: skip
    note = (
        f"pool {spec.name}: its NodeClass sets capacityReservationSelectorTerms, so EKS Auto Mode no longer launches "
        "into open On-Demand Capacity Reservations for any NodeClass of the cluster (the built-in node pools' too): "
        "each reservation must then be selected by a NodeClass (Amazon EKS User Guide, auto-odcr, Warning)"
    )
    if affected:
        note += (
            f". Affected in this stack: Auto Mode pool(s) {', '.join(affected)} (on-demand) no longer use open ODCRs; "
            "give them capacity: reserved with the reservations they should use"
        )
    return note
