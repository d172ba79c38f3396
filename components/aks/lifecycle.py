"""Lifecycle of an AKS GPU agent pool: replacement facts and creation-only inputs. Pure.

azure-native updates an agent pool with a PUT of the whole pool; the AKS API refuses changes to properties it
cannot apply in place, so without help a change of VM size, OS SKU or GPU profile fails the update
(pulumi/pulumi-azure-native#2462). gpuready lists those inputs as ``replaceOnChanges`` so Pulumi plans a
replacement, and never deletes first: AKS pool names are at most 12 characters and stay fixed, so the
replacement's create fails on the name while the old pool keeps serving. README "Day 2" says how to move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from components.core.catalog import lookup
from components.core.lifecycle import FieldRule, PoolCapacity, ResourceTable
from components.core.specs import GpuPoolSpec
from components.errors import SpecError

SPEC = "Azure/azure-rest-api-specs@{commit}:{path}#L{line}"
COMMIT = "0000000000000000000000000000000000000000"
MANAGED_CLUSTERS = (
    "specification/containerservice/resource-manager/Microsoft.ContainerService/aks/stable/managedClusters.json"
)


def _spec(line: int) -> str:
    return SPEC.format(commit=COMMIT, path=MANAGED_CLUSTERS, line=line)


AGENT_POOL = ResourceTable(
    type="azure-native:containerservice:AgentPool",
    name_field="agentPoolName",
    rules=(
        FieldRule("agentPoolName", "replace", _spec(0), "the pool's name is part of its resource ID"),
        FieldRule("resourceName", "replace", _spec(0), "the cluster name is part of the resource ID"),
        FieldRule("resourceGroupName", "replace", _spec(0), "the resource group is part of the resource ID"),
        FieldRule("vmSize", "replace", _spec(0), "vmSize cannot change after creation"),
        FieldRule("osSKU", "replace", _spec(0), "osSKU cannot change after creation"),
        FieldRule("osType", "replace", _spec(0), "osType cannot change after creation"),
        FieldRule("type", "replace", _spec(0), "agent pool type cannot change"),
        FieldRule("gpuProfile", "replace", _spec(0), "gpuProfile.driver is immutable"),
        FieldRule("gpuInstanceProfile", "replace", _spec(0), "gpuInstanceProfile: create-only"),
        FieldRule("scaleSetPriority", "replace", _spec(0), "scaleSetPriority: create-only"),
        FieldRule("scaleSetEvictionPolicy", "replace", _spec(0), "scaleSetEvictionPolicy: create-only"),
        FieldRule("spotMaxPrice", "update", _spec(0), "spotMaxPrice: updatable"),
        FieldRule("vnetSubnetID", "replace", _spec(0), "vnetSubnetID: create-only"),
        FieldRule("osDiskSizeGB", "replace", _spec(0), "osDiskSizeGB: create-only"),
        FieldRule("availabilityZones", "replace", _spec(0), "availabilityZones: create-only"),
        FieldRule("mode", "update", _spec(0), "mode: System/User updatable"),
        FieldRule("count", "update", _spec(0), "count: scale"),
        FieldRule("enableAutoScaling", "update", _spec(0), "enableAutoScaling: updatable"),
        FieldRule("minCount", "update", _spec(0), "minCount: updatable"),
        FieldRule("maxCount", "update", _spec(0), "maxCount: updatable"),
        FieldRule("nodeLabels", "update", _spec(0), "nodeLabels: updatable"),
        FieldRule("nodeTaints", "update", _spec(0), "nodeTaints: updatable"),
        FieldRule("upgradeSettings", "update", _spec(0), "upgradeSettings: updatable"),
        FieldRule("orchestratorVersion", "update", _spec(0), "orchestratorVersion: upgrade"),
        FieldRule("tags", "update", _spec(0), "tags: updatable"),
    ),
)
TABLES = (AGENT_POOL,)


def creation_only(spec: GpuPoolSpec) -> tuple[str, ...]:
    """``count`` is read at creation only when the cluster autoscaler owns the pool's size."""
    return ("count",) if spec.max_size > spec.min_size else ()


def replace_on_changes(args: Mapping[str, Any]) -> list[str]:
    """The inputs gpuready sets that AKS cannot change in place (camelCase), for ``replaceOnChanges``."""
    wire = {_camel(k) for k in args}
    return sorted(r.field for r in AGENT_POOL.rules if r.action == "replace" and r.field in wire)


def capacity(inputs: Mapping[str, Any]) -> PoolCapacity | None:
    """GPU capacity of a planned agent pool: GPUs per VM size from the catalog, maxCount (or count) nodes."""
    size = inputs.get("vmSize")
    if not isinstance(size, str):
        return None
    try:
        gpu = lookup.resolve_instance_type("aks", size, None)
    except SpecError:
        return None
    nodes = inputs.get("maxCount") if inputs.get("enableAutoScaling") else inputs.get("count")
    return PoolCapacity(gpu.model.key, gpu.gpus, nodes if isinstance(nodes, int) else None)


def _camel(name: str) -> str:
    special = {"os_sku": "osSKU", "vnet_subnet_id": "vnetSubnetID", "os_disk_size_gb": "osDiskSizeGB"}
    if name in special:
        return special[name]
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def summary(spec: GpuPoolSpec) -> str:
    """The pool's lifecycle in one line, for the plan table."""
    count = "count at creation only (autoscaled)" if creation_only(spec) else "count fixed (minSize = maxSize)"
    policy = spec.upgrade
    upgrade = f"upgrade maxSurge {policy.surge}, maxUnavailable {policy.unavailable}"
    return f"{count}; fixed name: a replacement fails at create, add a new pool instead; {upgrade}"
