"""Whether a GPU stack fits a stack's pools: every contradiction, as problems, before anything registers. Pure.

Rules: each pool's platform must fit the stack (``ownership.fit``); sharing and MIG must have someone to apply
them (time-slicing/MPS by NVIDIA's device plugin, MIG layouts by the GPU Operator's MIG manager); MPS under
the plugin chart needs GPU Feature Discovery (it writes ``nvidia.com/mps.capable``, which the MPS daemon
selects on: NVIDIA/k8s-device-plugin#634); one GPU Operator installs the driver on all its nodes or on none
(``driver.enabled`` and the RuntimeClass are cluster-wide); every MIG pool NVIDIA's plugin serves shares one
``mig.strategy``, because the operator passes it to the plugin as an environment variable that overrides any
per-node config (nvidia.md section 8, item 13).
"""

from __future__ import annotations

from collections.abc import Sequence

from components.core import sharing_plan
from components.core.gpu_stack import ownership
from components.core.gpu_stack.stack_spec import GpuStackSpec
from components.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from components.errors import Problem

_KIND = "gpuStack.kind"


def stack_problems(pools: Sequence[GpuPoolSpec], spec: GpuStackSpec) -> list[Problem]:
    """Every way ``spec`` contradicts ``pools`` (empty when it fits)."""
    problems: list[Problem] = []
    fitting: list[GpuPoolSpec] = []
    for pool in pools:
        verdict = ownership.fit(pool.cloud, pool.image_family, pool.driver, spec.kind)
        if verdict.ok:
            fitting.append(pool)
            continue
        problems.append(
            Problem(_KIND, f"pool {pool.name!r} ({_platform(pool)}): {verdict.summary}", spec.kind, (), verdict.hint)
        )
    problems.extend(_sharing_problems(fitting, spec))
    if spec.kind == "gpu-operator":
        problems.extend(_driver_split_problems(fitting))
    problems.extend(_strategy_problems(fitting, spec))
    return problems


def nvidia_mig_pools(pools: Sequence[GpuPoolSpec]) -> list[GpuPoolSpec]:
    """MIG pools whose partitions NVIDIA's device plugin advertises (MIG-manager layouts and AKS-made ones)."""
    return [
        p
        for p in pools
        if isinstance(p.sharing, MigPartitioning)
        and ownership.advertiser(p.cloud, p.image_family, p.driver) == "nvidia"
    ]


def mig_strategy(pools: Sequence[GpuPoolSpec]) -> str | None:
    """The MIG strategy NVIDIA's plugin needs for ``pools`` (checked to be one), None when no pool uses MIG."""
    strategies = sorted({p.sharing.strategy for p in nvidia_mig_pools(pools) if isinstance(p.sharing, MigPartitioning)})
    return strategies[0] if strategies else None


def _sharing_problems(pools: Sequence[GpuPoolSpec], spec: GpuStackSpec) -> list[Problem]:
    problems: list[Problem] = []
    for pool in pools:
        sharing = pool.sharing
        if sharing is None:
            continue
        where = sharing_plan.delivery(pool.cloud, pool.driver, sharing.mode)
        if where == "mig-manager" and spec.kind == "device-plugin":
            problems.append(
                Problem(
                    _KIND,
                    f"pool {pool.name!r} asks for a MIG layout, which only the GPU Operator's MIG manager applies; the "
                    "device-plugin chart cannot partition GPUs",
                    spec.kind,
                    (),
                    "use gpuStack.kind gpu-operator, or partition the GPUs yourself and use external",
                )
            )
        if isinstance(sharing, GpuSharing) and sharing.mode == "mps" and spec.kind == "device-plugin" and not spec.gfd:
            problems.append(
                Problem(
                    "gpuStack.gfd",
                    f"pool {pool.name!r} shares by MPS, whose control daemon only runs on nodes GPU Feature Discovery "
                    "labels nvidia.com/mps.capable=true (NVIDIA/k8s-device-plugin#634)",
                    spec.gfd,
                    (),
                    "set gfd: true",
                )
            )
    return problems


def _driver_split_problems(pools: Sequence[GpuPoolSpec]) -> list[Problem]:
    by_owner: dict[bool, list[str]] = {}
    for pool in pools:
        if ownership.advertiser(pool.cloud, pool.image_family, pool.driver) != "nvidia":
            continue
        owner = ownership.fit(pool.cloud, pool.image_family, pool.driver, "gpu-operator").operator_driver
        by_owner.setdefault(owner, []).append(pool.name)
    if len(by_owner) < 2:
        return []
    return [
        Problem(
            "nodePools",
            "one GPU Operator installs the driver on all its nodes or on none (driver.enabled and its RuntimeClass "
            f"are cluster-wide); pools {by_owner[False]} have the cloud's driver, pools {by_owner[True]} need the "
            "operator's",
            None,
            (),
            "give every pool the same driver owner (driver: cloud or driver: operator)",
        )
    ]


def _strategy_problems(pools: Sequence[GpuPoolSpec], spec: GpuStackSpec) -> list[Problem]:
    if not spec.installs_chart:
        return []
    by_strategy: dict[str, list[str]] = {}
    for pool in nvidia_mig_pools(pools):
        assert isinstance(pool.sharing, MigPartitioning)
        by_strategy.setdefault(pool.sharing.strategy, []).append(pool.name)
    if len(by_strategy) < 2:
        return []
    return [
        Problem(
            "nodePools",
            "NVIDIA's device plugin takes one MIG strategy for the whole cluster (the chart passes it as an "
            f"environment variable that overrides per-node configs); pools {by_strategy['single']} use single, "
            f"pools {by_strategy['mixed']} use mixed",
            None,
            ("single", "mixed"),
            "give every MIG pool strategy: mixed (it also serves one-profile layouts, as nvidia.com/mig-<profile>)",
        )
    ]


def _platform(pool: GpuPoolSpec) -> str:
    return f"{pool.cloud} {pool.image_family}, driver: {pool.driver}"
