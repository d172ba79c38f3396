"""``AksGpuNodePool``: an AKS agent pool for GPUs, from a validated pool spec."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field

import pulumi
from pulumi_azure_native import containerservice

from gpuready.aks import capacity, capacity_rules, lifecycle, plan
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import SpecError
from gpuready.pool_outputs import GpuNodePoolBase, require_default_provisioner
from gpuready.record import record


@record(frozen=True, kw_only=True)
class AksGpuNodePoolArgs:
    """Inputs of ``AksGpuNodePool``: the pool decisions plus the cluster wiring."""

    pool: GpuPoolSpec
    """The validated pool spec (``cloud="aks"``)."""
    resource_group_name: pulumi.Input[str]
    cluster_name: pulumi.Input[str]
    """Name of the existing managed cluster (the SDK's ``resource_name_``)."""
    vnet_subnet_id: pulumi.Input[str] | None = None
    tags: Mapping[str, str] = field(default_factory=dict)


class AksGpuNodePool(GpuNodePoolBase):
    """A GPU agent pool on AKS with the driver owner, MIG profile, GPU taint and gpuready's labels."""

    agent_pool: containerservice.AgentPool
    """The underlying agent pool (escape hatch)."""

    def __init__(self, name: str, args: AksGpuNodePoolArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        if args.pool.cloud != "aks":
            raise SpecError.one("pool.cloud", "AksGpuNodePool needs an AKS pool spec", args.pool.cloud, ("aks",))
        require_default_provisioner("AksGpuNodePool", args.pool)
        agent_pool_args = plan.agent_pool_args(args.pool)
        super().__init__("gpuready:index:AksGpuNodePool", name, {}, opts)
        if args.vnet_subnet_id is not None and "vnet_subnet_id" not in agent_pool_args:  # a pool's override wins
            agent_pool_args["vnet_subnet_id"] = args.vnet_subnet_id
        wiring = {"resource_group_name": args.resource_group_name, "resource_name_": args.cluster_name}
        self.agent_pool = containerservice.AgentPool(
            f"{name}-agent-pool",
            # The stack's tags, then the autoscaler's node-template tags (the scale set gets both).
            tags={**args.tags, **lifecycle.autoscaler_tags(args.pool)},
            opts=pulumi.ResourceOptions(
                parent=self,
                ignore_changes=list(capacity.PROVISIONER.creation_only(args.pool)),
                # What AKS cannot change in place is a replacement, never deleted first: the fixed name makes
                # the replacement's create fail while the old pool keeps serving (aks.lifecycle).
                replace_on_changes=lifecycle.replace_on_changes({**agent_pool_args, **wiring}),
                delete_before_replace=False,
            ),
            **wiring,
            **agent_pool_args,
        )
        self._publish(args.pool, self.agent_pool.name, plan.driver_summary(args.pool), lifecycle.summary(args.pool))
        elsewhere = capacity_rules.region_warning(args.pool, pulumi.Config("azure-native").get("location"))
        if elsewhere is not None:
            pulumi.log.warn(elsewhere, resource=self)
