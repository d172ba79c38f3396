"""Which instance types, VM sizes and machine types of any cloud carry NVIDIA GPUs. Pure.

The pool readers recognise a GPU pool of any program by its instance type, looked up in gpuready's catalog
(``gpuready.core.catalog``), else asked of each cloud profile (``CloudProfile.unlisted_gpu_type``: the GPU
families the catalog does not list yet are each cloud's facts, in its ``catalog.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING

from gpuready.core.catalog.instance_types import InstanceType
from gpuready.core.clouds.registry import Cloud, cloud_profiles, profiles_loaded_first

if TYPE_CHECKING:
    from gpuready.core.clouds.profile import CloudProfile


@cache
def _folded(profile: CloudProfile) -> Mapping[str, InstanceType]:
    """A cloud's catalog instance types by lowercase name; built on first use, since the profiles load the
    provisioners whose readers ask it."""
    return {name.lower(): t for name, t in profile.instance_types.items()}


def gpu_instance_type(name: str) -> tuple[Cloud, InstanceType | None] | None:
    """The cloud and catalog entry of a GPU instance type / VM size / machine type of any cloud (the entry None for a
    GPU family the catalog does not list), or None when it is not a known GPU type. Names never collide across
    clouds, so the clouds loaded already are asked first and the others only for a name none of them lists."""
    folded = name.lower()
    listed = next(((p.name, t) for p in profiles_loaded_first() if (t := _folded(p).get(folded)) is not None), None)
    if listed is not None:
        return listed
    return next(((p.name, None) for p in cloud_profiles() if p.unlisted_gpu_type(name)), None)
