"""GpuPoolSpec -> ``gcp.container.NodePool`` arguments. Pure.

Enum strings from pulumi_gcp 10.2.0 (``container/outputs.py``: ``gpu_driver_version``
DEFAULT / LATEST / INSTALLATION_DISABLED, ``gpu_sharing_strategy`` TIME_SHARING / MPS, taint effects
NO_SCHEDULE ...). Sizes are totals across the pool's zones (``total_min_node_count`` /
``total_max_node_count``); ``initial_node_count`` is per zone, as GKE defines it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from components.core import scheduling, sharing_plan
from components.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning

IMAGE_TYPES: Mapping[str, str] = {"cos": "COS_CONTAINERD", "ubuntu": "UBUNTU_CONTAINERD"}
SHARING_STRATEGIES: Mapping[str, str] = {"time-slicing": "TIME_SHARING", "mps": "MPS"}
CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform"


def driver_version(spec: GpuPoolSpec) -> str:
    """``gpu_driver_version``: GKE's driver branch, or INSTALLATION_DISABLED when the operator owns it."""
    if spec.driver == "operator":
        return "INSTALLATION_DISABLED"
    return (spec.driver_version or "default").upper()


def guest_accelerator(spec: GpuPoolSpec) -> dict[str, Any]:
    """The pool's single ``guest_accelerators`` entry."""
    model = spec.resolved.model
    if model.gke_accelerator is None:
        raise ValueError(f"pool {spec.name!r}: {model.key} has no GKE accelerator type")
    accelerator: dict[str, Any] = {
        "type": model.gke_accelerator,
        "count": spec.resolved.gpus,
        "gpu_driver_installation_config": {"gpu_driver_version": driver_version(spec)},
    }
    sharing = spec.sharing
    if sharing_plan.delivery("gke", spec.driver, spec.sharing_mode) == "cloud":
        if isinstance(sharing, GpuSharing):
            accelerator["gpu_sharing_config"] = {
                "gpu_sharing_strategy": SHARING_STRATEGIES[sharing.mode],
                "max_shared_clients_per_gpu": sharing.replicas,
            }
        elif isinstance(sharing, MigPartitioning):
            accelerator["gpu_partition_size"] = sharing.profile
    return accelerator


def initial_per_zone(spec: GpuPoolSpec, zones: int | None) -> int:
    """Initial nodes per zone: the pool's initial size spread over the zones, never above ``maxSize`` in total."""
    if not zones:
        return spec.initial_size
    return min(-(-spec.initial_size // zones), spec.max_size // zones)


def node_pool_args(spec: GpuPoolSpec, zones: int | None = None) -> dict[str, Any]:
    """Keyword arguments of ``container.NodePool`` that follow from the spec (wiring excluded).

    ``zones`` is the number of node locations when the stack names them: GKE applies
    ``initial_node_count`` per zone, so the pool's initial size is spread over them (rounded up).
    """
    return {
        "name": spec.name,
        "initial_node_count": initial_per_zone(spec, zones),
        "autoscaling": {
            "total_min_node_count": spec.min_size,
            "total_max_node_count": spec.max_size,
            "location_policy": "ANY" if spec.capacity == "spot" else "BALANCED",
        },
        "management": {"auto_repair": True, "auto_upgrade": True},
        "node_config": {
            "machine_type": spec.resolved.instance_type,
            "image_type": IMAGE_TYPES[spec.image_family],
            "spot": spec.capacity == "spot",
            "guest_accelerators": [guest_accelerator(spec)],
            "labels": scheduling.pool_labels(spec),
            "taints": [scheduling.to_gke_taint(t) for t in scheduling.pool_taints(spec)],
            "oauth_scopes": [CLOUD_PLATFORM_SCOPE],
        },
    }


def driver_summary(spec: GpuPoolSpec) -> str:
    """Who owns the driver, as the plan table shows it."""
    owner = "GKE" if spec.driver == "cloud" else "GPU Operator"
    return f"{owner} (gpuDriverVersion={driver_version(spec)})"
