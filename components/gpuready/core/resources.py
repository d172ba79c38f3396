"""What a pool's nodes advertise and workloads request, answered by the pool's advertiser. Pure.

The facts live in ``gpuready.core.advertisers`` (today ``extended_resources``: ``nvidia.com/gpu``,
``nvidia.com/gpu.shared``, ``nvidia.com/mig-<profile>``); these functions ask the pool's advertiser
(``advertisers.registry.advertiser_for``), so callers never assume one way of advertising.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec


def allocatable_per_node(spec: GpuPoolSpec) -> dict[str, int]:
    """Resource name -> units each Ready node of the pool should advertise."""
    return spec.resolved.advertiser.allocatable_per_node(spec)


def resource_names(spec: GpuPoolSpec) -> list[str]:
    """Names a workload requests on this pool, the one with most units first."""
    return spec.resolved.advertiser.resource_names(spec)


def primary_resource(spec: GpuPoolSpec) -> str:
    """The resource most workloads on this pool request."""
    return spec.resolved.advertiser.primary_resource(spec)
