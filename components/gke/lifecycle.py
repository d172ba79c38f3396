"""Lifecycle of a GKE GPU node pool: replacement facts, creation-only inputs, GPU capacity. Pure.

Replacement facts: pulumi-gcp bridges hashicorp/terraform-provider-google; a field whose schema says
``ForceNew: true`` replaces the node pool (``google/services/container/resource_container_node_pool.go`` and
``node_config.go``, cited per row and checked against the vendored files by
``tests/fidelity/test_replacement_tables.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from components.core.catalog import lookup
from components.core.catalog.gpus import GPU_MODELS
from components.core.catalog.lookup import ExplicitGpu
from components.core.lifecycle import FieldRule, PoolCapacity, ResourceTable, pool_cloud_name
from components.core.specs import GpuPoolSpec
from components.errors import SpecError

TF_GOOGLE = "hashicorp/terraform-provider-google@{commit}:google/services/container/{file}#L{line}"
COMMIT = "0000000000000000000000000000000000000000"


def _tf(line: int, file: str = "resource_container_node_pool.go") -> str:
    return TF_GOOGLE.format(commit=COMMIT, file=file, line=line)


def _nc(line: int) -> str:
    return _tf(line, "node_config.go")


NODE_POOL = ResourceTable(
    type="gcp:container/nodePool:NodePool",
    name_field="name",
    rules=(
        FieldRule("cluster", "replace", _tf(0), "cluster: ForceNew"),
        FieldRule("location", "replace", _tf(0), "location: ForceNew"),
        FieldRule("name", "replace", _tf(0), "name: ForceNew"),
        FieldRule("namePrefix", "replace", _tf(0), "name_prefix: ForceNew"),
        FieldRule("initialNodeCount", "replace", _tf(0), "initial_node_count: ForceNew"),
        FieldRule("nodeCount", "update", _tf(0), "node_count: resize"),
        FieldRule("nodeLocations", "update", _tf(0), "node_locations: updatable"),
        FieldRule("autoscaling", "update", _tf(0), "autoscaling: updatable"),
        FieldRule("management", "update", _tf(0), "management: updatable"),
        FieldRule("upgradeSettings", "update", _tf(0), "upgrade_settings: updatable"),
        FieldRule("nodeConfig.machineType", "update", _nc(0), "machine_type: updatable"),
        FieldRule("nodeConfig.imageType", "update", _nc(0), "image_type: updatable"),
        FieldRule("nodeConfig.spot", "replace", _nc(0), "spot: ForceNew"),
        FieldRule("nodeConfig.guestAccelerators", "replace", _nc(0), "guest_accelerator: ForceNew"),
        FieldRule("nodeConfig.labels", "update", _nc(0), "labels: updatable"),
        FieldRule("nodeConfig.taints", "update", _nc(0), "taint: updatable"),
        FieldRule("nodeConfig.oauthScopes", "replace", _nc(0), "oauth_scopes: ForceNew"),
        FieldRule("nodeConfig.serviceAccount", "replace", _nc(0), "service_account: ForceNew"),
        FieldRule("nodeConfig.resourceLabels", "update", _nc(0), "resource_labels: updatable"),
        FieldRule("nodeConfig.diskSizeGb", "update", _nc(0), "disk_size_gb: updatable"),
    ),
)
TABLES = (NODE_POOL,)

CREATION_ONLY = ("initialNodeCount",)
"""``initialNodeCount`` forces recreation and a resize changes what GKE reports (pulumi_gcp 10.2.0
``container/node_pool.py`` docstring): read at creation only, so neither an edit nor a refresh replaces the pool."""


def cloud_name(spec: GpuPoolSpec, args: Mapping[str, Any]) -> str:
    """The node pool's name: the pool name, plus a suffix of the replacement-forcing inputs when it rotates."""
    return pool_cloud_name(spec, NODE_POOL, args, CREATION_ONLY)


def capacity(inputs: Mapping[str, Any]) -> PoolCapacity | None:
    """GPU capacity of a planned node pool: attached or built-in GPUs per machine, total maximum nodes."""
    config = inputs.get("nodeConfig") or {}
    machine = config.get("machineType") if isinstance(config, Mapping) else None
    if not isinstance(machine, str):
        return None
    accelerators = config.get("guestAccelerators") or []
    explicit = None
    if accelerators and isinstance(accelerators[0], Mapping):
        gpu_type, count = accelerators[0].get("type"), accelerators[0].get("count")
        model = next((m.key for m in GPU_MODELS.values() if m.gke_accelerator == gpu_type), None)
        if model is not None and isinstance(count, int):
            explicit = ExplicitGpu(model=model, count=count)
    try:
        gpu = lookup.resolve_instance_type("gke", machine, explicit)
    except SpecError:
        return None
    return PoolCapacity(gpu.model.key, gpu.gpus, _max_nodes(inputs))


def _max_nodes(inputs: Mapping[str, Any]) -> int | None:
    autoscaling = inputs.get("autoscaling") or {}
    total = autoscaling.get("totalMaxNodeCount") if isinstance(autoscaling, Mapping) else None
    if isinstance(total, int):
        return total
    per_zone = autoscaling.get("maxNodeCount") if isinstance(autoscaling, Mapping) else inputs.get("nodeCount")
    zones = len(inputs.get("nodeLocations") or []) or None
    return per_zone * zones if isinstance(per_zone, int) and zones else None


def summary(spec: GpuPoolSpec, zones: int) -> str:
    """The pool's lifecycle in one line, for the plan table."""
    per_zone = spec.initial_size // zones
    start = f"initialNodeCount {per_zone} per zone x {zones} zone{'s' if zones > 1 else ''}, at creation only"
    naming = "new name when replaced" if spec.rotates_name else "fixed name: a replacement fails at create"
    policy = spec.upgrade
    if policy.strategy == "blue-green":
        upgrade = f"upgrade BLUE_GREEN, batches of {policy.batch_node_count}, pool soak {policy.pool_soak_seconds}s"
    else:
        upgrade = f"upgrade SURGE, maxSurge {policy.surge}, maxUnavailable {policy.unavailable}"
    return f"{start}; {naming}; {upgrade}"
