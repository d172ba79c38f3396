"""GPUs advertised as extended resources by the NVIDIA device plugin or the GPU Operator. Pure.

Rules (NVIDIA k8s-device-plugin v0.20.0 README and ``internal/rm/rm.go``; GKE gpus-multi and
timesharing docs): time-slicing and MPS advertise ``GPUs x replicas`` of ``nvidia.com/gpu`` (or
``nvidia.com/gpu.shared`` with ``renameByDefault``); MIG ``single`` advertises every MIG device as
``nvidia.com/gpu``; MIG ``mixed`` advertises ``nvidia.com/mig-<profile>`` per profile (``+`` becomes
``.``); GKE always advertises MIG partitions as ``nvidia.com/gpu``.

Kubernetes rules for the requests (kubernetes.io "Schedule GPUs" and "Resource Management for Pods and
Containers", "Consuming extended resources"): extended resources are whole numbers, cannot be overcommitted,
and a GPU request must equal its limit, so a container gets the same integer as both (``extended_requests``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from gpuready.core import sharing_plan
from gpuready.core.advertisers import extended_requests
from gpuready.core.advertisers.interface import Advertiser, GpuRequest
from gpuready.core.node_names import GPU_RESOURCE, SHARED_GPU_RESOURCE
from gpuready.core.pool_parts import DEFAULT_ADVERTISE, GpuSharing, MigPartitioning

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

MIG_RESOURCE_PREFIX = "nvidia.com/mig-"
"""Prefix of the per-profile resources of MIG ``mixed`` (``mig_resource_name``)."""


def mig_resource_name(profile: str) -> str:
    """Resource a profile is advertised as under the ``mixed`` strategy (k8s-device-plugin rm.go)."""
    return MIG_RESOURCE_PREFIX + profile.replace("+", ".")


class ExtendedResources(Advertiser):
    """``nvidia.com/gpu``, ``nvidia.com/gpu.shared`` and ``nvidia.com/mig-<profile>`` extended resources."""

    key: ClassVar[str] = "extended-resources"
    pool_value: ClassVar[str] = DEFAULT_ADVERTISE

    def allocatable_per_node(self, spec: GpuPoolSpec) -> dict[str, int]:
        gpus = spec.resolved.gpu.gpus
        sharing = spec.sharing
        if sharing is None:
            return {GPU_RESOURCE: gpus}
        if isinstance(sharing, GpuSharing):
            name = SHARED_GPU_RESOURCE if sharing.rename_by_default else GPU_RESOURCE
            return {name: gpus * sharing.replicas}
        return _mig_allocatable(spec, sharing)

    def request(
        self,
        spec: GpuPoolSpec,
        gpus: object,
        resource: str | None,
        *,
        mig_profile: str | None = None,
        selectors: Sequence[object] = (),
    ) -> GpuRequest:
        """Whole units of an extended resource; a MIG profile is chosen by the resource's name
        (``nvidia.com/mig-<profile>``) and devices cannot be chosen by attribute, so both are refused."""
        allocatable = self.allocatable_per_node(spec)
        name = resource if resource is not None else self.primary_resource(spec)
        return extended_requests.whole_units_request(
            spec,
            allocatable,
            name,
            gpus,
            claims_only=extended_requests.claim_only_problems(spec, mig_profile, selectors),
        )

    def container_resources(self, request: GpuRequest) -> dict[str, Any]:
        units = {request.resource: request.count}
        return {"limits": dict(units), "requests": dict(units)}

    def is_gpu_resource(self, name: str) -> bool:
        return name in (GPU_RESOURCE, SHARED_GPU_RESOURCE) or name.startswith(MIG_RESOURCE_PREFIX)

    def shows_partitions(self, capacity: Mapping[str, int]) -> bool:
        return any(name.startswith(MIG_RESOURCE_PREFIX) for name in capacity)

    def inferred_allocatable(
        self,
        capacity: Mapping[str, int],
        gpus: int | None,
        replicas: int | None,
        *,
        mig: bool,
        renamed: bool | None = None,
        mig_layout: Mapping[str, int] | None = None,
        mig_strategy: str = "single",
    ) -> dict[str, int]:
        if not gpus:
            return {}
        if mig:
            return mig_units(gpus, mig_layout, mixed=mig_strategy == "mixed") if mig_layout else {}
        shared = replicas is not None and (renamed if renamed is not None else SHARED_GPU_RESOURCE in capacity)
        return {SHARED_GPU_RESOURCE if shared else GPU_RESOURCE: gpus * (replicas or 1)}


def mig_units(gpus: int, layout: Mapping[str, int], *, mixed: bool) -> dict[str, int]:
    """What ``gpus`` GPUs with ``layout`` (profile -> instances per GPU) advertise: every instance as
    ``nvidia.com/gpu`` (``single``), or per profile as ``nvidia.com/mig-<profile>`` (``mixed``)."""
    if not mixed:
        return {GPU_RESOURCE: gpus * sum(layout.values())}
    return {mig_resource_name(p): gpus * n for p, n in sorted(layout.items())}


def _mig_allocatable(spec: GpuPoolSpec, mig: MigPartitioning) -> dict[str, int]:
    table = spec.resolved.gpu.model.mig
    if table is None:
        raise ValueError(f"pool {spec.name!r}: MIG on a GPU without MIG passed validation")
    layout = sharing_plan.mig_layout(table, mig)
    return mig_units(spec.resolved.gpu.gpus, layout, mixed=mig.strategy == "mixed")  # GKE-native MIG is single


EXTENDED_RESOURCES = ExtendedResources()
"""The one instance (advertisers hold no state)."""
