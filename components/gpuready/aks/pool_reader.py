"""The readers of the resources the AKS agent pool provisioner writes: any program's ``AgentPool``, and the agent
pool profiles of a ``ManagedCluster``. Pure.

An agent pool is a GPU pool when its VM size is a GPU size (gpuready's catalog, else an NVIDIA NC/ND size) or it
sets a GPU profile or a MIG instance profile.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.aks import mig as aks_mig
from gpuready.aks.catalog import AKS_VM_SIZES, unlisted_gpu_type
from gpuready.aks.lifecycle import CREATION_ONLY
from gpuready.core.capacity.pool_facts import PoolFacts, PoolReader, ShapeKind, cloud_pool, text_taint, whole
from gpuready.core.capacity.pool_settings import HealthOff, MigSetting
from gpuready.core.catalog.gpus import GPU_MODELS, GpuModel
from gpuready.core.catalog.instance_types import InstanceType
from gpuready.core.props import as_flag, as_list, as_mapping, as_text, dig, text_map

MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
"""A cluster whose ``agentPoolProfiles`` declare agent pools (any program may declare its GPU pools there)."""
_FOLDED: Mapping[str, InstanceType] = {name.lower(): t for name, t in AKS_VM_SIZES.items()}


def read_agent_pool(props: Mapping[str, Any]) -> tuple[PoolFacts, ...]:
    """The GPU pool an ``AgentPool`` declares (none or one)."""
    pool = _agent_pool(props, "", as_text(props.get("agentPoolName")) or "")
    return (pool,) if pool is not None else ()


def read_managed_cluster(props: Mapping[str, Any]) -> tuple[PoolFacts, ...]:
    """The GPU pools of a ``ManagedCluster``: one per GPU agent pool profile."""
    pools = []
    for index, profile in enumerate(as_list(props.get("agentPoolProfiles"))):
        mapping = as_mapping(profile)
        if mapping is not None:
            pool = _agent_pool(mapping, f"agentPoolProfiles[{index}].", as_text(mapping.get("name")) or "")
            if pool is not None:
                pools.append(pool)
    return tuple(pools)


def _agent_pool(props: Mapping[str, Any], where: str, name: str) -> PoolFacts | None:
    size = as_text(props.get("vmSize")) or ""
    listed = _FOLDED.get(size.lower())
    gpu = (
        listed is not None
        or unlisted_gpu_type(size)
        or props.get("gpuProfile") is not None
        or props.get("gpuInstanceProfile") is not None
    )
    if not gpu:
        return None
    raw_taints = as_list(props.get("nodeTaints"))
    driver = as_text(dig(props, "gpuProfile", "driver")) or "Install"  # AKS's default
    autoscaled = as_flag(props.get("enableAutoScaling")) is True
    # An agent pool's own count is read at creation only when autoscaled (``lifecycle.creation_only``).
    creation_only = CREATION_ONLY if props.get("enableAutoScaling") is True and not where else ()
    return cloud_pool(
        "aks",
        "node-pool",
        props,
        where=where,
        name=name,
        instance_types=(size,) if size else (),
        model=GPU_MODELS[listed.gpu] if listed else None,
        arch=listed.arch if listed else None,
        taints=tuple(t for t in (text_taint(e) for e in raw_taints if isinstance(e, str)) if t),
        labels=text_map(props.get("nodeLabels")),
        fields=("nodeTaints", "nodeLabels"),
        min_size_fields=("minCount",),
        max_nodes=whole(props.get("maxCount") if autoscaled else props.get("count")),
        desired_nodes=whole(props.get("count")),
        gpus_per_node=listed.gpus if listed else None,
        mig=_mig(where, props, GPU_MODELS[listed.gpu] if listed else None, size),
        health_off=_health_off(where, props),
        driver_owner=f"AKS (gpuProfile.driver={driver!r})" if driver != "None" else "",
        creation_only=creation_only,
    )


def _health_off(where: str, props: Mapping[str, Any]) -> HealthOff | None:
    """The setting that turns off AKS's GPU health checks on the pool: a driver that is not AKS's."""
    # learn.microsoft.com/azure/aks/gpu-health-monitoring "Limitations": no GPU health checks with --gpu-driver none
    driver = as_text(dig(props, "gpuProfile", "driver"))
    if driver != "None":
        return None
    return HealthOff(
        field=f"{where}gpuProfile.driver",
        value=driver,
        checks=(
            "AKS's GPU health checks (Node Problem Detector sets no GPUMissing, XIDErrors, NVLink or InfiniBand "
            "condition on pools without the AKS-managed driver)"
        ),
    )


def _mig(where: str, props: Mapping[str, Any], model: GpuModel | None, size: str) -> tuple[MigSetting, ...]:
    """The ``gpuInstanceProfile`` an agent pool asks of its GPUs: AKS names a profile by its compute size only."""
    profile = as_text(props.get("gpuInstanceProfile"))
    if profile is None:
        return ()
    offered = None
    if model is not None and model.mig is not None:
        table = model.mig
        offered = tuple(sorted(n for p in aks_mig.mig_choices(table) if (n := aks_mig.gpu_instance_profile(table, p))))
    return (
        MigSetting(
            field=f"{where}gpuInstanceProfile",
            profile=profile,
            names=aks_mig.MIG_PROFILES,
            gpu=model.display if model is not None else "",
            offered=offered,
            cannot=f"{size or 'this VM size'} carries {model.display if model else ''} GPUs, which have no MIG",
            fix="Remove gpuInstanceProfile or use an A100/H100/H200 VM size",
        ),
    )


_AGENT_POOL_SHAPE: Mapping[str, ShapeKind] = {"nodeTaints": "list", "nodeLabels": "object", "gpuProfile": "object"}
AGENT_POOL_READER = PoolReader(read_agent_pool, _AGENT_POOL_SHAPE)
"""The agent pool's reader, with the shapes of the fields it reads."""
MANAGED_CLUSTER_READER = PoolReader(read_managed_cluster, {"agentPoolProfiles": "list"})
"""The reader of a ManagedCluster's agent pool profiles."""
