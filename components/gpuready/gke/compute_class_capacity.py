"""The capacity fields of a GKE ComputeClass's priorities (issue #28): reservations and flex-start. Pure.

Field names and enums are those of the ComputeClass schema in
``../shared/reference/upstream/crds-catalog/cloud.google.com/computeclass_v1.json`` (datreeio/CRDs-catalog
``7b1e26ef``): ``priorities[].reservations`` (``affinity``, ``specific[]``), ``priorities[].flexStart`` and
``priorities[].maxRunDurationSeconds``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

CLASS_AFFINITIES: Mapping[str, str] = {"any": "AnyBestEffort", "specific": "Specific", "none": "None"}
"""``reservation.affinity`` -> ``priorities[].reservations.affinity`` (the schema's enum Specific / AnyBestEffort /
None: "AnyBestEffort" falls back to on-demand, "Specific" does not)."""
CLASS_CAPACITIES: tuple[str, ...] = ("on-demand", "spot", "reserved", "flex-start")
"""What a class's priorities can ask for: ``spot``, ``reservations`` and ``flexStart`` (queued provisioning is a node
pool's ``queuedProvisioning`` only: no class field has it)."""


def capacity_rule(spec: GpuPoolSpec) -> dict[str, Any]:
    """The capacity fields of each priority: ``reservations`` for a reserved pool (or ``None`` affinity to keep an
    on-demand pool off reservations), ``flexStart`` and ``maxRunDurationSeconds`` for a flex-start pool. The schema's
    CEL rules (flex-start is not spot; specific reservations only with ``Specific``) hold by construction and are
    evaluated by ``tests/gke/test_compute_class_capacity.py``."""
    rule: dict[str, Any] = {}
    reservation = spec.reservation
    chosen = reservation.affinity if reservation is not None else None
    if reservation is not None and chosen is not None and chosen in CLASS_AFFINITIES:
        reservations: dict[str, Any] = {"affinity": CLASS_AFFINITIES[chosen]}
        if chosen == "specific" and reservation.name is not None:
            named: dict[str, Any] = {"name": reservation.name}
            if reservation.project is not None:
                named["project"] = reservation.project
            if reservation.zone is not None or spec.zones:
                named["zones"] = [reservation.zone] if reservation.zone is not None else list(spec.zones)
            reservations["specific"] = [named]
        rule["reservations"] = reservations
    if spec.capacity == "flex-start":
        rule["flexStart"] = {"enabled": True}
    if spec.max_run_duration is not None:
        rule["maxRunDurationSeconds"] = spec.max_run_duration
    return rule
