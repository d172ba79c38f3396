"""Validation rules for a pool's GPU sharing: time-slicing and MPS replicas, MIG profiles and layouts. Pure.

Part of ``pool_rules.validate``; problems use the stack config's camelCase field paths.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuready.core import sharing_plan
from gpuready.core.catalog import mig_profiles
from gpuready.core.catalog.gpus import GpuModel
from gpuready.core.pool_parts import MIG_STRATEGIES, GpuSharing, MigPartitioning
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.clouds.spec_rules import SpecRules
    from gpuready.core.specs import GpuPoolSpec

MAX_REPLICAS = 48
"""Most time-slicing / MPS replicas per GPU on any pool: the same bound the policy pack's ``maxReplicas`` defaults to
(``gpu_configs.DEFAULT_MAX_REPLICAS``), so a gpuready stack and a raw program are held to one limit; no cloud's own
sharing takes more (``SpecRules.max_shared_clients``, tested)."""


def check_sharing(spec: GpuPoolSpec, model: GpuModel, problems: list[Problem]) -> None:
    sharing = spec.sharing
    if sharing is None:
        return
    blocked = spec.profile.sharing_blocked(spec)
    if blocked is not None:
        problems.append(blocked)
        return
    where = spec.profile.delivery(spec.driver, sharing.mode)
    if isinstance(sharing, GpuSharing):
        _check_replicas(sharing, where, spec.profile, problems)
    else:
        _check_mig(spec, sharing, model, where, problems)


def _check_replicas(sharing: GpuSharing, where: str, cloud: SpecRules, problems: list[Problem]) -> None:
    if sharing.mode not in ("time-slicing", "mps"):
        problems.append(
            Problem("sharing.mode", "unknown sharing mode", sharing.mode, ("none", "time-slicing", "mps", "mig"))
        )
    if sharing.replicas < 2:
        problems.append(
            Problem(
                "sharing.replicas",
                "must be at least 2 (the device plugin refuses 1)",
                sharing.replicas,
                (),
                "use sharing: none for whole GPUs",
            )
        )
    if where != "cloud":
        if sharing.replicas > MAX_REPLICAS:
            problems.append(
                Problem(
                    "sharing.replicas",
                    f"must be at most {MAX_REPLICAS} (gpuready's bound, the policy pack's maxReplicas default)",
                    sharing.replicas,
                    (),
                    f"use {MAX_REPLICAS} or fewer clients per GPU; past that each gets a sliver of a GPU",
                )
            )
        return
    limit = cloud.max_shared_clients
    if limit is not None and sharing.replicas > limit:
        problems.append(Problem("sharing.replicas", f"{cloud.title} allows at most {limit}", sharing.replicas))
    if sharing.rename_by_default or sharing.fail_requests_greater_than_one is not None:
        problems.append(
            Problem(
                "sharing",
                "GKE's own device plugin has no renameByDefault or failRequestsGreaterThanOne",
                None,
                (),
                "remove them, or use driver: operator (NVIDIA's stack) on an ubuntu pool",
            )
        )


def _check_mig(spec: GpuPoolSpec, mig: MigPartitioning, model: GpuModel, where: str, problems: list[Problem]) -> None:
    table = model.mig
    if table is None:
        problems.append(
            Problem(
                "sharing.mode",
                f"{model.display} ({spec.instance_type}) does not support MIG",
                "mig",
                ("none", "time-slicing", "mps"),
                "use time-slicing or mps to share it, or a MIG-capable GPU (A100, H100, H200, B200, GH200)",
            )
        )
        return
    if mig.strategy not in MIG_STRATEGIES:
        problems.append(Problem("sharing.strategy", "unknown MIG strategy", mig.strategy, MIG_STRATEGIES))
    if (mig.profile is None) == (mig.layout is None):
        problems.append(Problem("sharing", "give exactly one of profile or layout", None, (), "profile: 1g.10gb"))
        return
    layout = _mig_layout_or_problem(table, mig, problems)
    if layout is None:
        return
    if mig.strategy == "single" and not sharing_plan.homogeneous(layout):
        problems.append(
            Problem(
                "sharing.strategy",
                "single needs one profile on every GPU; this layout mixes several",
                "single",
                ("mixed",),
                "use strategy: mixed (NVIDIA/gpu-operator#286)",
            )
        )
    if where == "cloud":
        _check_cloud_native_mig(spec, mig, model.key, table, problems)


def _mig_layout_or_problem(
    table: mig_profiles.MigTable, mig: MigPartitioning, problems: list[Problem]
) -> dict[str, int] | None:
    if mig.profile is not None:
        if mig.profile not in table.profiles:
            problems.append(
                Problem(
                    "sharing.profile",
                    f"not a MIG profile of {table.family}",
                    mig.profile,
                    sorted(table.profiles),
                )
            )
            return None
        return {mig.profile: table.profiles[mig.profile]}
    if isinstance(mig.layout, str):
        if mig.layout not in sharing_plan.named_layouts(table):
            problems.append(
                Problem(
                    "sharing.layout",
                    f"not a mig-parted layout for {table.family}",
                    mig.layout,
                    sharing_plan.named_layouts(table),
                )
            )
            return None
        return sharing_plan.mig_layout(table, mig)
    layout = dict(mig.layout or {})
    if not layout:
        problems.append(Problem("sharing.layout", "an empty layout partitions nothing", layout))
        return None
    reasons = mig_profiles.layout_problems(table, layout)
    problems.extend(Problem("sharing.layout", reason, None, (), "") for reason in reasons)
    return None if reasons else layout


def _check_cloud_native_mig(
    spec: GpuPoolSpec, mig: MigPartitioning, model_key: str, table: mig_profiles.MigTable, problems: list[Problem]
) -> None:
    if mig.profile is None:
        problems.append(
            Problem(
                "sharing.layout",
                f"{spec.profile.title} partitions every GPU with one profile",
                mig.layout,
                (),
                "use profile: <one profile>, or driver: operator to let the MIG manager apply a layout",
            )
        )
        return
    if mig_profiles.is_media_extension(mig.profile):
        problems.append(
            Problem(
                "sharing.profile",
                f"{spec.profile.title} does not offer media-extension profiles",
                mig.profile,
            )
        )
    problems.extend(spec.profile.mig_problems(spec, mig, model_key, table))
