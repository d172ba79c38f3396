"""GpuPoolSpec -> ``azure-native containerservice.AgentPool`` arguments. Pure.

Enum values are azure-native 3.29.0's (``containerservice/_enums.py``: ``GPUInstanceProfile``,
``GPUDriver``, ``OSSKU``, ``ScaleSetPriority``, ``AgentPoolMode``); ``tests/aks/test_plan_fidelity.py``
checks them against the installed SDK. ``gpu_profile.driver`` and ``gpu_instance_profile`` are immutable
after creation (azure-aks-docs use-nvidia-gpu.md, gpu-multi-instance.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.aks import mig as aks_mig
from gpuready.aks.images import IMAGES
from gpuready.core import pool_hatches, scheduling
from gpuready.core.specs import GpuPoolSpec, MigPartitioning

OS_SKUS: Mapping[str, str] = {image: facts.api_names["x86_64"] for image, facts in IMAGES.items()}
"""Image family -> AKS OS SKU (the image table's ``api_names``, the same on every architecture)."""
GPU_DRIVER: Mapping[str, str] = {"cloud": "Install", "operator": "None"}
_SIZES = "minSize/maxSize/desiredSize"
OWNED_INPUTS: Mapping[str, str] = {
    "agentPoolName": "name",
    "resourceGroupName": "gpuready:aksResourceGroup",
    "resourceName": "gpuready:clusterName",
    "vmSize": "instanceType",
    "mode": "gpuready (GPU pools are User pools)",
    "osType": "image",
    "osSKU": "image",
    "type": "gpuready (VirtualMachineScaleSets)",
    "count": _SIZES,
    "enableAutoScaling": _SIZES,
    "minCount": _SIZES,
    "maxCount": _SIZES,
    "nodeLabels": "labels",
    "nodeTaints": "taints",
    "gpuProfile": "driver",
    "gpuInstanceProfile": "sharing",
    "upgradeSettings": "upgrade",
    "scaleSetPriority": "capacity",
    "scaleSetEvictionPolicy": "capacity",
    "spotMaxPrice": "capacity",
    "osDiskSizeGB": "diskSizeGb",
    "availabilityZones": "zones",
    "tags": "gpuready:tags",
}
"""``containerservice.AgentPool`` inputs gpuready decides, and the pool key or stack setting that decides each:
refused as ``overrides`` (``tests/aks/test_overrides.py`` checks every input ``agent_pool_args`` sets is here).
Free: ``vnetSubnetID`` (a pool's own subnet), ``osDiskType``, ``kubeletConfig``, ``linuxOSConfig``, ``maxPods``,
``orchestratorVersion``..."""


def gpu_instance_profile(spec: GpuPoolSpec) -> str | None:
    """``MIG<N>g`` when AKS partitions the GPUs itself, else None."""
    sharing = spec.sharing
    table = spec.resolved.gpu.model.mig
    if not isinstance(sharing, MigPartitioning) or table is None or sharing.profile is None:
        return None
    if spec.resolved.delivery != "cloud":
        return None
    return aks_mig.gpu_instance_profile(table, sharing.profile)


def agent_pool_args(spec: GpuPoolSpec) -> dict[str, Any]:
    """Keyword arguments of ``containerservice.AgentPool`` that follow from the spec (wiring excluded), overrides
    merged."""
    autoscale = spec.max_size > spec.min_size
    args: dict[str, Any] = {
        "agent_pool_name": spec.name,
        "vm_size": spec.resolved.gpu.instance_type,
        "mode": "User",
        "os_type": "Linux",
        "os_sku": OS_SKUS[spec.image_family],
        "type": "VirtualMachineScaleSets",
        "count": spec.initial_size,
        "enable_auto_scaling": autoscale,
        "node_labels": scheduling.pool_labels(spec),
        "node_taints": [str(t) for t in scheduling.pool_taints(spec)],  # key=value:Effect
        "gpu_profile": {"driver": GPU_DRIVER[spec.driver]},
    }
    if autoscale:
        args["min_count"] = spec.min_size
        args["max_count"] = spec.max_size
    profile = gpu_instance_profile(spec)
    if profile is not None:
        args["gpu_instance_profile"] = profile
    args["upgrade_settings"] = upgrade_settings(spec)
    if spec.capacity == "spot":
        # Pay at most the on-demand price (-1) and delete evicted nodes so the pool can scale back up.
        args.update(scale_set_priority="Spot", scale_set_eviction_policy="Delete", spot_max_price=-1)
    if spec.disk_size_gb is not None:
        args["os_disk_size_gb"] = spec.disk_size_gb
    if spec.zones:
        args["availability_zones"] = list(spec.zones)
    return pool_hatches.with_overrides(spec, args)


def upgrade_settings(spec: GpuPoolSpec) -> dict[str, str]:
    """``upgradeSettings``: by default no surge node (AKS's default is 10% extra VMs, spare GPUs few pools have)
    and one node down at a time (``AgentPoolUpgradeSettingsArgs``: counts as strings)."""
    policy = spec.upgrade
    return {"max_surge": str(policy.surge), "max_unavailable": str(policy.unavailable)}


def driver_summary(spec: GpuPoolSpec) -> str:
    """Who owns the driver, as the plan table shows it."""
    owner = "AKS" if spec.driver == "cloud" else "GPU Operator"
    return f"{owner} (gpuProfile.driver={GPU_DRIVER[spec.driver]})"
