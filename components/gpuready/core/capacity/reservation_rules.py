"""The shared rules of a pool's ``capacity`` and ``reservation``, read from its provisioner's row of the capacity
table (``capacity_offers``): a value the provisioner does not offer, a reservation missing, refused or with keys
the provisioner does not read, a fallback it cannot honour, and ``maxSize`` above the reservation's ``nodes``.
Every hint names what works instead (another provisioner of the cloud that offers it, found in the table). Pure;
run once by ``capacity.rules``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuready.core.capacity.capacity_offers import RESERVATION_FIELDS, CapacityOffer
from gpuready.core.pool_parts import CAPACITIES, Reservation
from gpuready.core.suggest import did_you_mean
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.capacity.interface import Provisioner
    from gpuready.core.specs import GpuPoolSpec


def given_fields(reservation: Reservation) -> dict[str, object]:
    """The reservation's keys (as written) that are set, with their values."""
    found: dict[str, object] = {}
    for key, name in RESERVATION_FIELDS.items():
        value = getattr(reservation, name, None)
        if value is not None and value != ():
            found[key] = value
    return found


def fallback(spec: GpuPoolSpec, offer: CapacityOffer) -> str:
    """The pool's fallback: ``reservation.fallback``, else the offer's default."""
    chosen = spec.reservation.fallback if spec.reservation is not None else None
    return chosen if chosen is not None else offer.fallbacks[0]


def problems(spec: GpuPoolSpec, chosen: Provisioner) -> list[Problem]:
    """What is wrong with the pool's ``capacity`` and ``reservation`` under the provisioner ``chosen``."""
    if spec.capacity not in CAPACITIES:
        hint = did_you_mean(spec.capacity, CAPACITIES) or f"omit capacity for {next(iter(chosen.capacities))}"
        return [Problem("capacity", "unknown capacity type", spec.capacity, tuple(chosen.capacities), hint)]
    offer = chosen.capacities.get(spec.capacity)
    if offer is None:
        return [_unoffered(spec, chosen)]
    reservation = spec.reservation
    if reservation is None:
        if offer.reservation != "required":
            return []
        return [Problem("reservation", f"capacity {spec.capacity} needs a reservation", None, (),
                        f"add reservation: {offer.example}")]  # fmt: skip
    if not isinstance(reservation, Reservation):
        return [Problem("reservation", "must be a mapping of reservation settings", type(reservation).__name__)]
    if offer.reservation == "refused" and not any(_who_reads(spec, key) for key in given_fields(reservation)):
        return [Problem("reservation", f"capacity {spec.capacity} draws on no reservation", None, (),
                        _reservation_hint(spec, chosen))]  # fmt: skip
    return _field_problems(spec, chosen, offer, reservation)


def _field_problems(
    spec: GpuPoolSpec, chosen: Provisioner, offer: CapacityOffer, reservation: Reservation
) -> list[Problem]:
    found: list[Problem] = []
    for key, value in given_fields(reservation).items():
        if key in offer.fields or (key == "fallback" and value == offer.fallbacks[0]):
            continue  # saying the default fallback (none) is never wrong
        hint = _who_reads(spec, key) or _nobody_reads(spec, key)
        why = f"is not read by the {spec.profile.title} {chosen.key} provisioner for capacity {spec.capacity}"
        found.append(Problem(f"reservation.{key}", why, value, tuple(sorted(offer.fields)), hint))
    chosen_fallback = reservation.fallback
    if chosen_fallback is not None and "fallback" in offer.fields and chosen_fallback not in offer.fallbacks:
        found.append(Problem("reservation.fallback", f"the {chosen.key} provisioner cannot fall back from capacity "
                             f"{spec.capacity}", chosen_fallback, offer.fallbacks,
                             _fallback_hint(spec, chosen, chosen_fallback)))  # fmt: skip
    nodes = reservation.nodes
    if nodes is not None and (not isinstance(nodes, int) or isinstance(nodes, bool) or nodes < 1):
        found.append(Problem("reservation.nodes", "must be a whole number of nodes, at least 1", nodes))
    elif nodes is not None and fallback(spec, offer) == "none" and spec.max_size > nodes:
        found.append(Problem("maxSize", f"is above the {nodes} nodes the reservation holds (reservation.nodes), "
                             "with no fallback: the nodes above it never launch", spec.max_size, (),
                             f"lower maxSize to {nodes}, or raise reservation.nodes to the "
                             "reservation's size"))  # fmt: skip
    return found


def _offering(spec: GpuPoolSpec, capacity: str, fallback_value: str | None = None) -> list[str]:
    """Keys of the provisioners of the pool's cloud that offer ``capacity`` (with ``fallback_value``, if given)."""
    keys = []
    for key, made in spec.profile.provisioners.items():
        offer = made.capacities.get(capacity)
        if offer is not None and (fallback_value is None or fallback_value in offer.fallbacks):
            keys.append(key)
    return keys


def _unoffered(spec: GpuPoolSpec, chosen: Provisioner) -> Problem:
    offered = tuple(chosen.capacities)
    here = _offering(spec, spec.capacity)
    if here:
        hint = f"use provisioner: {' or '.join(here)} for capacity {spec.capacity}"
    else:
        hint = f"choose one of the allowed on {spec.profile.title}"
    reason = f" ({chosen.capacity_limit_reason})" if chosen.capacity_limit_reason else ""
    where = f"the {spec.profile.title} {chosen.key} provisioner"
    return Problem("capacity", f"is not offered by {where}{reason}", spec.capacity, offered, hint)


def _reservation_hint(spec: GpuPoolSpec, chosen: Provisioner) -> str:
    taking = [value for value, offer in chosen.capacities.items() if offer.reservation != "refused"]
    if not taking:
        return f"remove reservation: the {chosen.key} provisioner draws on none"
    return f"remove reservation, or set capacity: {' or '.join(taking)}"


def _who_reads(spec: GpuPoolSpec, key: str) -> str:
    readers = [
        k for k, made in spec.profile.provisioners.items()
        if (offer := made.capacities.get(spec.capacity)) is not None and key in offer.fields
    ]  # fmt: skip
    if not readers:
        return ""
    return f"remove it, or use provisioner: {' or '.join(readers)} (it reads {key} for capacity {spec.capacity})"


def _nobody_reads(spec: GpuPoolSpec, key: str) -> str:
    anywhere = any(key in offer.fields for made in spec.profile.provisioners.values()
                   for offer in made.capacities.values())  # fmt: skip
    if anywhere:
        return "remove it"
    return f"no {spec.profile.title} provisioner reads it: remove reservation.{key}"


def _fallback_hint(spec: GpuPoolSpec, chosen: Provisioner, wanted: str) -> str:
    others = [k for k in _offering(spec, spec.capacity, wanted) if k != chosen.key]
    if others:
        return f"use provisioner: {' or '.join(others)} for capacity {spec.capacity} with fallback {wanted}"
    return f"set fallback to one of the allowed, or make a second pool of capacity {wanted} beside this one"
