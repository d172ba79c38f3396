"""The EKS managed node group as a provisioner (``node-group``, the EKS default). Pure: delegates to ``lifecycle``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gpuready.core import component_entry
from gpuready.core.capacity.capacity_offers import PLAIN, CapacityOffer
from gpuready.core.capacity.interface import Provisioner
from gpuready.core.capacity.pool_facts import PoolReader
from gpuready.core.health.repair import RepairFacts
from gpuready.core.lifecycle import ResourceTable
from gpuready.core.scale_path.cluster_autoscaler import NodeGroupDecider, TemplateTags
from gpuready.core.scale_path.model import ScaleDecider
from gpuready.core.specs import GpuPoolSpec
from gpuready.eks import lifecycle, pool_reader, reservation
from gpuready.errors import Problem

NODE_GROUP_CAPACITIES: Mapping[str, CapacityOffer] = {
    "on-demand": PLAIN,
    "spot": PLAIN,
    # On-Demand Capacity Reservations through gpuready's launch template: one reservation id or resource group
    # (targeted), or any matching open reservation; a node group has one capacity type, so no fallback.
    "reserved": CapacityOffer(
        reservation="required",
        fields=frozenset({"ids", "resourceGroupArn", "instanceMatchCriteria", "zone", "nodes"}),
        example=f"{{ids: [{reservation.EXAMPLE_ID}]}} (or resourceGroupArn, or instanceMatchCriteria: open)",
    ),
    # botocore eks CapacityTypes CAPACITY_BLOCK; EKS User Guide capacity-blocks-mng (reservation.py's docstring).
    "capacity-block": CapacityOffer(
        reservation="required",
        fields=frozenset({"ids", "zone", "nodes"}),
        example=f"{{ids: [{reservation.EXAMPLE_ID}], zone: us-east-1a, nodes: 2}}",
        starts_later=True,  # instances launch once the block is active (capacity-blocks-mng)
    ),
}
"""The EKS node group's row of the capacity table (``capacity.capacity_offers``)."""


class EksNodeGroup(Provisioner):
    """A managed node group of fixed bounds, scaled by the cluster autoscaler."""

    key: ClassVar[str] = "node-group"
    cloud: ClassVar[str] = "eks"
    component: ClassVar[component_entry.ComponentEntry] = component_entry.ComponentEntry(
        name="EksGpuNodePool",
        module="gpuready.eks.node_pool",
        builder="gpuready.eks.stack_adapter",
        description="A GPU node group on an existing EKS cluster (NVIDIA AMI, GPU taint, gpuready's labels).",
        wiring=(
            component_entry.POOL,
            component_entry.Wire("clusterName", component_entry.STRING, "Name of the existing EKS cluster.", True),
            component_entry.Wire(
                "nodeRoleArn",
                component_entry.STRING,
                "IAM role the nodes run as (EKS worker, CNI and ECR read policies).",
                True,
            ),
            component_entry.Wire("subnetIds", component_entry.STRINGS, "Subnets of the node group.", True),
            component_entry.TAGS,
        ),
    )
    tables: ClassVar[tuple[ResourceTable, ...]] = lifecycle.TABLES
    pool_table: ClassVar[ResourceTable] = lifecycle.NODE_GROUP
    capacities: ClassVar[Mapping[str, CapacityOffer]] = NODE_GROUP_CAPACITIES
    readers: ClassVar[Mapping[str, PoolReader]] = {lifecycle.NODE_GROUP.type: pool_reader.NODE_GROUP_READER}
    scale_decider: ClassVar[ScaleDecider] = NodeGroupDecider(
        "cluster-autoscaler (EKS)",
        "kubernetes/autoscaler@55c37cd cluster-autoscaler/cloudprovider/aws/aws_manager.go L285-305, L404-500",
        "kubernetes/autoscaler@55c37cd cluster-autoscaler/cloudprovider/aws/aws_cloud_provider.go L417-428",
        TemplateTags(lifecycle.autoscaler_tags, f"{lifecycle.NODE_TEMPLATE}/", "/"),
    )
    repair: ClassVar[RepairFacts | None] = RepairFacts(
        on="EKS node auto repair (nodeRepairConfig) on the node monitoring agent's conditions, with gpuready's GPU "
        "actions: reboot for GPU resets (XID 48, 74, 119, double bit errors), replace for a GPU off the bus, a power "
        "or fabric fault (XID 79, 54), nothing for DCGMError (the agent cannot reach DCGM)",
        off="nodeRepairConfig.enabled false: EKS leaves unhealthy nodes in place",
        tunable=True,
        # botocore eks 2017-11-01 NodeRepairConfig, NodeRepairConfigOverrides;
        # https://docs.aws.amazon.com/eks/latest/userguide/node-repair.html
        source="botocore eks NodeRepairConfig; docs.aws.amazon.com/eks/latest/userguide/node-repair.html",
    )

    def creation_only(self, spec: GpuPoolSpec) -> tuple[str, ...]:
        return lifecycle.CREATION_ONLY

    def planned_capacity_problems(self, inputs: Mapping[str, Any]) -> list[str]:
        return reservation.planned_node_group_problems(inputs)

    def spec_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        offer = self.capacities.get(spec.capacity)
        if spec.reservation is None or offer is None or offer.reservation == "refused":
            return []
        return reservation.node_group_problems(spec)


PROVISIONER = EksNodeGroup()
"""The one instance (provisioners hold no state)."""
