"""The rules of a pool's ``fabric``: a known kind, on instance types that have it, and the cloud's own rules. Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuready.core.capacity import gpu_choice
from gpuready.core.fabric.model import FABRIC_KINDS, FabricSpec
from gpuready.core.suggest import did_you_mean
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.clouds.catalog_facts import CloudCatalog
    from gpuready.core.specs import GpuPoolSpec

SHOWN_TYPES = 12
"""How many of the types that have a fabric a refusal lists (the rest counted)."""


def problems(spec: GpuPoolSpec) -> list[Problem]:
    """Every problem of the pool's ``fabric`` (none when it asks for none)."""
    fabric = spec.fabric
    if fabric is None:
        return []
    if not isinstance(fabric, FabricSpec):
        return [Problem("fabric", "must be a fabric kind or a mapping with a kind", fabric, FABRIC_KINDS)]
    profile: CloudCatalog = spec.profile
    having = sorted(name for name, found in profile.fabric.types.items() if found.kind == fabric.kind)
    if fabric.kind not in FABRIC_KINDS or not having:
        offered = sorted({found.kind for found in profile.fabric.types.values()})
        hint = did_you_mean(str(fabric.kind), offered) or (
            f"{profile.title} pools take {', '.join(offered)}" if offered else f"{profile.title} has no fabric yet"
        )
        return [Problem("fabric.kind", f"not a node fabric of {profile.title}", fabric.kind, tuple(offered), hint)]
    lacking = [name for name in gpu_choice.instance_types(spec) if name not in having]
    if lacking:
        table = profile.instance_types
        model = table[lacking[0]].gpu if lacking[0] in table else None
        having.sort(key=lambda name: (table[name].gpu != model, name))  # the same GPU first
        shown = ", ".join(having[:SHOWN_TYPES]) + (
            f" and {len(having) - SHOWN_TYPES} more" if len(having) > SHOWN_TYPES else ""
        )
        return [
            Problem(
                "fabric",
                f"{', '.join(lacking)} {'has' if len(lacking) == 1 else 'have'} no {fabric.kind}; the {profile.title} "
                f"types with it are {shown}",
                fabric.kind,
                (),
                "pick one of those instance types, or remove fabric",
            )
        ]
    placement = fabric.placement_group
    if placement is not None and (not isinstance(placement, str) or not placement.strip()):
        return [Problem("fabric.placementGroup", "must be create or the name of a placement group", placement)]
    return profile.fabric.problems(spec, fabric)
