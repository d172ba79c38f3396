"""The pool's ``capacity`` and its capacity keys against what its provisioner offers (issue #28). Pure.

Each provisioner lists the ``capacity`` values it offers (``Provisioner.capacities``) and the capacity keys it reads
(``Provisioner.capacity_keys``: ``locationPolicy``, ``maxRunDuration``, ``reservation.<field>``): a value or key
outside them is refused here, naming the provisioners of the pool's cloud that do offer it, so the hint always
points at a choice that exists. The cross-field rules of one cloud (GKE queued provisioning, AKS reservation
groups) are that provisioner's ``spec_problems``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import TYPE_CHECKING

from gpuready.core.pool_parts import CAPACITIES, Reservation
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.capacity.interface import Provisioner
    from gpuready.core.specs import GpuPoolSpec


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


RESERVATION_FIELDS: tuple[str, ...] = tuple(f"reservation.{_camel(f.name)}" for f in fields(Reservation))
"""Every field of ``reservation`` as a capacity key (camelCase, as a user writes it)."""


def given_keys(spec: GpuPoolSpec) -> dict[str, object]:
    """The capacity keys the pool sets (not None), by camelCase path."""
    given: dict[str, object] = {"locationPolicy": spec.location_policy, "maxRunDuration": spec.max_run_duration}
    if spec.reservation is not None:
        for item in fields(Reservation):
            given[f"reservation.{_camel(item.name)}"] = getattr(spec.reservation, item.name)
    return {key: value for key, value in given.items() if value is not None}


def problems(spec: GpuPoolSpec, chosen: Provisioner) -> list[Problem]:
    """``capacity`` outside what ``chosen`` offers, and each capacity key it does not read."""
    found: list[Problem] = []
    if spec.capacity in CAPACITIES and spec.capacity not in chosen.capacities:
        found.append(
            Problem(
                "capacity",
                f"is not offered by the {spec.profile.title} {chosen.key} provisioner"
                + (f" ({chosen.capacity_note})" if chosen.capacity_note else ""),
                spec.capacity,
                chosen.capacities,
                _offered_by(spec, lambda other: spec.capacity in other.capacities, "capacity"),
            )
        )
    if spec.reservation is not None and not given_keys(spec).keys() & set(RESERVATION_FIELDS):
        found.append(Problem("reservation", "is empty", {}, RESERVATION_FIELDS, "remove reservation, or fill it in"))
    for key, value in given_keys(spec).items():
        if key not in chosen.capacity_keys:
            found.append(
                Problem(
                    key,
                    f"is not read by the {spec.profile.title} {chosen.key} provisioner"
                    + (f" ({chosen.capacity_note})" if chosen.capacity_note else ""),
                    value,
                    (),
                    _offered_by(spec, _reads(key), key),
                )
            )
    return found


def _reads(key: str) -> Callable[[Provisioner], bool]:
    return lambda other: key in other.capacity_keys


def _offered_by(spec: GpuPoolSpec, offers: Callable[[Provisioner], bool], what: str) -> str:
    """A hint naming the provisioners of the pool's cloud for which ``offers`` holds, else removing ``what``."""
    profile = spec.profile
    keys = [key for key, provisioner in profile.provisioners.items() if offers(provisioner)]
    if keys:
        instead = "choose one of the allowed" if what == "capacity" else f"remove {what}"
        return f"{instead}, or set provisioner: {' or '.join(keys)}"
    if what == "capacity":
        return f"no {profile.title} provisioner offers it: choose one of the allowed"
    return f"no {profile.title} provisioner reads it: remove {what}"
