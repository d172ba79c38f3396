"""``EksGpuNodePool``: an EKS managed node group for GPUs, from a validated pool spec."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pulumi
import pulumi_aws as aws

from components.core.specs import GpuPoolSpec
from components.eks import plan
from components.errors import SpecError
from components.pool_outputs import GpuNodePoolBase


@dataclass(frozen=True, kw_only=True)
class EksGpuNodePoolArgs:
    """Inputs of ``EksGpuNodePool``: the pool decisions plus the cluster wiring."""

    pool: GpuPoolSpec
    """The validated pool spec (``cloud="eks"``)."""
    cluster_name: pulumi.Input[str]
    node_role_arn: pulumi.Input[str]
    """IAM role the nodes run as (needs the EKS worker, CNI and ECR read policies)."""
    subnet_ids: pulumi.Input[Sequence[pulumi.Input[str]]]
    tags: Mapping[str, str] = field(default_factory=dict)


class EksGpuNodePool(GpuNodePoolBase):
    """A GPU node group on EKS with the NVIDIA AMI, the GPU taint and gpuready's labels."""

    node_group: aws.eks.NodeGroup
    """The underlying node group (escape hatch)."""

    def __init__(self, name: str, args: EksGpuNodePoolArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        if args.pool.cloud != "eks":
            raise SpecError.one("pool.cloud", "EksGpuNodePool needs an EKS pool spec", args.pool.cloud, ("eks",))
        node_group_args = plan.node_group_args(args.pool)
        super().__init__("gpuready:index:EksGpuNodePool", name, {}, opts)
        self.node_group = aws.eks.NodeGroup(
            f"{name}-node-group",
            cluster_name=args.cluster_name,
            node_role_arn=args.node_role_arn,
            subnet_ids=args.subnet_ids,
            tags=dict(args.tags),
            opts=pulumi.ResourceOptions(parent=self),
            **node_group_args,
        )
        self._publish(args.pool, self.node_group.node_group_name, plan.driver_summary(args.pool))
