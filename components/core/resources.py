"""Which extended resources a pool's nodes advertise, and how many per node. Pure.

Rules (NVIDIA k8s-device-plugin v0.20.0 README and ``internal/rm/rm.go``; GKE gpus-multi and
timesharing docs): time-slicing and MPS advertise ``GPUs x replicas`` of ``nvidia.com/gpu`` (or
``nvidia.com/gpu.shared`` with ``renameByDefault``); MIG ``single`` advertises every MIG device as
``nvidia.com/gpu``; MIG ``mixed`` advertises ``nvidia.com/mig-<profile>`` per profile (``+`` becomes
``.``); GKE always advertises MIG partitions as ``nvidia.com/gpu``.
"""

from __future__ import annotations

from components.core import sharing_plan
from components.core.catalog import mig_profiles
from components.core.scheduling import GPU_RESOURCE, SHARED_GPU_RESOURCE
from components.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning


def allocatable_per_node(spec: GpuPoolSpec) -> dict[str, int]:
    """Extended resource name -> units each Ready node of the pool should advertise."""
    gpus = spec.resolved.gpus
    sharing = spec.sharing
    if sharing is None:
        return {GPU_RESOURCE: gpus}
    if isinstance(sharing, GpuSharing):
        name = SHARED_GPU_RESOURCE if sharing.rename_by_default else GPU_RESOURCE
        return {name: gpus * sharing.replicas}
    return _mig_allocatable(spec, sharing)


def resource_names(spec: GpuPoolSpec) -> list[str]:
    """Names a workload requests on this pool, the one with most units first."""
    allocatable = allocatable_per_node(spec)
    return sorted(allocatable, key=lambda name: (-allocatable[name], name))


def primary_resource(spec: GpuPoolSpec) -> str:
    """The resource most workloads on this pool request."""
    return resource_names(spec)[0]


def _mig_allocatable(spec: GpuPoolSpec, mig: MigPartitioning) -> dict[str, int]:
    table = spec.resolved.model.mig
    if table is None:
        raise ValueError(f"pool {spec.name!r}: MIG on a GPU without MIG passed validation")
    layout = sharing_plan.mig_layout(table, mig)
    gpus = spec.resolved.gpus
    if mig.strategy == "single":  # GKE-native MIG is validated to be single
        return {GPU_RESOURCE: gpus * sum(layout.values())}
    return {mig_profiles.mig_resource_name(p): gpus * n for p, n in sorted(layout.items())}
