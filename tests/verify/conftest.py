"""NodeView builders for the pure verification tests, and a healthy node of the default EKS L4 pool."""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.core.taints import Taint
from gpuready.verify.nodes import NodeView

GPU_TAINT = Taint(key="nvidia.com/gpu", value="present", effect="NoSchedule")

L4_POOL_LABELS: dict[str, str] = {
    "gpuready.io/pool": "gpu",
    "gpuready.io/gpu-pool": "true",
    "nvidia.com/gpu.present": "true",
    "gpuready.io/accelerator": "l4",
    "skypilot.co/accelerator": "l4",
    "gpuready.io/sharing": "none",
}
"""What a node of ``build_spec("eks")`` (pool ``gpu``, one L4 per g6.xlarge) carries, written out by hand."""


def view(
    name: str = "gpu-1",
    *,
    labels: Mapping[str, str] | None = None,
    taints: tuple[Taint, ...] = (),
    capacity: Mapping[str, int] | None = None,
    allocatable: Mapping[str, int] | None = None,
    ready: bool = True,
    unschedulable: bool = False,
    not_ready_reason: str = "",
) -> NodeView:
    """A NodeView; allocatable defaults to the capacity."""
    capacity = dict(capacity or {})
    return NodeView(
        name=name,
        labels=dict(labels or {}),
        taints=taints,
        capacity=capacity,
        allocatable=dict(capacity if allocatable is None else allocatable),
        ready=ready,
        unschedulable=unschedulable,
        not_ready_reason=not_ready_reason,
    )


def l4_node(
    name: str = "gpu-1",
    *,
    drop: tuple[str, ...] = (),
    extra: Mapping[str, str] | None = None,
    taints: tuple[Taint, ...] = (GPU_TAINT,),
    capacity: Mapping[str, int] | None = None,
    allocatable: Mapping[str, int] | None = None,
    ready: bool = True,
) -> NodeView:
    """A healthy node of the default EKS L4 pool, with labels dropped or added and other parts replaced."""
    labels = {**L4_POOL_LABELS, "node.kubernetes.io/instance-type": "g6.xlarge"}
    for key in drop:
        labels.pop(key)
    labels.update(extra or {})
    return view(
        name,
        labels=labels,
        taints=taints,
        capacity={"nvidia.com/gpu": 1} if capacity is None else capacity,
        allocatable=allocatable,
        ready=ready,
        not_ready_reason="" if ready else "KubeletNotReady: container runtime network not ready",
    )
