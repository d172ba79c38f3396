"""A Karpenter NodePool's ``spec.limits`` that let its maximum of nodes launch whatever the sharing. Pure.

Karpenter subtracts from ``spec.limits`` each node's *reported* capacity once it is initialized (kubernetes-sigs/
karpenter v1.14.1 ``pkg/controllers/state/statenode.go`` L359-375: ``Capacity`` is the Node's status, the
NodeClaim's only while uninitialized) and launches an instance type only while its capacity fits what remains
(``pkg/controllers/provisioning/scheduling/scheduler.go`` L1069-1085 ``filterByRemainingResources``; the instance
type's capacity is physical GPUs). A time-sliced, MPS or MIG-single node reports ``GPUs x shares`` of
``nvidia.com/gpu``, so a limit of ``maxSize`` x physical GPUs stops the pool after one node or two. gpuready sets
the GPU limit in reported units (``nodes`` x what one node reports, at least its physical GPUs) and bounds the
nodes with Karpenter's ``nodes`` limit (every node counts 1: statenode.go L370-374; enforced before instance types
are filtered, scheduler.go L711-715).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gpuready.core.node_names import GPU_RESOURCE

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

NODES = "nodes"
"""Karpenter's node-count resource (kubernetes-sigs/karpenter v1.14.1 ``pkg/utils/resources/resources.go`` L27)."""
LIMITS_CITE = (
    "kubernetes-sigs/karpenter v1.14.1 pkg/controllers/state/statenode.go L359-375, "
    "pkg/controllers/provisioning/scheduling/scheduler.go L711-715 and L1069-1085"
)


def reported_gpus(spec: GpuPoolSpec) -> int:
    """``nvidia.com/gpu`` one initialized node of the pool reports (0 when its GPUs are advertised otherwise)."""
    return spec.resolved.advertiser.allocatable_per_node(spec).get(GPU_RESOURCE, 0)


def node_pool_limits(spec: GpuPoolSpec, physical_limit: int) -> dict[str, str]:
    """``spec.limits`` for a pool whose GPU bound is ``physical_limit`` GPUs (``gpuLimit``, else maxSize nodes):
    that many whole nodes, each counted at what it reports."""
    gpus = spec.resolved.gpu.gpus
    nodes = physical_limit // gpus
    return {GPU_RESOURCE: str(nodes * max(reported_gpus(spec), gpus)), NODES: str(nodes)}


def nodes_within(limits: Mapping[str, object], instance_gpus: int, reported: int, ceiling: int) -> int:
    """How many nodes of ``instance_gpus`` physical GPUs, each reporting ``reported`` once initialized, Karpenter
    launches under ``limits`` before the GPU or the node limit stops it (at most ``ceiling``)."""
    most = ceiling
    node_limit = _quantity(limits.get(NODES))
    if node_limit is not None:
        most = min(most, node_limit)
    gpu_limit = _quantity(limits.get(GPU_RESOURCE))
    if gpu_limit is not None:
        if gpu_limit < instance_gpus:
            return 0
        if reported > 0:
            most = min(most, (gpu_limit - instance_gpus) // reported + 1)
    return max(most, 0)


def _quantity(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return int(value) if isinstance(value, str) and value.isdigit() else None
