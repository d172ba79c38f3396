"""Which instance types, VM sizes and machine types of any cloud carry NVIDIA GPUs. Pure.

The pool readers recognise a GPU pool of any program by its instance type, looked up in gpuready's catalog
(``gpuready.core.catalog``) with a fallback on GPU instance families the catalog does not list.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from gpuready.core.catalog.instance_types import InstanceType
from gpuready.core.clouds.registry import CLOUDS, Cloud, cloud_profile

EKS_EXTRA_GPU_FAMILIES = frozenset({"p3", "p6e-gb200"})
"""NVIDIA EC2 families the catalog does not list yet (shared reference nvidia.md 5, clouds.md 8)."""
GKE_EXTRA_GPU_PREFIXES = ("g4-", "a4x-")
"""GCE GPU machine families the catalog does not list yet (G4 RTX PRO 6000, A4X GB200; clouds.md 4.1)."""
AKS_NVIDIA_SIZE = re.compile(r"^standard_n[cd](?!.*mi300)", re.IGNORECASE)
"""Azure NC/ND sizes are NVIDIA GPU VMs, except the AMD MI300X ND v5 (azure-compute-docs gpu-accelerated)."""

EKS_FAMILIES = frozenset(name.split(".")[0] for name in cloud_profile("eks").instance_types) | EKS_EXTRA_GPU_FAMILIES
"""NVIDIA EC2 instance families (``g6``, ``p5``)."""
GKE_PREFIXES = (
    tuple(sorted({name.rsplit("-", 1)[0] + "-" for name in cloud_profile("gke").instance_types}))
    + GKE_EXTRA_GPU_PREFIXES
)
"""GCE GPU machine type prefixes (``a2-highgpu-``, ``g2-standard-``)."""
_ANY_FOLDED: Mapping[str, tuple[Cloud, InstanceType]] = {
    name.lower(): (cloud, t) for cloud in CLOUDS for name, t in cloud_profile(cloud).instance_types.items()
}
"""Every catalog instance type by lowercase name (names never collide across clouds), with its cloud."""


def gpu_instance_type(name: str) -> tuple[Cloud, InstanceType | None] | None:
    """The cloud and catalog entry of a GPU instance type / VM size / machine type of any cloud (the entry None for a
    GPU family the catalog does not list), or None when it is not a known GPU type."""
    listed = _ANY_FOLDED.get(name.lower())
    if listed is not None:
        return listed
    if AKS_NVIDIA_SIZE.match(name):
        return "aks", None
    if "." in name and name.split(".", maxsplit=1)[0] in EKS_FAMILIES:
        return "eks", None
    return ("gke", None) if name.startswith(GKE_PREFIXES) else None


def eks_gpu_family(family: str) -> bool:
    """Whether an EC2 instance family (``g6``, ``p5``) is an NVIDIA GPU family."""
    return family in EKS_FAMILIES


def gke_gpu_family(family: str) -> bool:
    """Whether a GCE machine family (``g2``, ``a3``) is a GPU family."""
    return any(prefix.startswith(family + "-") for prefix in GKE_PREFIXES)
