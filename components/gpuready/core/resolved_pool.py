"""What a validated pool resolves to: the plug-ins and facts every later layer reads instead of looking them up. Pure.

Validation (``pool_rules.validate``) returns one ``ResolvedPool``, kept on the spec as ``spec.resolved``: the
pool's provisioner, advertiser, GPUs (from the catalog or the explicit description), image family, who delivers its
sharing and which device plugin its platform brings. The cloud profile is resolved before validation (every rule
reads it, ``GpuPoolSpec.profile``) and carried here too, so downstream code never asks a registry by name again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuready.core.advertisers.registry import advertiser_for
from gpuready.core.capacity.registry import provisioner_for
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.advertisers.interface import Advertiser
    from gpuready.core.capacity.interface import Provisioner
    from gpuready.core.catalog.lookup import ResolvedGpu
    from gpuready.core.clouds.node_setup import Delivery, PlatformAdvertiser
    from gpuready.core.clouds.profile import CloudProfile
    from gpuready.core.specs import GpuPoolSpec


@record(frozen=True, kw_only=True, slots=True)
class ResolvedPool:
    """A validated pool's plug-ins and facts, resolved once."""

    profile: CloudProfile
    """The pool's cloud profile."""
    provisioner: Provisioner
    """How the pool's capacity is made (its ``provisioner`` key, else the cloud's default)."""
    advertiser: Advertiser
    """How the pool's GPUs reach the scheduler (its ``advertise`` key)."""
    gpu: ResolvedGpu
    """GPU model, GPUs per node, CPU architecture of the pool's nodes."""
    image: str
    """The node image family, with the cloud default applied."""
    delivery: Delivery
    """Who applies the pool's sharing or MIG (``none`` without sharing)."""
    platform_plugin: PlatformAdvertiser
    """The device plugin the platform brings (the provisioner's, else the cloud's for the image and driver owner),
    ``nvidia`` when none does."""


def resolve(spec: GpuPoolSpec, gpu: ResolvedGpu) -> ResolvedPool:
    """The resolved pool of ``spec`` once its rules passed (its ``provisioner`` and ``advertise`` keys are known)."""
    profile = spec.profile
    provisioner = provisioner_for(spec)
    image = spec.image if spec.image is not None else profile.images[0]
    return ResolvedPool(
        profile=profile,
        provisioner=provisioner,
        advertiser=advertiser_for(spec),
        gpu=gpu,
        image=image,
        delivery=profile.delivery(spec.driver, spec.sharing_mode),
        platform_plugin=provisioner.platform_advertiser or profile.platform_advertiser(image, spec.driver),
    )
