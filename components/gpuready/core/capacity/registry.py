"""The provisioners gpuready knows, and the one place that decides which one a pool uses. Pure.

Each cloud profile lists its provisioners as objects (``CloudProfile.provisioners``: key -> pure implementation;
the first is the cloud's default), so the core never imports a cloud package (the profile is loaded by
``clouds.registry``). Adding a way of making capacity (Karpenter, EKS Auto Mode, AKS NAP, GKE ComputeClass: issue
#14) is one module in the cloud's package plus one entry in its profile's ``provisioners``; the pool's choice (its
``provisioner`` key, checked by ``capacity.rules``) is made in ``provisioner_for`` only, once, when the pool is
validated (``ResolvedPool.provisioner``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from gpuready.core.capacity.interface import Provisioner
from gpuready.core.clouds.registry import cloud_profile, cloud_profiles, profiles_for_type
from gpuready.core.clouds.type_scope import TypeScope

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec


def provisioner_named(cloud: str, key: str) -> Provisioner:
    """The provisioner registered as ``key`` on ``cloud``; raises ``KeyError`` naming the known ones."""
    known = cloud_profile(cloud).provisioners
    provisioner = known.get(key)
    if provisioner is None:
        raise KeyError(f"no provisioner {key!r} on {cloud!r}; known: {', '.join(known) or 'none'}")
    return _checked(cloud, key, provisioner)


def _checked(cloud: str, key: str, provisioner: object) -> Provisioner:
    if not isinstance(provisioner, Provisioner) or (provisioner.cloud, provisioner.key) != (cloud, key):
        raise TypeError(f"{provisioner!r} is not the {cloud!r} provisioner {key!r}")
    return provisioner


def provisioner_for(spec: GpuPoolSpec) -> Provisioner:
    """How ``spec``'s capacity is made: the one place a pool's provisioner is decided (its ``provisioner`` key, else
    the cloud's default; ``capacity.rules`` has refused any other key when the spec was made)."""
    registered = spec.profile.provisioners
    return registered[spec.provisioner or next(iter(registered))]


def provisioners() -> tuple[Provisioner, ...]:
    """Every registered provisioner, cloud by cloud in registry order."""
    return tuple(_checked(p.name, key, made) for p in cloud_profiles() for key, made in p.provisioners.items())


def provisioners_for_type(token: str) -> tuple[Provisioner, ...]:
    """The provisioners of the clouds that may own type token ``token`` (loading those clouds only)."""
    return tuple(_checked(p.name, key, made) for p in profiles_for_type(token) for key, made in p.provisioners.items())


def provisioner_types(tokens: Callable[[Provisioner], Iterable[str]]) -> TypeScope:
    """The type tokens some provisioner names (``tokens(provisioner)``), decided per token by the provisioners of
    the clouds that may own it: a plan's resources load no other cloud."""
    return TypeScope(
        lambda token: any(token in tokens(p) for p in provisioners_for_type(token)),
        lambda: {token for p in provisioners() for token in tokens(p)},
    )


def component_provisioners() -> tuple[Provisioner, ...]:
    """Every provisioner, as its component is registered (``Provisioner.component``): node pools first, then the
    elastic pools, cloud by cloud (the order of the component package's schema)."""
    return tuple(sorted(provisioners(), key=lambda p: p.elastic))
