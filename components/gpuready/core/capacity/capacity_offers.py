"""Which capacity values (``capacity``) a provisioner offers, and what each does with a ``reservation``. Pure.

Every provisioner carries its row of the table (``Provisioner.capacities``: capacity value -> ``CapacityOffer``),
so adding a way of getting capacity to a provisioner is data, never a branch on its name. An offer says whether
the value needs a ``reservation`` (``required``), takes one (``optional``) or none (``refused``), which of the
reservation's fields the provisioner reads (the rest are refused, naming what reads them), and which ``fallback``
values it can honour (the first is the default). The values of the fields are the cloud's to check (the
provisioner's ``spec_problems``: EKS ``gpuready.eks.reservation``); the shared rules are ``capacity.reservation_rules``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from gpuready.record import record

ReservationUse = Literal["required", "optional", "refused"]

RESERVATION_FIELDS: Mapping[str, str] = {
    "ids": "ids",
    "resourceGroupArn": "resource_group_arn",
    "selectorTerms": "selector_terms",
    "instanceMatchCriteria": "instance_match_criteria",
    "fallback": "fallback",
    "zone": "zone",
    "nodes": "nodes",
    "affinity": "affinity",
    "name": "name",
    "project": "project",
    "groupId": "group_id",
    "region": "region",
    "vmSize": "vm_size",
}
"""``reservation`` key as written -> ``Reservation`` field (EKS, then GKE, then AKS)."""


@record(frozen=True, kw_only=True, slots=True)
class CapacityOffer:
    """How one provisioner makes one ``capacity`` value."""

    reservation: ReservationUse = "refused"
    fields: frozenset[str] = frozenset()
    """``reservation`` keys (as written) the provisioner reads for this value."""
    fallbacks: tuple[str, ...] = ("none",)
    """``reservation.fallback`` values it honours; the first is the default."""
    example: str = ""
    """A reservation that works, for the hint when one is missing (``{ids: [cr-...]}``)."""
    starts_later: bool = False
    """The capacity has a start of its own (a Capacity Block becomes active at its start time): right after deploy
    the pool may have no node yet, so verification waits for none (``ScalingBounds.expected_nodes``)."""


PLAIN = CapacityOffer()
"""On-demand or spot: no reservation."""
ON_DEMAND_AND_SPOT: Mapping[str, CapacityOffer] = {"on-demand": PLAIN, "spot": PLAIN}
"""What every provisioner offered before reservations: its default row."""


def reading(values: tuple[str, ...], fields: frozenset[str]) -> Mapping[str, CapacityOffer]:
    """A row offering each of ``values`` with an optional ``reservation`` of ``fields``, where the cloud's own rules
    decide which capacity needs or refuses one (GKE ``capacity_rules``, AKS ``capacity_rules``)."""
    offer = CapacityOffer(reservation="optional", fields=fields)
    return dict.fromkeys(values, offer)
