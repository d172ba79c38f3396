"""The request shapes a pool advertises, and the pending pod and the new node each shape is judged on. Pure.

A shape is what gpuready's workload helper (``core.workload.gpu_workload``) can ask of the pool: one unit of each
extended resource its nodes advertise (whole GPUs, shares, each MIG ``mixed`` profile), or on a DRA pool one device
of each DeviceClass it hands out and one MIG device of each profile it is partitioned into. The pod is the helper's
own pod (its node selector, tolerations, requests and claim), so what is judged is exactly what users deploy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuready.core import scheduling, sharing_plan
from gpuready.core.pool_parts import MigPartitioning
from gpuready.core.scale_path.model import NewNode, PendingPod, ScaleDecider, Shape
from gpuready.core.workload import gpu_workload

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

MIG_DEVICE_CLASS = "mig.nvidia.com"
"""The DRA driver's DeviceClass of MIG devices (``advertisers.dra``)."""


def shapes(spec: GpuPoolSpec) -> tuple[Shape, ...]:
    """Every request shape the pool advertises, one unit each."""
    advertiser = spec.resolved.advertiser
    if advertiser.slice_driver is None:
        return tuple(Shape(resource=name) for name in advertiser.resource_names(spec))
    found: list[Shape] = []
    for device_class in advertiser.resource_names(spec):
        found.append(Shape(resource=device_class, claim=True))
        if device_class == MIG_DEVICE_CLASS and isinstance(spec.sharing, MigPartitioning):
            table = spec.resolved.gpu.model.mig
            layout = sharing_plan.mig_layout(table, spec.sharing) if table is not None else {}
            found.extend(Shape(resource=device_class, claim=True, mig_profile=p) for p in sorted(layout))
    return tuple(found)


def pending_pod(spec: GpuPoolSpec, shape: Shape) -> PendingPod:
    """The workload helper's pod for ``shape`` on ``spec``, as the autoscaler and the scheduler read it."""
    workload = gpu_workload(spec, shape.count, resource=shape.resource, mig_profile=shape.mig_profile)
    fields = workload.pod_spec()
    requests = {k: int(v) for k, v in workload.resources().get("requests", {}).items()}
    profile: tuple[str, ...] = ("profile",) if workload.mig_profile else ()
    attributes = (*profile, *(s.attribute for s in workload.selectors))
    return PendingPod(
        node_selector=dict(fields.get("nodeSelector") or {}),
        tolerations=tuple(fields.get("tolerations") or ()),
        requests=requests,
        device_class=workload.resource if shape.claim else None,
        devices=workload.count if shape.claim else 0,
        selector_attributes=attributes,
    )


def new_node(spec: GpuPoolSpec, decider: ScaleDecider) -> NewNode:
    """A node of the pool once Ready: gpuready's labels and taints plus the autoscaler's and the cloud's own (GKE's
    sharing labels, ``CloudProfile.workload_node_labels``), what its advertiser publishes."""
    advertiser = spec.resolved.advertiser
    cloud = spec.profile.workload_node_labels(spec)
    return NewNode(
        labels={**scheduling.pool_labels(spec), **cloud, **decider.node_labels(spec)},
        taints=(*scheduling.tolerated_taints(spec), *decider.node_taints(spec)),  # with those the cloud may add
        allocatable=advertiser.allocatable_per_node(spec),
        devices=advertiser.devices_per_node(spec),
        mig=isinstance(spec.sharing, MigPartitioning),
        gpus=spec.resolved.gpu.gpus,
    )
