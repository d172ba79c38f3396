"""The launch template gpuready makes for an EKS node group, and the node group's reference to it; for an EFA pool
also its placement group and EFA security group, and its subnets checked to lie in the pool's zone.

The content is pure and lives by concern (``launch_template_capacity``: reservation target, market, instance type,
disk; ``launch_template_fabric``: EFA interfaces, placement group, root volume); this module only merges the
fragments into ONE ``aws.ec2.LaunchTemplate`` (a Capacity Block EFA pool has both) and points the node group at its
latest version (a content change is a new version: the node group updates in place, ``UpdateNodegroupVersion``).

Delete order follows the references: the node group uses the template, which names the placement group and the
security group, so Pulumi deletes the node group (and its instances) first, then the template, then the group
that EC2 refuses to delete while instances are in it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pulumi
import pulumi_aws as aws

from gpuready.core.fabric.model import CREATE
from gpuready.core.mappings import deep_merge
from gpuready.core.specs import GpuPoolSpec
from gpuready.eks import launch_template_capacity, launch_template_fabric
from gpuready.eks.fabric import FABRIC
from gpuready.errors import ConfigError
from gpuready.record import record


@record(frozen=True)
class FabricLaunch:
    """What the node group and its launch template take from the pool's EFA resources."""

    template_args: dict[str, Any]
    """The launch template's EFA part (``launch_template_fabric.launch_template_args``)."""
    subnet_ids: pulumi.Output[list[str]]
    """The pool's subnets, once checked to lie in its zone."""


Subnets = pulumi.Input[Sequence[pulumi.Input[str]]]


def efa_launch(
    name: str,
    spec: GpuPoolSpec,
    *,
    cluster_name: pulumi.Input[str],
    subnet_ids: Subnets,
    tags: Mapping[str, str],
    parent: pulumi.Resource,
) -> FabricLaunch:
    """The placement group and security group of EFA pool ``spec`` (children of ``parent``), and what its launch
    template takes from them."""
    fabric = spec.fabric
    assert fabric is not None, "efa_launch is for fabric pools"
    opts = pulumi.ResourceOptions(parent=parent)
    cluster = aws.eks.get_cluster_output(name=cluster_name, opts=pulumi.InvokeOutputOptions(parent=parent))
    vpc = cluster.vpc_config
    group = aws.ec2.SecurityGroup(
        f"{name}-efa", vpc_id=vpc.vpc_id, description="EFA: all traffic to and from itself (gpuready)",
        tags=dict(tags), opts=opts, **launch_template_fabric.efa_security_group_rules(),
    )  # fmt: skip
    placement = FABRIC.placement(fabric)
    if placement == CREATE:
        made = aws.ec2.PlacementGroup(
            f"{name}-placement", strategy=launch_template_fabric.CLUSTER_STRATEGY, tags=dict(tags), opts=opts
        )
        group_name: pulumi.Input[str] = made.name
    else:
        group_name = str(placement)
    args = launch_template_fabric.launch_template_args(spec, [vpc.cluster_security_group_id, group.id], group_name)
    return FabricLaunch(args, _in_zone(spec, subnet_ids, parent))


def _in_zone(spec: GpuPoolSpec, subnet_ids: Subnets, parent: pulumi.Resource) -> pulumi.Output[list[str]]:
    """``subnet_ids``, after EC2 says every one lies in the pool's zone (else the deployment stops, naming them)."""
    (zone,) = spec.zones
    given = pulumi.Output.from_input(subnet_ids)

    def filters(ids: Sequence[Any]) -> list[dict[str, Any]]:
        return [{"name": "subnet-id", "values": list(ids)}, {"name": "availability-zone", "values": [zone]}]

    found = aws.ec2.get_subnets_output(filters=given.apply(filters), opts=pulumi.InvokeOutputOptions(parent=parent))

    def checked(results: list[Any]) -> list[str]:
        ids, in_zone = list(results[0]), set(results[1])
        outside = [subnet for subnet in ids if subnet not in in_zone]
        if outside:
            raise ConfigError.one(
                f"nodePools[{spec.name}].zones", f"subnets {', '.join(outside)} are not in the pool's zone: an EFA "
                "pool lies in one zone (EFA does not work across zones)", zone, (),
                "give the pool only subnets of that zone: overrides: {subnetIds: [subnet-...]}",
            )  # fmt: skip
        return ids

    return pulumi.Output.all(given, found.ids).apply(checked)


def template_args(spec: GpuPoolSpec, fabric_args: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every fragment of the pool's launch template, merged (empty: the pool needs none): its capacity's, then its
    fabric's (``fabric_args``, from ``efa_launch``; its root volume is the capacity's with delete on termination)."""
    return deep_merge(launch_template_capacity.template_args(spec), fabric_args or {})


def launch_template(
    name: str,
    spec: GpuPoolSpec,
    parent: pulumi.Resource,
    *,
    fabric_args: Mapping[str, Any] | None = None,
    tags: Mapping[str, str] | None = None,
) -> aws.ec2.LaunchTemplate | None:
    """The pool's one launch template, or None when its node group needs none."""
    args = template_args(spec, fabric_args)
    if not args:
        return None
    return aws.ec2.LaunchTemplate(
        f"{name}-launch-template",
        update_default_version=True,
        tags=dict(tags or {}),
        opts=pulumi.ResourceOptions(parent=parent),
        **args,
    )


def node_group_reference(template: aws.ec2.LaunchTemplate) -> dict[str, Any]:
    """The node group's ``launch_template`` input: the template and its latest version."""
    return {"id": template.id, "version": template.latest_version.apply(str)}
