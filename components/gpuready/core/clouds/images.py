"""One node image family of a cloud as one record (``ImageFacts``): every question about an image is a look-up
in its cloud's table (``<cloud>/images.py``, ``IMAGES``), never a test of its name. Pure.

The model is pulumi/pulumi-eks ``nodejs/eks/nodes/ami.ts`` ``amiTypeMetadata`` (amiType -> os, gpuSupport,
architecture, ssmParameterName): one table per cloud, keyed by the family ``image:`` names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.catalog.instance_types import Arch
    from gpuready.core.clouds.node_setup import PlatformAdvertiser


@record(frozen=True, kw_only=True, slots=True)
class ImageFacts:
    """What gpuready knows of one node image family of a cloud."""

    title: str
    """How messages name the image (``EKS AL2023 NVIDIA``)."""
    api_names: Mapping[Arch, str]
    """CPU architecture -> the name the cloud's pool API gives the image (EKS AMI type, AKS OS SKU, GKE image
    type)."""
    platform_plugin: PlatformAdvertiser = "nvidia"
    """The device plugin built into the image (``nvidia``: none, NVIDIA's comes from the GPU stack or you)."""
    built_in_operands: tuple[str, ...] = ()
    """GPU Operator operands the image already provides (the operator is told to skip them on its nodes)."""
    operator_driver: bool = True
    """Whether the GPU Operator's driver containers run on the image (``driver: operator``)."""
    driver_versions: tuple[str, ...] = ()
    """Driver versions the cloud installs on the image (``driverVersion``); empty: the cloud takes none."""


def on_every_arch(name: str) -> dict[Arch, str]:
    """``api_names`` of an image the cloud's API names the same whatever the CPU architecture."""
    return {"x86_64": name, "arm64": name}
