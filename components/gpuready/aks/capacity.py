"""The AKS agent pool as a provisioner (``node-pool``, the AKS default). Pure: delegates to ``lifecycle``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gpuready.aks import capacity_rules, lifecycle, pool_reader
from gpuready.core import component_entry
from gpuready.core.capacity.capacity_offers import CapacityOffer
from gpuready.core.capacity.interface import Provisioner
from gpuready.core.capacity.pool_facts import PoolReader
from gpuready.core.health.repair import RepairFacts
from gpuready.core.lifecycle import ResourceTable
from gpuready.core.scale_path.cluster_autoscaler import NodeGroupDecider, TemplateTags
from gpuready.core.scale_path.model import ScaleDecider
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import Problem

AKS_REPAIR = RepairFacts(
    on="AKS node auto-repair, preconfigured on every cluster: a node that stays NotReady is rebooted, then reimaged, "
    "then redeployed; NPD's GPU conditions (GPUMissing, XIDErrors, ...) are reported on the node for gpuready check "
    "and verify, and not on pools with driver: operator (--gpu-driver none)",
    off=None,
    source="learn.microsoft.com/azure/aks/node-auto-repair; learn.microsoft.com/azure/aks/gpu-health-monitoring",
)
"""What AKS does about unhealthy nodes, whatever makes them."""


class AksAgentPool(Provisioner):
    """An agent pool of fixed bounds, scaled by the cluster autoscaler when its bounds differ."""

    key: ClassVar[str] = "node-pool"
    cloud: ClassVar[str] = "aks"
    component: ClassVar[component_entry.ComponentEntry] = component_entry.ComponentEntry(
        name="AksGpuNodePool",
        module="gpuready.aks.node_pool",
        builder="gpuready.aks.stack_adapter",
        description="A GPU agent pool on an existing AKS cluster (driver owner, MIG profile, GPU taint, gpuready's "
        "labels).",
        wiring=(
            component_entry.POOL,
            component_entry.Wire("resourceGroupName", component_entry.STRING, "Resource group of the cluster.", True),
            component_entry.Wire("clusterName", component_entry.STRING, "Name of the existing managed cluster.", True),
            component_entry.Wire("vnetSubnetId", component_entry.STRING, "Subnet for the agent pool."),
            component_entry.TAGS,
        ),
    )
    tables: ClassVar[tuple[ResourceTable, ...]] = lifecycle.TABLES
    pool_table: ClassVar[ResourceTable] = lifecycle.AGENT_POOL
    readers: ClassVar[Mapping[str, PoolReader]] = {
        lifecycle.AGENT_POOL.type: pool_reader.AGENT_POOL_READER,
        pool_reader.MANAGED_CLUSTER: pool_reader.MANAGED_CLUSTER_READER,
    }
    """An agent pool of gpuready's, and any program's agent pools, also those declared inside a ManagedCluster."""
    scale_decider: ClassVar[ScaleDecider] = NodeGroupDecider(
        "cluster-autoscaler (AKS)",
        "kubernetes/autoscaler@55c37cd cluster-autoscaler/cloudprovider/azure/azure_template.go L277, L385, "
        "L443-488 and L591-607",
        "kubernetes/autoscaler@55c37cd cluster-autoscaler/cloudprovider/azure/azure_scale_set.go L940-957",
        TemplateTags(lifecycle.autoscaler_tags, f"{lifecycle.NODE_TEMPLATE}_", "_", lifecycle.tag_key_name),
    )
    repair: ClassVar[RepairFacts | None] = AKS_REPAIR
    capacities: ClassVar[Mapping[str, CapacityOffer]] = capacity_rules.OFFERS

    def spec_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        return capacity_rules.problems(spec)

    def policy_capacity_problems(self, where: str, props: Mapping[str, Any]) -> list[str]:
        return capacity_rules.policy_problems(where, props)

    def creation_only(self, spec: GpuPoolSpec) -> tuple[str, ...]:
        return lifecycle.creation_only(spec)


PROVISIONER = AksAgentPool()
"""The one instance (provisioners hold no state)."""
