"""The capacity keys of a pool beside ``capacity`` and ``reservation`` against what its provisioner reads (issue
#28). Pure.

``capacity`` and the ``reservation`` fields are the provisioner's capacity table's (``capacity_offers``, checked by
``capacity.reservation_rules``); the other capacity keys (``locationPolicy``, ``maxRunDuration``) are its
``Provisioner.capacity_keys``: a key outside them is refused here, naming the provisioners of the pool's cloud that
do read it, so the hint always points at a choice that exists. An empty ``reservation`` is said here too, where the
capacity does not require one (a required one is the offer's to ask for). The cross-field rules of one cloud (GKE
queued provisioning, AKS reservation groups) are that provisioner's ``spec_problems``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from gpuready.core.capacity.capacity_offers import RESERVATION_FIELDS
from gpuready.core.capacity.reservation_rules import given_fields
from gpuready.core.pool_parts import Reservation
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.capacity.interface import Provisioner
    from gpuready.core.clouds.spec_rules import SpecRules
    from gpuready.core.specs import GpuPoolSpec


def given_keys(spec: GpuPoolSpec) -> dict[str, object]:
    """The capacity keys besides ``capacity`` and ``reservation`` the pool sets (not None), by camelCase path."""
    given: dict[str, object] = {"locationPolicy": spec.location_policy, "maxRunDuration": spec.max_run_duration}
    return {key: value for key, value in given.items() if value is not None}


def problems(spec: GpuPoolSpec, chosen: Provisioner, said: Sequence[str] = ()) -> list[Problem]:
    """Each capacity key ``chosen`` does not read, and an empty ``reservation`` (once ``capacity`` is offered, and
    unless a problem of the paths ``said`` by the other rules already names the reservation: one problem each)."""
    offer = chosen.capacities.get(spec.capacity)
    if offer is None:
        return []  # reservation_rules says the capacity is not offered; nothing more to add
    found: list[Problem] = []
    reservation = spec.reservation
    named = any(path.startswith("reservation") for path in said)
    if isinstance(reservation, Reservation) and not named and not given_fields(reservation):
        keys = tuple(key for key in RESERVATION_FIELDS if key in offer.fields)
        found.append(Problem("reservation", "is empty", {}, keys, "remove reservation, or fill it in"))
    reason = f" ({chosen.capacity_limit_reason})" if chosen.capacity_limit_reason else ""
    for key, value in given_keys(spec).items():
        if key not in chosen.capacity_keys:
            found.append(Problem(key, f"is not read by the {spec.profile.title} {chosen.key} provisioner{reason}",
                                 value, (), _offered_by(spec, _reads(key), key)))  # fmt: skip
    return found


def _reads(key: str) -> Callable[[Provisioner], bool]:
    return lambda other: key in other.capacity_keys


def _offered_by(spec: GpuPoolSpec, offers: Callable[[Provisioner], bool], what: str) -> str:
    """A hint naming the provisioners of the pool's cloud for which ``offers`` holds, else removing ``what``."""
    profile: SpecRules = spec.profile
    keys = [key for key, provisioner in profile.provisioners.items() if offers(provisioner)]
    if keys:
        return f"remove {what}, or set provisioner: {' or '.join(keys)}"
    return f"no {profile.title} provisioner reads it: remove {what}"
