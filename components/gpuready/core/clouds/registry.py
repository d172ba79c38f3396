"""The clouds gpuready knows: one entry per cloud, naming the module of its profile. Pure.

The core, the GPU stack planner, verification, the policy pack and the stack program ask
``cloud_profile(name)`` for whatever differs by cloud; they never compare a cloud's name. A profile lives in its
cloud's own package (``components/gpuready/<cloud>/profile.py``, pure) and is imported on first use by module path, as
entry points are, so the core has no static import of any cloud package (import-linter keeps it so).

Adding a cloud: one package with a ``profile.py`` defining ``PROFILE``, one entry in ``ENTRIES`` and its name in
``Cloud``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal, cast, get_args

if TYPE_CHECKING:
    from gpuready.core.clouds.profile import CloudProfile

Cloud = Literal["eks", "aks", "gke"]
"""A cloud's registry name, as ``gpuready:cloud`` spells it."""

ENTRIES: Mapping[Cloud, str] = {
    "eks": "gpuready.eks.profile",
    "aks": "gpuready.aks.profile",
    "gke": "gpuready.gke.profile",
}
"""Cloud name -> module defining its ``PROFILE``, in the order clouds are listed to users."""

CLOUDS: tuple[Cloud, ...] = tuple(ENTRIES)

_loaded: dict[str, CloudProfile] = {}


def cloud_profile(name: str) -> CloudProfile:
    """The profile of cloud ``name``; ``KeyError`` naming the known clouds for any other name."""
    profile = _loaded.get(name)
    if profile is not None:
        return profile
    module = ENTRIES.get(cast("Cloud", name))
    if module is None:
        raise KeyError(f"no cloud {name!r}; known: {', '.join(CLOUDS)}")
    loaded: CloudProfile = importlib.import_module(module).PROFILE
    _loaded[name] = loaded
    return loaded


def cloud_profiles() -> tuple[CloudProfile, ...]:
    """Every cloud's profile, in registry order."""
    return tuple(cloud_profile(name) for name in CLOUDS)


assert set(get_args(Cloud)) == set(ENTRIES), "Cloud and ENTRIES must name the same clouds"
