"""Lifecycle of an EKS GPU node group: replacement facts, creation-only inputs, scale-from-zero tags. Pure.

Replacement facts: pulumi-aws bridges hashicorp/terraform-provider-aws; a field whose schema says
``ForceNew: true`` replaces the node group (``internal/service/eks/node_group.go``, ``autoscaling/group_tag.go``),
anything else updates in place (``UpdateNodegroupConfig``, ``UpdateNodegroupVersion``, tag updates). Each row cites
its schema block; ``tests/fidelity/test_replacement_tables.py`` checks every row against what those lines say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.lifecycle import FieldRule, ResourceTable, node_template, pool_cloud_name
from gpuready.core.specs import GpuPoolSpec
from gpuready.eks.plan import max_unavailable

TF_AWS = "hashicorp/terraform-provider-aws@{commit}:internal/service/{path}#L{lines}"
NODE_GROUP_COMMIT = "012e0a32f0686212f447447fd3d81c3d0ce256ad"
GROUP_TAG_COMMIT = "050ac11163cab8cdae5936a7f40b0e528ff780df"


def _ng(first: int, last: int) -> str:
    return TF_AWS.format(commit=NODE_GROUP_COMMIT, path="eks/node_group.go", lines=f"{first}-{last}")


def _tag(first: int, last: int) -> str:
    return TF_AWS.format(commit=GROUP_TAG_COMMIT, path="autoscaling/group_tag.go", lines=f"{first}-{last}")


NODE_GROUP = ResourceTable(
    type="aws:eks/nodeGroup:NodeGroup",
    name_field="nodeGroupName",
    rules=(
        FieldRule("amiType", "replace", _ng(57, 63), "ami_type: ForceNew"),
        FieldRule("capacityType", "replace", _ng(68, 74), "capacity_type: ForceNew"),
        FieldRule("clusterName", "replace", _ng(75, 80), "cluster_name: ForceNew"),
        FieldRule("diskSize", "replace", _ng(81, 86), "disk_size: ForceNew"),
        FieldRule("instanceTypes", "replace", _ng(91, 97), "instance_types: ForceNew"),
        FieldRule("labels", "update", _ng(98, 102), "labels: UpdateNodegroupConfig"),
        FieldRule("launchTemplate.id", "replace", _ng(109, 116), "id: ForceNew"),
        FieldRule("launchTemplate.name", "replace", _ng(117, 124), "name: ForceNew"),
        FieldRule("launchTemplate.version", "update", _ng(125, 129), "version: UpdateNodegroupVersion"),
        FieldRule("nodeGroupName", "replace", _ng(133, 140), "node_group_name: ForceNew"),
        FieldRule("nodeGroupNamePrefix", "replace", _ng(141, 148), "node_group_name_prefix: ForceNew"),
        FieldRule("nodeRepairConfig", "update", _ng(149, 163), "node_repair_config: UpdateNodegroupConfig"),
        FieldRule("nodeRoleArn", "replace", _ng(164, 169), "node_role_arn: ForceNew"),
        FieldRule("releaseVersion", "update", _ng(170, 174), "release_version: UpdateNodegroupVersion"),
        FieldRule("remoteAccess", "replace", _ng(175, 195), "remote_access: ForceNew"),
        FieldRule("scalingConfig", "update", _ng(220, 243), "scaling_config: UpdateNodegroupConfig"),
        FieldRule("subnetIds", "replace", _ng(248, 254), "subnet_ids: ForceNew"),
        FieldRule("tags", "update", _ng(255, 255), "tags: tag update"),
        FieldRule("taints", "update", _ng(257, 280), "taint: UpdateNodegroupConfig"),
        # The cited commit's block has maxUnavailable(Percentage); pulumi-aws 7.51.1 adds updateStrategy beside them.
        FieldRule("updateConfig", "update", _ng(281, 308), "update_config: UpdateNodegroupConfig"),
        FieldRule("version", "update", _ng(309, 313), "version: UpdateNodegroupVersion"),
    ),
)
ASG_TAG = ResourceTable(
    type="aws:autoscaling/tag:Tag",
    rules=(
        FieldRule("autoscalingGroupName", "replace", _tag(27, 31), "autoscaling_group_name: ForceNew"),
        FieldRule("tag.key", "replace", _tag(38, 42), "key: ForceNew"),
        FieldRule("tag.value", "update", _tag(43, 46), "value: UpdateTags"),
        FieldRule("tag.propagateAtLaunch", "update", _tag(47, 50), "propagate_at_launch: UpdateTags"),
    ),
)
PLACEMENT_GROUP_COMMIT = "05e34de7342261989674cfe1f047c25bb4c80db8"


def _pg(first: int, last: int) -> str:
    path = "ec2/ec2_placement_group.go"
    return TF_AWS.format(commit=PLACEMENT_GROUP_COMMIT, path=path, lines=f"{first}-{last}")


PLACEMENT_GROUP = ResourceTable(
    type="aws:ec2/placementGroup:PlacementGroup",
    name_field="name",
    rules=(
        FieldRule("name", "replace", _pg(47, 51), "name: ForceNew"),
        FieldRule("strategy", "replace", _pg(71, 76), "strategy: ForceNew"),
        FieldRule("tags", "update", _pg(77, 77), "tags: tag update"),
    ),
)
"""An EFA pool's placement group. A new one (another strategy, or ``placementGroup`` naming another) changes the
launch template, whose new version rolls every node of the node group into it (``launchTemplate.version``:
UpdateNodegroupVersion); the old group is deleted once its instances are gone."""
# An EFA pool's launch template and security group: what a change of them does.
#
# - The launch template: only its name forces a new one; any other change (its EFA interfaces, placement group,
#   root volume) makes a new version (pulumi-aws 7.51.1 ``ec2/launch_template.py``: "whenever a change to this
#   resource creates a new version"; gpuready sets ``updateDefaultVersion``). The node group follows the template's
#   latest version (``launchTemplate.version``), an ``UpdateNodegroupVersion``: EKS rolls every node of the group
#   onto the new version, as its update config allows (the node group table's ``launchTemplate.version`` row; AWS EKS
#   User Guide, "Update a managed node group": a new launch template version replaces the nodes).
# - The EFA security group: ``name``, ``namePrefix``, ``description`` and ``vpcId`` cannot change (pulumi-aws 7.51.1
#   ``ec2/security_group.py`` L499: a ``name`` change "forces new", "description, name_prefix, or vpc_id cannot be
#   changed"); its inline ``ingress`` / ``egress`` rules are revoked and authorized in place
#   (hashicorp/terraform-provider-aws ``internal/service/ec2/vpc_security_group.go``, ``resourceSecurityGroupUpdate``
#   -> ``resourceSecurityGroupUpdateRules``), so running nodes keep their interfaces and only the traffic they admit
#   changes.
#
# The rows cite the installed SDK (``SDK``: its file and line, checked by ``tests/fidelity/test_replacement_tables.py``
# against the installed ``pulumi_aws``), not a Terraform schema block.
SDK = "pulumi_aws==7.51.1:{path}#L{line}"
"""A row's source in the installed pulumi-aws SDK: its file under the package and the line that says it."""
_SG = SDK.format(path="ec2/security_group.py", line=499)
_LT = SDK.format(path="ec2/launch_template.py", line=72)

LAUNCH_TEMPLATE = ResourceTable(
    type="aws:ec2/launchTemplate:LaunchTemplate",
    rules=(
        FieldRule("networkInterfaces", "update", _LT, "whenever a change to this resource creates a new version"),
        FieldRule("placement", "update", _LT, "whenever a change to this resource creates a new version"),
        FieldRule("blockDeviceMappings", "update", _LT, "whenever a change to this resource creates a new version"),
        FieldRule("tags", "update", _LT, "whenever a change to this resource creates a new version"),
    ),
    unlisted="update",
    update_note=(
        "a new launch template version: the node group follows its latest version (launchTemplate.version, "
        "UpdateNodegroupVersion), so EKS replaces every node of the group, as its update config allows"
    ),
)
SECURITY_GROUP = ResourceTable(
    type="aws:ec2/securityGroup:SecurityGroup",
    name_field="name",
    rules=(
        FieldRule("name", "replace", _SG, '`name` change "forces new"'),
        FieldRule("namePrefix", "replace", _SG, "`name_prefix`, or `vpc_id` [cannot be changed]"),
        FieldRule("description", "replace", _SG, "`description`, `name_prefix`, or `vpc_id` [cannot be changed]"),
        FieldRule("vpcId", "replace", _SG, "or `vpc_id` [cannot be changed]"),
    ),
    unlisted="update",
    update_note=(
        "its rules change in place (revoked and authorized on the same group): the nodes keep their EFA interfaces; "
        "only the traffic between them changes"
    ),
)
TABLES = (NODE_GROUP, ASG_TAG, PLACEMENT_GROUP, LAUNCH_TEMPLATE, SECURITY_GROUP)

CREATION_ONLY = ("scalingConfig.desiredSize",)
"""Inputs read at creation only: afterwards the cluster autoscaler owns the node count, and a refresh that saw
it change must not scale the group back (``ignoreChanges``)."""

NODE_TEMPLATE = "k8s.io/cluster-autoscaler/node-template"
"""Tag prefix the cluster autoscaler's AWS provider reads for a group at zero nodes (kubernetes/autoscaler
``cluster-autoscaler/cloudprovider/aws/README.md``, "Auto-Discovery Setup")."""


def cloud_name(spec: GpuPoolSpec, args: Mapping[str, Any]) -> str:
    """The node group's name: the pool name, plus a suffix of the replacement-forcing inputs when it rotates."""
    return pool_cloud_name(spec, NODE_GROUP, args)


def autoscaler_tags(spec: GpuPoolSpec) -> dict[str, str]:
    """Node-template tags for the node group's Auto Scaling group: every label and taint the nodes get and every
    extended resource they advertise, so the autoscaler scales the group up from zero for pods that need them."""
    return dict(sorted((f"{NODE_TEMPLATE}/{kind}/{key}", value) for kind, key, value in node_template(spec)))


def summary(spec: GpuPoolSpec) -> str:
    """The pool's lifecycle in one line, for the plan table."""
    naming = "new name when replaced" if spec.rotates_name else "fixed name: a replacement fails at create"
    strategy = "MINIMAL: old node first" if spec.upgrade.strategy == "rolling" else "DEFAULT: new nodes first"
    pin = f", AMI {spec.release_version}" if spec.release_version else ""
    upgrade = f"upgrade {strategy}, maxUnavailable {max_unavailable(spec)}{pin}"
    zero = f"scale from zero: {len(autoscaler_tags(spec))} ASG node-template tags"
    return (
        f"desiredSize at creation only; {naming}; {upgrade}; {zero}{CAPACITY_NOTES.get(spec.capacity, '')}"
        + fabric_summary(spec)
    )


CAPACITY_NOTES: Mapping[str, str] = {
    "capacity-block": "; Capacity Block: instances launch once the block is active (launch errors before), EKS "
    "scales the group to 0 40 min before the block ends; upgrade it at desired size 0 (EKS capacity-blocks-mng)",
    "reserved": "; launch template gpuready makes: the reservation target, the disk",
}
"""What the pool's capacity adds to its lifecycle line (awsdocs/amazon-eks-user-guide
``doc_source/capacity-blocks-mng.md``)."""


def fabric_summary(spec: GpuPoolSpec) -> str:
    """What an EFA pool adds to the lifecycle line: its launch template, placement group and delete order."""
    if spec.fabric is None:
        return ""
    return (
        "; EFA: gpuready's launch template (a change is a new template version, which rolls the nodes as the "
        "upgrade says), its placement group (a new one: the template's new version rolls every node into it), "
        "deleted after the node group (launch template, then placement group and EFA security group)"
    )
