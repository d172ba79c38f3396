"""GpuPoolSpec -> ``aws.eks.NodeGroup`` arguments. Pure.

Enum values are the EKS API's (botocore ``eks/2017-11-01/service-2.json``: ``AMITypes``, ``TaintEffect``,
``CapacityTypes``); ``tests/eks/test_plan_fidelity.py`` checks them against the model botocore ships.
EKS managed node groups have no MIG or sharing fields: those are applied in-cluster by the labels the
pool carries (``gpuready.core.scheduling``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core import pool_hatches, scheduling
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.taints import UPPER_SNAKE_EFFECTS, Taint
from gpuready.eks.images import IMAGES
from gpuready.eks.repair import node_repair_config

AMI_TYPES: Mapping[tuple[str, str], str] = {
    (image, arch): ami for image, facts in IMAGES.items() for arch, ami in facts.api_names.items()
}
"""(image family, CPU architecture) -> EKS NVIDIA AMI type (the image table's ``api_names``)."""

CAPACITY_TYPES: Mapping[str, str] = {
    "on-demand": "ON_DEMAND",
    "spot": "SPOT",
    "reserved": "ON_DEMAND",
    "capacity-block": "CAPACITY_BLOCK",
}
"""Pool capacity -> botocore eks ``CapacityTypes``: an On-Demand Capacity Reservation runs ON_DEMAND instances (the
reservation is the launch template's); a Capacity Block is ``CAPACITY_BLOCK`` (``launch_template_capacity``)."""
OWNED_TEMPLATE: frozenset[str] = frozenset({"reserved", "capacity-block"})
"""Capacities whose node group runs on a launch template gpuready makes (``launch_template_capacity``)."""
TEMPLATE_INSTANCE_TYPE: frozenset[str] = frozenset({"capacity-block"})
"""Capacities whose instance type is the launch template's, none on the group (a Capacity Block)."""
UPDATE_STRATEGIES: Mapping[str, str] = {"rolling": "MINIMAL", "surge": "DEFAULT"}
"""botocore eks ``NodegroupUpdateStrategies``: MINIMAL "terminates the old instances before launching the new
instances", for "hardware accelerators such as GPUs"; DEFAULT "launches the new instances first"."""


OWNED_INPUTS: Mapping[str, str] = {
    "nodeGroupName": "name",
    "nodeGroupNamePrefix": "name",
    "amiType": "image (and the GPU's architecture)",
    "capacityType": "capacity (on-demand, spot, reserved or capacity-block)",
    "instanceTypes": "instanceType",
    "scalingConfig": "minSize/maxSize/desiredSize",
    "updateConfig": "upgrade",
    "labels": "labels",
    "taints": "taints",
    "releaseVersion": "releaseVersion",
    "diskSize": "diskSizeGb",
    "clusterName": "gpuready:clusterName",
    "nodeRoleArn": "gpuready:eksNodeRoleArn",
    "tags": "gpuready:tags",
    "nodeRepairConfig": "repair",
}
"""``aws.eks.NodeGroup`` inputs gpuready decides, and the pool key or stack setting that decides each: refused as
``overrides`` (``tests/eks/test_overrides.py`` checks every input ``node_group_args`` sets is here). Free:
``subnetIds`` (a pool's own subnets, hence its zones), ``launchTemplate``, ``remoteAccess``, ``version``,
``forceUpdateVersion``..."""


def ami_type(spec: GpuPoolSpec) -> str:
    """The NVIDIA AMI type for the pool's image family and the instance's architecture."""
    return AMI_TYPES[(spec.image_family, spec.resolved.gpu.arch)]


def node_group_args(spec: GpuPoolSpec) -> dict[str, Any]:
    """Keyword arguments of ``aws.eks.NodeGroup`` that follow from the spec (wiring excluded), overrides merged."""
    args = {
        "node_group_name": spec.name,
        "ami_type": ami_type(spec),
        "capacity_type": CAPACITY_TYPES[spec.capacity],
        # A Capacity Block's instance type is its launch template's: EKS refuses one on the group.
        **({} if spec.capacity in TEMPLATE_INSTANCE_TYPE else _instance_types(spec)),
        # desiredSize is read at creation only (eks.lifecycle.CREATION_ONLY): the autoscaler owns it afterwards.
        "scaling_config": {
            "min_size": spec.min_size,
            "max_size": spec.max_size,
            "desired_size": spec.initial_size,
        },
        # By default GPU nodes are replaced one at a time, old node first: no spare GPU is needed.
        "update_config": {
            "max_unavailable": max_unavailable(spec),
            "update_strategy": UPDATE_STRATEGIES[spec.upgrade.strategy],
        },
        "labels": scheduling.pool_labels(spec),
        "taints": [to_eks_taint(t) for t in scheduling.pool_taints(spec)],
        # GPU-suited node auto repair (gpuready.core.health.repair), or explicitly off
        "node_repair_config": node_repair_config(spec),
        **({"release_version": spec.release_version} if spec.release_version else {}),
        # disk_size cannot be combined with a launch template (botocore eks CreateNodegroup diskSize): refused by
        # EksProfile.hatch_problems, the template's block device mapping sizes the disk then (gpuready's own
        # template does: launch_template_capacity, and for an EFA pool launch_template_fabric).
        **({} if spec.capacity in OWNED_TEMPLATE or spec.fabric is not None else _disk_size(spec)),
    }
    return pool_hatches.with_overrides(spec, args)


def _instance_types(spec: GpuPoolSpec) -> dict[str, Any]:
    return {"instance_types": [spec.resolved.gpu.instance_type]}


def _disk_size(spec: GpuPoolSpec) -> dict[str, Any]:
    return {"disk_size": spec.disk_size_gb} if spec.disk_size_gb is not None else {}


def driver_summary(spec: GpuPoolSpec) -> str:
    """Who owns the driver, as the plan table shows it: the NVIDIA AMI on EKS."""
    return f"{spec.image_family} NVIDIA AMI ({ami_type(spec)})"


def to_eks_taint(taint: Taint) -> dict[str, str]:
    """``aws.eks.NodeGroup`` taint: effect in the EKS API spelling (``NO_SCHEDULE``)."""
    encoded = {"key": taint.key, "effect": UPPER_SNAKE_EFFECTS[taint.effect]}
    if taint.value:
        encoded["value"] = taint.value
    return encoded


MAX_UNAVAILABLE = 100
"""botocore eks ``NodegroupUpdateConfig.maxUnavailable``: "The maximum number is 100"."""


def max_unavailable(spec: GpuPoolSpec) -> int:
    """EKS needs at least 1 unavailable node in either strategy (``NonZeroInteger``)."""
    given = spec.upgrade.max_unavailable
    return 1 if given is None else given
