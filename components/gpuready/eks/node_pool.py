"""``EksGpuNodePool``: an EKS managed node group for GPUs, from a validated pool spec."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

import pulumi
import pulumi_aws as aws

from gpuready.core.specs import GpuPoolSpec
from gpuready.eks import capacity, launch_template, lifecycle, plan, reservation_zone
from gpuready.errors import SpecError
from gpuready.pool_outputs import GpuNodePoolBase, require_default_provisioner
from gpuready.record import record


@record(frozen=True, kw_only=True)
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
    """A GPU node group on EKS with the NVIDIA AMI, the GPU taint and gpuready's labels.

    Lifecycle (docs/day2.md "Day 2"): ``desiredSize`` is read at creation only; a change that forces replacement
    renames the group (``eks.lifecycle.cloud_name``) so the new group is created before the old one is deleted;
    the group's Auto Scaling group carries the autoscaler's node-template tags for scale from zero.
    """

    node_group: aws.eks.NodeGroup
    """The underlying node group (escape hatch)."""
    autoscaler_tags: list[aws.autoscaling.Tag]
    """Node-template tags on the node group's Auto Scaling group (deleted with the node group)."""

    def __init__(self, name: str, args: EksGpuNodePoolArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        if args.pool.cloud != "eks":
            raise SpecError.one("pool.cloud", "EksGpuNodePool needs an EKS pool spec", args.pool.cloud, ("eks",))
        require_default_provisioner("EksGpuNodePool", args.pool)
        spec = args.pool
        node_group_args = plan.node_group_args(spec)
        tags = lifecycle.autoscaler_tags(spec)
        super().__init__("gpuready:index:EksGpuNodePool", name, {}, opts)
        wiring: dict[str, Any] = {
            "cluster_name": args.cluster_name, "node_role_arn": args.node_role_arn, "subnet_ids": args.subnet_ids,
        }  # fmt: skip
        # A pool's overrides.subnetIds (its own subnets, hence zones) win over the stack's.
        wiring = {k: v for k, v in wiring.items() if k not in node_group_args}
        fabric_args: dict[str, Any] = {}
        if spec.fabric is not None:  # EFA: the pool's one zone, its placement and security groups
            subnets = node_group_args.pop("subnet_ids", wiring.get("subnet_ids"))
            efa = launch_template.efa_launch(
                name, spec, cluster_name=args.cluster_name, subnet_ids=subnets, tags=args.tags, parent=self
            )
            fabric_args = efa.template_args
            wiring["subnet_ids"] = efa.subnet_ids
        # One launch template for the pool's capacity (reservation, Capacity Block) and fabric (EFA), or none.
        # Declared here, not on the class: the Pulumi SDK evaluates a component class's annotations when it
        # registers outputs (pulumi/_types.py resource_types), and naming aws.ec2 there would load its 183 modules
        # for every EKS plan, with or without a launch template.
        self.launch_template: aws.ec2.LaunchTemplate | None = launch_template.launch_template(
            name, spec, self, fabric_args=fabric_args, tags=args.tags
        )
        """The launch template gpuready makes for a reserved, Capacity Block or EFA pool, else None."""
        if self.launch_template is not None:
            wiring["launch_template"] = launch_template.node_group_reference(self.launch_template)
        decided = dict(node_group_args)
        node_group_args["node_group_name"] = pulumi.Output.all(**wiring).apply(
            lambda resolved: lifecycle.cloud_name(spec, {**decided, **resolved})
        )
        in_zone = reservation_zone.subnets_in_zone(spec, node_group_args.get("subnet_ids") or (), self)
        if in_zone is not None:
            node_group_args["subnet_ids"] = in_zone
        self.node_group = aws.eks.NodeGroup(
            f"{name}-node-group",
            tags=dict(args.tags),
            opts=pulumi.ResourceOptions(
                parent=self,
                ignore_changes=list(capacity.PROVISIONER.creation_only(spec)),
                # Never delete first, whatever the provider asks: a replacement gets a new name (or, with a
                # fixed name, fails at create) while the old group keeps serving.
                delete_before_replace=False,
            ),
            **wiring,
            **node_group_args,
        )
        asg_name = self.node_group.resources.apply(_first_asg_name)
        self.autoscaler_tags = [
            aws.autoscaling.Tag(
                f"{name}-asg-{key.removeprefix(lifecycle.NODE_TEMPLATE + '/').replace('/', '-')}",
                autoscaling_group_name=asg_name,
                tag=aws.autoscaling.TagTagArgs(key=key, value=value, propagate_at_launch=False),
                opts=pulumi.ResourceOptions(parent=self, deleted_with=self.node_group),
            )
            for key, value in tags.items()
        ]
        self._publish(spec, self.node_group.node_group_name, plan.driver_summary(spec), lifecycle.summary(spec))


def _first_asg_name(node_group_resources: Sequence[Any] | None) -> str:
    """The Auto Scaling group EKS made for the node group (``resources[0].autoscalingGroups[0].name``)."""
    groups = node_group_resources[0].autoscaling_groups if node_group_resources else None
    name = groups[0].name if groups else None
    if not name:
        raise ValueError(
            "the EKS node group reports no Auto Scaling group (resources[0].autoscalingGroups[0].name), so its "
            "scale-from-zero tags have nowhere to go; under Pulumi mocks, return it from new_resource as "
            "gpuready.offline.computed_outputs does"
        )
    return str(name)
