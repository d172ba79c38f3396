"""Lifecycle of an AKS GPU agent pool: replacement facts, creation-only inputs, scale-from-zero tags. Pure.

azure-native updates an agent pool with a PUT of the whole pool and replaces it only for path parameters and the
properties in its ``forceNewMap`` (``AGENT_POOL``). AKS refuses some changes the provider would try in place
(``AKS_IMMUTABLE``): gpuready lists them, with the provider's replacements, as ``replaceOnChanges`` and never
deletes first. AKS pool names are at most 12 characters and stay fixed, so a replacement's create fails on the
name while the old pool keeps serving; docs/day2.md "Day 2" says how to move to a new pool instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.lifecycle import FieldRule, ResourceTable, node_template, wire_name
from gpuready.core.specs import GpuPoolSpec

AN = "pulumi/pulumi-azure-native@{commit}:{path}#L{lines}"
REPLACEMENT_GO = "provider/pkg/gen/replacement.go"
DIFF_GO = "provider/pkg/provider/diff.go"
REPLACEMENT_COMMIT = "1b7112af33c62b247daed1028686bf279f4d5e69"
DIFF_COMMIT = "03707ff7fc10b70f7dd23ec847a3ce1e9264c124"


def _path_param() -> str:
    return AN.format(commit=DIFF_COMMIT, path=DIFF_GO, lines="23-31")


def _force_new() -> str:
    return AN.format(commit=REPLACEMENT_COMMIT, path=REPLACEMENT_GO, lines="61-67")


UPDATED_FIELDS = (
    "mode", "osType", "osSKU", "type", "count", "enableAutoScaling", "minCount", "maxCount", "nodeLabels",
    "nodeTaints", "gpuProfile", "scaleSetPriority", "scaleSetEvictionPolicy", "spotMaxPrice", "vnetSubnetID",
    "osDiskSizeGB", "availabilityZones", "upgradeSettings", "orchestratorVersion", "tags",
    "capacityReservationGroupID", "proximityPlacementGroupID",
)  # fmt: skip
_UPDATED = "not in forceNewMap['ContainerService']['AgentPool'] and not a path parameter: updated by a PUT of the pool"
AGENT_POOL = ResourceTable(
    type="azure-native:containerservice:AgentPool",
    name_field="agentPoolName",
    rules=(
        FieldRule("agentPoolName", "replace", _path_param(), "URL path parameter: replaceKeys"),
        FieldRule("resourceName", "replace", _path_param(), "URL path parameter: replaceKeys"),
        FieldRule("resourceGroupName", "replace", _path_param(), "URL path parameter: replaceKeys"),
        FieldRule("vmSize", "replace", _force_new(), "forceNewMap AgentPool: vmSize"),
        FieldRule("gpuInstanceProfile", "replace", _force_new(), "forceNewMap AgentPool: gpuInstanceProfile"),
        *(FieldRule(name, "update", _force_new(), _UPDATED) for name in UPDATED_FIELDS),
    ),
)
"""What azure-native does on change: replace for path parameters and its ``forceNewMap`` (pulumi-azure-native
PR #3655, which fixed #2462 for vmSize and gpuInstanceProfile), a PUT of the whole pool for the rest."""
TF_AZURERM_NODE_POOL = (
    "hashicorp/terraform-provider-azurerm:website/docs/r/kubernetes_cluster_node_pool.html.markdown (azurerm, which "
    "calls the same AKS API, replaces the pool where AKS refuses the change)"
)
AKS_IMMUTABLE = (
    FieldRule(
        "gpuProfile",
        "replace",
        "MicrosoftDocs/azure-aks-docs:articles/aks/use-nvidia-gpu.md (Upgrading a node pool)",
        "gpu_profile.driver cannot be changed on update or upgrade",
    ),
    FieldRule(
        "osDiskSizeGB",
        "replace",
        TF_AZURERM_NODE_POOL,
        "os_disk_size_gb: Changing this forces a new resource to be created",
    ),
    FieldRule(
        "availabilityZones",
        "replace",
        "MicrosoftDocs/azure-aks-docs:articles/aks/availability-zones.md (Limitations and considerations)",
        "You can't change the number of availability zones after you create a node pool",
    ),
    FieldRule(
        "capacityReservationGroupID",
        "replace",
        TF_AZURERM_NODE_POOL,
        "capacity_reservation_group_id: Changing this forces a new resource to be created",
    ),
    FieldRule(
        "proximityPlacementGroupID",
        "replace",
        TF_AZURERM_NODE_POOL,
        "proximity_placement_group_id: Changing this forces a new resource to be created",
    ),
)
"""Inputs azure-native would update that AKS refuses to change: gpuready asks for a replacement instead."""
TABLES = (AGENT_POOL,)


NODE_TEMPLATE = "k8s.io_cluster-autoscaler_node-template"
"""VMSS tag prefix the cluster autoscaler's Azure provider reads for a scale set at zero nodes, with ``_`` for
``/`` and ``~2`` for ``_`` (Azure tag names hold no ``/``): kubernetes/autoscaler@55c37cd
``cluster-autoscaler/cloudprovider/azure/README.md`` L28-57 and ``azure_util.go`` L87-90. AgentPool ``tags``
are "persisted on the agent pool virtual machine scale set" (azure-native 3.29.0 ``agent_pool.py`` L123)."""


def autoscaler_tags(spec: GpuPoolSpec) -> dict[str, str]:
    """Node-template tags for the pool's scale set: every label, taint and extended resource of its nodes."""
    return dict(sorted((f"{NODE_TEMPLATE}_{kind}_{_tag_key(key)}", value) for kind, key, value in node_template(spec)))


def _tag_key(key: str) -> str:
    return key.replace("_", "~2").replace("/", "_")


def tag_key_name(kind: str, encoded: str) -> str:
    """The key a node-template tag of ``kind`` names, as the autoscaler decodes it: ``_`` -> ``/``, then ``~2`` ->
    ``_`` for labels and taints but ``/`` for resources (kubernetes/autoscaler@55c37cd
    ``cloudprovider/azure/azure_template.go`` L449-450, L472-473, L600-601)."""
    name = encoded.replace("_", "/")
    return name.replace("~2", "/" if kind == "resources" else "_")


IRREGULAR_NAMES = {"os_sku": "osSKU", "vnet_subnet_id": "vnetSubnetID", "os_disk_size_gb": "osDiskSizeGB"}
"""azure-native 3.29.0 arguments whose wire names are not plain camelCase (``agent_pool.py`` property getters)."""


CREATION_ONLY = ("count",)
"""Read at creation only when the cluster autoscaler owns the pool's size: afterwards the autoscaler owns it."""


def creation_only(spec: GpuPoolSpec) -> tuple[str, ...]:
    """``count`` is read at creation only when the cluster autoscaler owns the pool's size."""
    return CREATION_ONLY if spec.max_size > spec.min_size else ()


def replace_on_changes(args: Mapping[str, Any]) -> list[str]:
    """The inputs gpuready sets that AKS cannot change in place (camelCase), for ``replaceOnChanges``: the
    provider's own replacements (explicit in the plan) and the AKS-immutable ones it would try to update."""
    wire = {wire_name(k, IRREGULAR_NAMES) for k in args}
    rules = (*AGENT_POOL.rules, *AKS_IMMUTABLE)
    return sorted({r.field for r in rules if r.action == "replace" and r.field in wire})


def summary(spec: GpuPoolSpec) -> str:
    """The pool's lifecycle in one line, for the plan table."""
    count = "count at creation only (autoscaled)" if creation_only(spec) else "count fixed (minSize = maxSize)"
    policy = spec.upgrade
    upgrade = f"upgrade maxSurge {policy.surge}, maxUnavailable {policy.unavailable}"
    zero = f"scale from zero: {len(autoscaler_tags(spec))} scale-set node-template tags"
    line = f"{count}; fixed name: a replacement fails at create, add a new pool instead; {upgrade}; {zero}"
    if spec.fabric is None:
        return line
    # The fabric adds no AgentPool input: its VMs share one InfiniBand fabric as one scale set. Dropping it for the
    # cloud's driver changes gpuProfile, which replaces the pool (the gpuProfile row above).
    return (
        f"{line}; {spec.fabric.kind}: the Network Operator's NicClusterPolicy selects the pool by name (no pool input)"
    )
