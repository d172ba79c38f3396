"""The escape hatches of a pool spec: ``diskSizeGb``, ``zones`` and ``overrides``, checked and applied. Pure.

Limits come from each cloud's profile (``CloudProfile.disk_size_gb``, ``zone_rule``, ``owned_inputs`` and its
``hatch_problems``); the overrides' inputs from the recorded SDK input tree (``gpuready.core.resource_inputs``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gpuready.core import resource_inputs
from gpuready.core.mappings import deep_merge
from gpuready.errors import Problem, kind_of

if TYPE_CHECKING:
    from gpuready.core.clouds.spec_rules import SpecRules
    from gpuready.core.specs import GpuPoolSpec


def problems(spec: GpuPoolSpec) -> list[Problem]:
    """Every problem of the pool's disk size, zones and overrides."""
    found = _disk_problems(spec) + _zone_problems(spec)
    if not isinstance(spec.overrides, Mapping):
        found.append(Problem("overrides", "must be a mapping of resource inputs", kind_of(spec.overrides)))
    elif spec.overrides:  # none given: nothing to check, and the resource's input tree stays unread
        found += resource_inputs.override_problems(spec.overrides, input_tree(spec), spec.profile.owned_inputs)
    return found + spec.profile.hatch_problems(spec)


def input_tree(spec: GpuPoolSpec) -> resource_inputs.InputTree:
    """The input tree of the pool's cloud resource."""
    return resource_inputs.load(spec.profile.inputs_package)


def with_overrides(spec: GpuPoolSpec, args: Mapping[str, Any]) -> dict[str, Any]:
    """The planned resource arguments ``args`` with the pool's overrides deep-merged over them."""
    if not spec.overrides:
        return dict(args)
    return deep_merge(args, resource_inputs.to_python(spec.overrides, input_tree(spec)))


def _disk_problems(spec: GpuPoolSpec) -> list[Problem]:
    size = spec.disk_size_gb
    if size is None:
        return []
    profile: SpecRules = spec.profile
    if not isinstance(size, int) or isinstance(size, bool):
        return [Problem("diskSizeGb", "must be a whole number of GB", size)]
    low, high, source = profile.disk_size_gb
    if low <= size and (high is None or size <= high):
        return []
    span = f"between {low} and {high}" if high is not None else f"at least {low}"
    return [Problem("diskSizeGb", f"must be {span} GB on {profile.title} ({source})", size)]


def _zone_problems(spec: GpuPoolSpec) -> list[Problem]:
    zones = spec.zones
    if not zones:
        return []
    if not isinstance(zones, tuple):
        return [Problem("zones", "must be a list of zones", kind_of(zones))]
    rule = spec.profile.zone_rule
    if rule is None:
        return []  # the cloud's hatch_problems says why it takes no zones
    pattern, words = rule
    found: list[Problem] = []
    seen: set[str] = set()
    for index, zone in enumerate(zones):
        if not isinstance(zone, str) or not pattern.match(zone):
            found.append(Problem(f"zones[{index}]", f"{spec.profile.title} zones are {words}", zone))
        elif zone in seen:
            found.append(Problem(f"zones[{index}]", "duplicate zone", zone, (), "list each zone once"))
        else:
            seen.add(zone)
    return found
