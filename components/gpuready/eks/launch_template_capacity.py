"""The capacity part of the launch template gpuready makes for an EKS node group: reservation, market, instance
type, disk. Pure: ``aws.ec2.LaunchTemplate`` keyword arguments (Python names), assembled by ``launch_template``.

A ``capacity-block`` node group: the template carries the instance type, ``instanceMarketOptions.marketType:
capacity-block`` and the block as ``capacityReservationSpecification.capacityReservationTarget``; the node group
has capacity type ``CAPACITY_BLOCK`` and no instance types (awsdocs/amazon-eks-user-guide
``doc_source/capacity-blocks-mng.md``, "Create a managed node group with Capacity Blocks for ML": EKS rejects the
create request otherwise; aws-ia/terraform-aws-eks-blueprints ``patterns/ml-capacity-block`` witnesses the same
wiring, its launch template's ``capacity_reservation_specification`` and ``instance_market_options``). A
``reserved`` node group (On-Demand Capacity Reservations) stays ``ON_DEMAND`` with its instance types; its template
targets one reservation id or one resource group, or prefers ``open`` reservations (botocore ec2
``LaunchTemplateCapacityReservationSpecificationRequest``: ``CapacityReservationPreference`` open | none |
capacity-reservations-only, ``CapacityReservationTarget``). A node group with a launch template takes no
``diskSize`` (botocore eks ``CreateNodegroup``), so the template's block device mapping sizes the root volume.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gpuready.eks.ec2_node_class import DATA_DEVICES
from gpuready.eks.plan import OWNED_TEMPLATE, TEMPLATE_INSTANCE_TYPE

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

MARKET_TYPES: Mapping[str, str] = {"capacity-block": "capacity-block"}
"""Pool capacity -> botocore ec2 ``MarketType`` of the template (none for on-demand reservations)."""


def needs_template(spec: GpuPoolSpec) -> bool:
    """Whether the pool's node group runs on a launch template gpuready makes."""
    return spec.capacity in OWNED_TEMPLATE


def carries_instance_type(spec: GpuPoolSpec) -> bool:
    """Whether the template, not the node group, names the instance type (a Capacity Block)."""
    return spec.capacity in TEMPLATE_INSTANCE_TYPE


def reservation_specification(spec: GpuPoolSpec) -> dict[str, Any]:
    """``capacity_reservation_specification``: the reservation target, or the ``open`` preference."""
    reservation = spec.reservation
    if reservation is None:
        return {}
    if reservation.ids:
        return {"capacity_reservation_target": {"capacity_reservation_id": reservation.ids[0]}}
    if reservation.resource_group_arn:
        arn = reservation.resource_group_arn
        return {"capacity_reservation_target": {"capacity_reservation_resource_group_arn": arn}}
    return {"capacity_reservation_preference": "open"}


def block_device_mappings(spec: GpuPoolSpec) -> list[dict[str, Any]]:
    """The root / data volume at ``diskSizeGb`` (none given: the AMI's default volume)."""
    if spec.disk_size_gb is None:
        return []
    device = DATA_DEVICES[spec.image_family]
    ebs = {"volume_size": spec.disk_size_gb, "volume_type": "gp3", "encrypted": "true"}
    return [{"device_name": device, "ebs": ebs}]


def template_args(spec: GpuPoolSpec) -> dict[str, Any]:
    """The ``aws.ec2.LaunchTemplate`` arguments of the pool's capacity (empty when it needs no template)."""
    if not needs_template(spec):
        return {}
    args: dict[str, Any] = {"capacity_reservation_specification": reservation_specification(spec)}
    market = MARKET_TYPES.get(spec.capacity)
    if market is not None:
        args["instance_market_options"] = {"market_type": market}
        args["instance_type"] = spec.resolved.gpu.instance_type
    disks = block_device_mappings(spec)
    if disks:
        args["block_device_mappings"] = disks
    return args
