"""The launch template gpuready makes for an EKS node group, and the node group's reference to it.

The content is pure and lives by concern (``launch_template_capacity``: reservation, market, instance type, disk);
this module only merges the fragments into one ``aws.ec2.LaunchTemplate`` and points the node group at its latest
version (a content change is a new version: the node group updates in place, ``UpdateNodegroupVersion``).
"""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_aws as aws

from gpuready.core.mappings import deep_merge
from gpuready.core.specs import GpuPoolSpec
from gpuready.eks import launch_template_capacity


def template_args(spec: GpuPoolSpec) -> dict[str, Any]:
    """Every fragment of the pool's launch template, merged (empty: the pool needs none)."""
    return deep_merge({}, launch_template_capacity.template_args(spec))


def launch_template(name: str, spec: GpuPoolSpec, parent: pulumi.Resource) -> aws.ec2.LaunchTemplate | None:
    """The pool's launch template, or None when its node group needs none."""
    args = template_args(spec)
    if not args:
        return None
    return aws.ec2.LaunchTemplate(
        f"{name}-launch-template",
        update_default_version=True,
        opts=pulumi.ResourceOptions(parent=parent),
        **args,
    )


def node_group_reference(template: aws.ec2.LaunchTemplate) -> dict[str, Any]:
    """The node group's ``launch_template`` input: the template and its latest version."""
    return {"id": template.id, "version": template.latest_version.apply(str)}
