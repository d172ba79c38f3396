"""The MIG pools NVIDIA's device plugin serves, and the one MIG strategy they share. Pure.

Every MIG pool NVIDIA's plugin serves shares one ``mig.strategy``: the stack passes it to the plugin as an
environment variable that overrides any per-node config (nvidia.md section 8, item 13; ``stack_rules`` refuses two).
"""

from __future__ import annotations

from collections.abc import Sequence

from gpuready.core.specs import GpuPoolSpec, MigPartitioning


def nvidia_mig_pools(pools: Sequence[GpuPoolSpec]) -> list[GpuPoolSpec]:
    """MIG pools whose partitions NVIDIA's device plugin advertises (MIG-manager layouts and AKS-made ones)."""
    return [p for p in pools if isinstance(p.sharing, MigPartitioning) and p.resolved.platform_plugin == "nvidia"]


def mig_strategy(pools: Sequence[GpuPoolSpec]) -> str | None:
    """The MIG strategy NVIDIA's plugin needs for ``pools`` (checked to be one), None when no pool uses MIG."""
    strategies = sorted({p.sharing.strategy for p in nvidia_mig_pools(pools) if isinstance(p.sharing, MigPartitioning)})
    return strategies[0] if strategies else None
