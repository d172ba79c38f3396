"""Which instance types, VM sizes and machine types of any cloud carry NVIDIA GPUs. Pure.

The pool readers recognise a GPU pool of any program by its instance type, looked up in gpuready's catalog
(``gpuready.core.catalog``), else asked of each cloud profile (``CloudProfile.unlisted_gpu_type``: the GPU
families the catalog does not list yet are each cloud's facts, in its ``catalog.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from gpuready.core.catalog.instance_types import InstanceType
from gpuready.core.clouds.registry import Cloud, cloud_names, cloud_profile


@cache
def _any_folded() -> Mapping[str, tuple[Cloud, InstanceType]]:
    """Every catalog instance type by lowercase name (names never collide across clouds), with its cloud; built on
    first use, since the profiles load the provisioners whose readers ask it."""
    return {
        name.lower(): (cloud, t) for cloud in cloud_names() for name, t in cloud_profile(cloud).instance_types.items()
    }


def gpu_instance_type(name: str) -> tuple[Cloud, InstanceType | None] | None:
    """The cloud and catalog entry of a GPU instance type / VM size / machine type of any cloud (the entry None for a
    GPU family the catalog does not list), or None when it is not a known GPU type."""
    listed = _any_folded().get(name.lower())
    if listed is not None:
        return listed
    return next(((cloud, None) for cloud in cloud_names() if cloud_profile(cloud).unlisted_gpu_type(name)), None)
