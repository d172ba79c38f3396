"""How a pool gets its capacity, as the plan shows it: the ``CAPACITY`` column and the plan file's ``capacity``
object, and the words ``gpuready diff`` uses when a pool leaves or loses its reservation. Pure.

The object holds the pool's ``capacity`` value, the references of its reservation (``REFERENCES``: each field of
``Reservation`` that names one, with how it is written), its ``nodes``, ``zone`` and ``fallback``; the text is made
from the object alone, so a plan file read back (``gpuready diff``) words it the same. A cloud whose reservations
are named by other fields adds a row to ``REFERENCES`` (a GKE reservation ``name``, an AKS ``groupId``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gpuready.core.pool_parts import Reservation, ReservationTerm
    from gpuready.core.specs import GpuPoolSpec


def _term(term: ReservationTerm) -> str:
    if term.id is not None:
        return term.id
    tags = ",".join(f"{k}={v}" for k, v in sorted((term.tags or {}).items()))
    parts = [f"tags {tags}" if tags else "", f"owner {term.owner_id}" if term.owner_id else "",
             term.instance_match_criteria or ""]  # fmt: skip
    return " ".join(part for part in parts if part)


REFERENCES: tuple[tuple[str, Callable[[Any], list[str]]], ...] = (
    ("ids", list),
    ("resource_group_arn", lambda arn: [str(arn).rsplit(":", 1)[-1]]),
    ("selector_terms", lambda terms: [_term(term) for term in terms]),
    ("name", lambda name: [str(name)]),
    ("group_id", lambda group: [str(group).rstrip("/").rsplit("/", 1)[-1]]),
)
"""``Reservation`` field -> the references it names, as the plan writes them (a resource group ARN by its
``group/<name>``; a GKE specific reservation by its name; an AKS capacity reservation group by its name)."""
UNNAMED: Mapping[str, tuple[str, str]] = {"instance_match_criteria": ("open", "open"), "affinity": ("any", "any")}
"""A reservation that names none but says how it is used: field, value -> the reference the plan writes (an open
ODCR preference, a GKE ``any`` reservation affinity)."""
WORDS: Mapping[str, str] = {"capacity-block": "block"}
"""Capacity values the table words shorter."""


def references(reservation: Reservation) -> list[str]:
    """What the reservation names, in ``REFERENCES`` order; ``open`` / ``any`` for an open ODCR preference or a GKE
    ``any`` affinity with none."""
    found: list[str] = []
    for name, written in REFERENCES:
        value = getattr(reservation, name, None)
        if value:
            found.extend(written(value))
    for name, (value, written_as) in UNNAMED.items():
        if not found and getattr(reservation, name, None) == value:
            found.append(written_as)
    return found


def capacity_object(spec: GpuPoolSpec) -> dict[str, Any]:
    """The plan file's ``capacity`` of a pool."""
    reservation = spec.reservation
    found: dict[str, Any] = {"type": spec.capacity, "reservation": None, "nodes": None, "zone": None, "fallback": None}
    if reservation is not None:
        found.update(
            reservation=references(reservation), nodes=reservation.nodes, zone=reservation.zone,
            fallback=reservation.fallback if reservation.fallback not in (None, "none") else None,
        )  # fmt: skip
    found["text"] = capacity_text(found)
    return found


def capacity_text(capacity: Mapping[str, Any]) -> str:
    """``on-demand``, ``spot``, ``reserved cr-0abc (4 nodes)``, ``block cr-0abc (2 nodes, us-east-1a)``,
    ``reserved tags team=ml, then spot``."""
    kind = str(capacity.get("type") or "on-demand")
    text = WORDS.get(kind, kind)
    refs = capacity.get("reservation") or []
    if refs:
        text += " " + ",".join(str(ref) for ref in refs)
    details = [f"{capacity['nodes']} nodes" if capacity.get("nodes") else "", str(capacity.get("zone") or "")]
    shown = [detail for detail in details if detail]
    if shown:
        text += f" ({', '.join(shown)})"
    if capacity.get("fallback"):
        text += f", then {capacity['fallback']}"
    return text


def bound_to_reservation(capacity: Mapping[str, Any] | None) -> bool:
    """Whether a plan's pool draws on a reservation (``gpuready diff``)."""
    return bool(capacity and capacity.get("reservation"))
