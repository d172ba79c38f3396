"""What a pool offers the scheduler: units per resource name at its smallest and largest size. Pure.

The units per node are the pool's advertiser's (``allocatable_per_node`` for extended resources: whole GPUs,
time-slicing / MPS replicas, each MIG profile; ``devices_per_node`` for DRA DeviceClasses), so a count here is
always what ``check`` / ``verify`` expect a node to advertise. The node bounds are the provisioner's
(``bounds``), cut by its GPU limit where it sets one (a Karpenter NodePool's ``limits``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec


@record(frozen=True, kw_only=True, slots=True)
class SchedulableCapacity:
    """A pool's schedulable units per node and its node bounds."""

    per_node: Mapping[str, int]
    """Resource name (or DRA DeviceClass) -> units each Ready node offers."""
    min_nodes: int
    """Nodes kept warm: what is schedulable without waiting for a scale-up."""
    max_nodes: int
    """Most nodes the pool can have (its ``maxSize``, cut by a provisioner's GPU limit)."""

    @property
    def at_min(self) -> dict[str, int]:
        return capacity_at(self.per_node, self.min_nodes)

    @property
    def at_max(self) -> dict[str, int]:
        return capacity_at(self.per_node, self.max_nodes)


def schedulable_per_node(spec: GpuPoolSpec) -> dict[str, int]:
    """Resource name or DeviceClass -> units each node of the pool offers workloads (the advertiser's facts)."""
    advertiser = spec.resolved.advertiser
    return {**advertiser.allocatable_per_node(spec), **advertiser.devices_per_node(spec)}


def schedulable_capacity(spec: GpuPoolSpec) -> SchedulableCapacity:
    """The capacity of a validated pool spec."""
    provisioner = spec.resolved.provisioner
    bounds = provisioner.bounds(spec)
    most = bounds.max
    limit = provisioner.gpu_limit(spec)
    if limit is not None and spec.resolved.gpu.gpus > 0:
        most = min(most, limit // spec.resolved.gpu.gpus)
    return SchedulableCapacity(per_node=schedulable_per_node(spec), min_nodes=bounds.min, max_nodes=most)


def capacity_at(per_node: Mapping[str, int], nodes: int) -> dict[str, int]:
    """Units per resource name on ``nodes`` nodes, sorted by name."""
    return {name: units * nodes for name, units in sorted(per_node.items())}
