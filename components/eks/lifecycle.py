"""Lifecycle of an EKS GPU node group: replacement facts, creation-only inputs, scale-from-zero tags. Pure.

Replacement facts: pulumi-aws bridges hashicorp/terraform-provider-aws; a field whose schema says
``ForceNew: true`` replaces the node group (``internal/service/eks/node_group.go``, cited per row; the file is
vendored under ``tests/data/upstream/terraform-provider-aws`` and ``tests/fidelity/test_replacement_tables.py``
checks every row against it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from components.core.catalog import lookup
from components.core.lifecycle import FieldRule, PoolCapacity, ResourceTable, node_template, pool_cloud_name
from components.core.lifecycle_rules import eks_max_unavailable
from components.core.specs import GpuPoolSpec
from components.errors import SpecError

TF_AWS = "hashicorp/terraform-provider-aws@{commit}:internal/service/eks/node_group.go#L{line}"
TF_AWS_TAG = "hashicorp/terraform-provider-aws@{commit}:internal/service/autoscaling/tag.go#L{line}"
COMMIT = "0000000000000000000000000000000000000000"


def _tf(line: int, path: str = TF_AWS) -> str:
    return path.format(commit=COMMIT, line=line)


NODE_GROUP = ResourceTable(
    type="aws:eks/nodeGroup:NodeGroup",
    name_field="nodeGroupName",
    rules=(
        FieldRule("amiType", "replace", _tf(0), "ami_type: ForceNew"),
        FieldRule("capacityType", "replace", _tf(0), "capacity_type: ForceNew"),
        FieldRule("clusterName", "replace", _tf(0), "cluster_name: ForceNew"),
        FieldRule("diskSize", "replace", _tf(0), "disk_size: ForceNew"),
        FieldRule("instanceTypes", "replace", _tf(0), "instance_types: ForceNew"),
        FieldRule("labels", "update", _tf(0), "labels: no ForceNew; UpdateNodegroupConfig"),
        FieldRule("launchTemplate", "replace", _tf(0), "launch_template id/name: ForceNew"),
        FieldRule("nodeGroupName", "replace", _tf(0), "node_group_name: ForceNew"),
        FieldRule("nodeGroupNamePrefix", "replace", _tf(0), "node_group_name_prefix: ForceNew"),
        FieldRule("nodeRoleArn", "replace", _tf(0), "node_role_arn: ForceNew"),
        FieldRule("releaseVersion", "update", _tf(0), "release_version: UpdateNodegroupVersion"),
        FieldRule("remoteAccess", "replace", _tf(0), "remote_access: ForceNew"),
        FieldRule("scalingConfig", "update", _tf(0), "scaling_config: UpdateNodegroupConfig"),
        FieldRule("subnetIds", "replace", _tf(0), "subnet_ids: ForceNew"),
        FieldRule("tags", "update", _tf(0), "tags: tag update"),
        FieldRule("taints", "update", _tf(0), "taint: UpdateNodegroupConfig"),
        FieldRule("updateConfig", "update", _tf(0), "update_config: UpdateNodegroupConfig"),
        FieldRule("version", "update", _tf(0), "version: UpdateNodegroupVersion"),
    ),
)
ASG_TAG = ResourceTable(
    type="aws:autoscaling/tag:Tag",
    rules=(
        FieldRule("autoscalingGroupName", "replace", _tf(0, TF_AWS_TAG), "autoscaling_group_name: ForceNew"),
        FieldRule("tag.key", "replace", _tf(0, TF_AWS_TAG), "tag.key: ForceNew"),
        FieldRule("tag.value", "update", _tf(0, TF_AWS_TAG), "tag.value: updated in place"),
        FieldRule("tag.propagateAtLaunch", "update", _tf(0, TF_AWS_TAG), "tag.propagate_at_launch: in place"),
    ),
)
TABLES = (NODE_GROUP, ASG_TAG)

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


def capacity(inputs: Mapping[str, Any]) -> PoolCapacity | None:
    """GPU capacity of a planned node group (any program's): GPUs per instance from the catalog, maxSize nodes."""
    types: Sequence[Any] = inputs.get("instanceTypes") or ()
    scaling = inputs.get("scalingConfig") or {}
    max_nodes = scaling.get("maxSize") if isinstance(scaling, Mapping) else None
    if not types or not isinstance(types[0], str):
        return None
    try:
        gpu = lookup.resolve_instance_type("eks", types[0], None)
    except SpecError:
        return None
    return PoolCapacity(
        accelerator=gpu.model.key, gpus_per_node=gpu.gpus, max_nodes=max_nodes if isinstance(max_nodes, int) else None
    )


def summary(spec: GpuPoolSpec) -> str:
    """The pool's lifecycle in one line, for the plan table."""
    naming = "new name when replaced" if spec.rotates_name else "fixed name: a replacement fails at create"
    strategy = "MINIMAL: old node first" if spec.upgrade.strategy == "rolling" else "DEFAULT: new nodes first"
    pin = f", AMI {spec.release_version}" if spec.release_version else ""
    upgrade = f"upgrade {strategy}, maxUnavailable {eks_max_unavailable(spec)}{pin}"
    zero = f"scale from zero: {len(autoscaler_tags(spec))} ASG node-template tags"
    return f"desiredSize at creation only; {naming}; {upgrade}; {zero}"
