"""Validation of a workload's claim on a DRA pool: DeviceClass, count, MIG profile and device selectors. Pure.

A MIG profile is claimed through the ``mig.nvidia.com`` DeviceClass with a CEL selector on the device attribute
``profile`` (``device_selectors``), so it must be one the pool's GPU offers (the catalog's MIG table,
``catalog/mig_profiles.py``) and one its nodes are partitioned into (``sharing_plan.mig_layout``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gpuready.core import sharing_plan
from gpuready.core.advertisers.device_selectors import DeviceSelector, selector_problems
from gpuready.core.advertisers.interface import GpuRequest
from gpuready.core.pool_parts import MigPartitioning
from gpuready.errors import Problem, SpecError

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec


def claim_request(
    spec: GpuPoolSpec,
    devices: Mapping[str, int],
    name: str,
    gpus: object,
    *,
    mig_profile: object,
    selectors: Sequence[object],
    mig_class: str,
) -> GpuRequest:
    """``gpus`` devices of DeviceClass ``name`` (of ``mig_profile``, matching ``selectors``) on ``spec``; raises
    ``SpecError`` listing every problem."""
    problems: list[Problem] = []
    if name not in devices:
        problems.append(
            Problem("resource", f"pool {spec.name!r} hands out no devices of this DeviceClass", name, sorted(devices),
                    "claim the pool's DeviceClass")
        )  # fmt: skip
    per_node = devices.get(name)
    profile = _profile(spec, mig_profile, problems)
    if profile is not None and name == mig_class:
        per_node = spec.resolved.gpu.gpus * _layout(spec).get(profile, 0)
    problems.extend(selector_problems(selectors, mig=name == mig_class))
    valid_count = isinstance(gpus, int) and not isinstance(gpus, bool) and gpus >= 1
    if not valid_count:
        problems.append(Problem("gpus", "must be a whole number of devices, at least 1", gpus, (), "e.g. gpus: 1"))
    elif per_node and isinstance(gpus, int) and gpus > per_node:
        what = f"{profile} MIG devices" if profile is not None else f"{name} devices"
        problems.append(
            Problem("gpus", f"no node of pool {spec.name!r} has that many: each publishes {per_node} {what}", gpus, (),
                    f"claim at most {per_node}, or split the work across pods")
        )  # fmt: skip
    if problems or not isinstance(gpus, int):
        raise SpecError(problems)
    chosen = tuple(s for s in selectors if isinstance(s, DeviceSelector))
    return GpuRequest(resource=name, count=gpus, mig_profile=profile, selectors=chosen)


def _layout(spec: GpuPoolSpec) -> dict[str, int]:
    table = spec.resolved.gpu.model.mig
    if table is None or not isinstance(spec.sharing, MigPartitioning):
        return {}
    return sharing_plan.mig_layout(table, spec.sharing)


def _profile(spec: GpuPoolSpec, mig_profile: object, problems: list[Problem]) -> str | None:
    """The MIG profile asked for, when the pool's GPU offers it and its nodes are partitioned into it."""
    if mig_profile is None:
        return None
    model = spec.resolved.gpu.model
    table = model.mig
    if table is None or not isinstance(mig_profile, str) or mig_profile not in table.profiles:
        offered = sorted(table.profiles) if table is not None else []
        hint = "pick one of the GPU's MIG profiles" if table is not None else f"the {model.key} has no MIG"
        problems.append(
            Problem("migProfile", f"the pool's GPU ({model.key}) has no such MIG profile", mig_profile, offered, hint)
        )
        return None
    layout = _layout(spec)
    if mig_profile not in layout:
        hint = (
            f"claim one of the profiles the pool is partitioned into, or partition it with sharing: "
            f"{{mode: mig, profile: {mig_profile}}}"
        )
        problems.append(
            Problem("migProfile", f"the nodes of pool {spec.name!r} are not partitioned into this profile",
                    mig_profile, sorted(layout), hint)
        )  # fmt: skip
        return None
    return mig_profile
