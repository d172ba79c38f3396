"""GpuPoolSpec -> ``gcp.container.NodePool`` arguments. Pure.

Enum strings from pulumi_gcp 10.2.0 (``container/outputs.py``: ``gpu_driver_version``
DEFAULT / LATEST / INSTALLATION_DISABLED, ``gpu_sharing_strategy`` TIME_SHARING / MPS, taint effects
NO_SCHEDULE ...). Sizes are totals across the pool's zones (``total_min_node_count`` /
``total_max_node_count``); ``initial_node_count`` is per zone, as GKE defines it, and read at creation only
(``gke.lifecycle.CREATION_ONLY``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core import pool_hatches, scheduling
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import UPPER_SNAKE_EFFECTS, Taint
from gpuready.gke import capacity_rules, catalog, fabric
from gpuready.gke import zones as gke_zones
from gpuready.gke.images import IMAGES

LABEL_NO_DEVICE_PLUGIN = "gke-no-default-nvidia-gpu-device-plugin"
"""The node label that turns GKE's own device plugin off (``true``), set on pools whose driver the GPU Operator owns
(cloud.google.com kubernetes-engine/docs/how-to/gpu-operator; shared reference clouds.md 1.4)."""
MAX_SHARED_CLIENTS = 48
"""GKE's maximum for ``max_shared_clients_per_gpu`` (GKE time-sharing GPUs docs)."""

IMAGE_TYPES: Mapping[str, str] = {image: facts.api_names["x86_64"] for image, facts in IMAGES.items()}
"""Image family -> GKE image type (the image table's ``api_names``, the same on every architecture)."""
SHARING_STRATEGIES: Mapping[str, str] = {"time-slicing": "TIME_SHARING", "mps": "MPS"}
CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform"
DRIVER_INSTALLATION_DISABLED = "INSTALLATION_DISABLED"
"""``gpu_driver_version`` that leaves the driver to another owner (pulumi_gcp 10.2.0 docs)."""

_SIZES = "minSize/maxSize/desiredSize"
OWNED_INPUTS: Mapping[str, str] = {
    "name": "name",
    "namePrefix": "name",
    "cluster": "gpuready:clusterName",
    "location": "gpuready:gkeLocation",
    "initialNodeCount": _SIZES,
    "nodeCount": _SIZES,
    "autoscaling.totalMinNodeCount": _SIZES,
    "autoscaling.totalMaxNodeCount": _SIZES,
    "autoscaling.minNodeCount": _SIZES,
    "autoscaling.maxNodeCount": _SIZES,
    "autoscaling.locationPolicy": "locationPolicy",
    "queuedProvisioning": "capacity",
    "nodeConfig.flexStart": "capacity",
    "nodeConfig.maxRunDuration": "maxRunDuration",
    "nodeConfig.reservationAffinity": "reservation",
    "upgradeSettings": "upgrade",
    "nodeLocations": "zones",
    "nodeConfig.machineType": "instanceType",
    "nodeConfig.imageType": "image",
    "nodeConfig.spot": "capacity",
    "nodeConfig.preemptible": "capacity",
    "nodeConfig.guestAccelerators": "instanceType/gpu/driver/driverVersion/sharing",
    "nodeConfig.labels": "labels",
    "nodeConfig.taints": "taints",
    "nodeConfig.effectiveTaints": "taints",
    "nodeConfig.diskSizeGb": "diskSizeGb",
    "nodeConfig.bootDisk.sizeGb": "diskSizeGb",
    "nodeConfig.serviceAccount": "gpuready:gkeServiceAccount",
    "nodeConfig.resourceLabels": "gpuready:tags",
    "management.autoRepair": "repair",
}
"""``container.NodePool`` inputs gpuready decides, and the pool key or stack setting that decides each: refused as
``overrides`` (``tests/gke/test_overrides.py`` checks every input ``node_pool_args`` sets is here or a default).
The rest of ``nodeConfig`` is free (``gvnic``, ``localNvmeSsdBlockConfig``, ``ephemeralStorageLocalSsdConfig``...), as
are ``placementPolicy`` (checked against the pool's capacity: ``gke.capacity_rules``) and ``networkConfig``."""
DEFAULT_INPUTS = ("management", "nodeConfig.oauthScopes")
"""Inputs gpuready sets as defaults an override may change (auto repair and upgrade on; the cloud-platform scope,
access then decided by the nodes' service account's IAM roles)."""


def driver_version(spec: GpuPoolSpec) -> str:
    """``gpu_driver_version``: GKE's driver branch, or INSTALLATION_DISABLED when the operator owns it."""
    if spec.driver == "operator":
        return DRIVER_INSTALLATION_DISABLED
    return (spec.driver_version or "default").upper()


def guest_accelerator(spec: GpuPoolSpec) -> dict[str, Any]:
    """The pool's single ``guest_accelerators`` entry."""
    model = spec.resolved.gpu.model
    accelerator_type = catalog.ACCELERATORS.get(model.key)
    if accelerator_type is None:
        raise ValueError(f"pool {spec.name!r}: {model.key} has no GKE accelerator type")
    accelerator: dict[str, Any] = {
        "type": accelerator_type,
        "count": spec.resolved.gpu.gpus,
        "gpu_driver_installation_config": {"gpu_driver_version": driver_version(spec)},
    }
    sharing = spec.sharing
    if spec.resolved.delivery == "cloud":
        if isinstance(sharing, GpuSharing):
            accelerator["gpu_sharing_config"] = {
                "gpu_sharing_strategy": SHARING_STRATEGIES[sharing.mode],
                "max_shared_clients_per_gpu": sharing.replicas,
            }
        elif isinstance(sharing, MigPartitioning):
            accelerator["gpu_partition_size"] = sharing.profile
    return accelerator


def upgrade_settings(spec: GpuPoolSpec) -> dict[str, Any]:
    """``upgradeSettings``: by default SURGE with no surge node and one node down at a time (a surge node needs
    spare GPU quota); BLUE_GREEN only when asked, with its batch and soak settings (durations as ``"<n>s"``)."""
    policy = spec.upgrade
    if policy.strategy == "blue-green":
        return {
            "strategy": "BLUE_GREEN",
            "blue_green_settings": {
                "standard_rollout_policy": {
                    "batch_node_count": policy.batch_node_count,
                    "batch_soak_duration": f"{policy.batch_soak_seconds}s",
                },
                "node_pool_soak_duration": f"{policy.pool_soak_seconds}s",
            },
        }
    return {"strategy": "SURGE", "max_surge": policy.surge, "max_unavailable": policy.unavailable}


def node_pool_args(spec: GpuPoolSpec, zones: int) -> dict[str, Any]:
    """Keyword arguments of ``container.NodePool`` that follow from the spec (wiring excluded), overrides merged.

    ``zones`` is the number of zones the pool spans (``gke_zones.zone_count``): GKE applies
    ``initial_node_count`` per zone, so ``desiredSize`` is split evenly over them (``gke_zones.initial_per_zone``).
    """
    args: dict[str, Any] = {
        "name": spec.name,
        "initial_node_count": gke_zones.initial_per_zone(spec, zones),
        "autoscaling": {
            "total_min_node_count": spec.min_size,
            "total_max_node_count": spec.max_size,
            "location_policy": capacity_rules.location_policy(spec),
        },
        "management": {"auto_repair": spec.repair.enabled, "auto_upgrade": True},
        "upgrade_settings": upgrade_settings(spec),
        "node_config": {
            "machine_type": spec.resolved.gpu.instance_type,
            "image_type": IMAGE_TYPES[spec.image_family],
            "spot": capacity_rules.facts(spec).spot,
            "guest_accelerators": [guest_accelerator(spec)],
            "labels": scheduling.pool_labels(spec),
            "taints": [to_gke_taint(t) for t in scheduling.pool_taints(spec)],
            "oauth_scopes": [CLOUD_PLATFORM_SCOPE],
        },
    }
    _capacity_args(spec, args)
    if spec.disk_size_gb is not None:
        args["node_config"]["disk_size_gb"] = spec.disk_size_gb
    if spec.zones:
        args["node_locations"] = list(spec.zones)
    if spec.fabric is not None:
        fabric_inputs = fabric.node_pool_inputs(spec)
        args["node_config"]["gvnic"] = fabric_inputs.pop("gvnic")
        args.update(fabric_inputs)
    return pool_hatches.with_overrides(spec, args)


def _capacity_args(spec: GpuPoolSpec, args: dict[str, Any]) -> None:
    """Flex-start, queued provisioning, the run limit and the reservation affinity (``gke.capacity_rules``)."""
    gke = capacity_rules.facts(spec)
    node_config = args["node_config"]
    if gke.flex_start:
        node_config["flex_start"] = True
    if gke.queued:
        args["queued_provisioning"] = {"enabled": True}
    if spec.max_run_duration is not None:
        node_config["max_run_duration"] = f"{spec.max_run_duration}s"
    affinity = capacity_rules.reservation_affinity(spec)
    if affinity is not None:
        node_config["reservation_affinity"] = affinity


def driver_summary(spec: GpuPoolSpec) -> str:
    """Who owns the driver, as the plan table shows it."""
    owner = "GKE" if spec.driver == "cloud" else "GPU Operator"
    return f"{owner} (gpuDriverVersion={driver_version(spec)})"


def to_gke_taint(taint: Taint) -> dict[str, str]:
    """``gcp.container.NodePool`` taint: key, value and effect are all required."""
    return {"key": taint.key, "value": taint.value, "effect": UPPER_SNAKE_EFFECTS[taint.effect]}
