"""The GPU node pools among raw cloud resources, as the provisioners' readers read them. Pure.

Each provisioner owns the reader of the resource it writes (``Provisioner.readers``, collected by
``gpuready.core.capacity.readers``); this module only asks for the cloud pool resources (node groups, agent pools,
node pools) and names them in messages, so the rules apply to any program, not only to gpuready's components.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.capacity.pool_facts import PoolFacts
from gpuready.core.capacity.readers import fixed_types, read_pools, types_reading

POOL_TYPES = fixed_types()
"""Types of the cloud resources that declare GPU pools (the fixed provisioners' readers')."""
IMAGE_TYPES = types_reading("image") & POOL_TYPES
"""Pool resources that name their node image (an EKS node group's ``amiType``)."""
SHARING_TYPES = types_reading("sharing") & POOL_TYPES
"""Pool resources with GPU time-sharing settings of their cloud's own (a GKE node pool's ``gpuSharingConfig``)."""

GpuPool = PoolFacts
"""A GPU pool as the rules read it: the one normalised record (``gpuready.core.capacity.pool_facts``)."""


def gpu_pools(resource_type: str, props: Mapping[str, Any]) -> list[PoolFacts]:
    """The GPU pools a cloud pool resource declares: none, one, or one per GPU profile of a ManagedCluster."""
    return list(read_pools(resource_type, props)) if resource_type in POOL_TYPES else []


def describe(pool: PoolFacts, resource_name: str = "") -> str:
    """How messages name a pool: its resource name, plus the profile inside a ManagedCluster."""
    if pool.where:
        return f"{resource_name} {pool.where.rstrip('.')} ({pool.name})".strip()
    return resource_name or pool.name


def first(items: Sequence[str]) -> str:
    """The first item, or ``""``; for naming an instance type in a message."""
    return items[0] if items else ""
