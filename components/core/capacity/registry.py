"""The provisioners gpuready knows, by (cloud, key), and the one place that decides which one a pool uses. Pure.

Each entry names the module of a pure implementation (its ``PROVISIONER``), imported on first use as entry points
are, so the core never imports a cloud package statically. Adding a way of making capacity (Karpenter, EKS Auto
Mode, AKS NAP, GKE ComputeClass: issue #14) is one module in the cloud's package plus one entry in ``ENTRIES``;
the pool's choice is made in ``provisioner_for`` only.
"""

from __future__ import annotations

import importlib

from components.core.capacity.interface import Provisioner
from components.core.specs import GpuPoolSpec

ENTRIES: dict[tuple[str, str], str] = {
    ("eks", "node-group"): "components.eks.capacity",
    ("aks", "node-pool"): "components.aks.capacity",
    ("gke", "node-pool"): "components.gke.capacity",
}
"""(cloud, provisioner key) -> module holding the implementation as ``PROVISIONER``."""
DEFAULT_PROVISIONER: dict[str, str] = {"eks": "node-group", "aks": "node-pool", "gke": "node-pool"}
"""The provisioner a pool of each cloud uses unless it names one."""


def provisioner_named(cloud: str, key: str) -> Provisioner:
    """The provisioner registered as ``key`` on ``cloud``; raises ``KeyError`` naming the known ones."""
    try:
        module = ENTRIES[(cloud, key)]
    except KeyError:
        known = ", ".join(k for c, k in ENTRIES if c == cloud) or "none"
        raise KeyError(f"no provisioner {key!r} on {cloud!r}; known: {known}") from None
    provisioner = importlib.import_module(module).PROVISIONER
    if not isinstance(provisioner, Provisioner) or (provisioner.cloud, provisioner.key) != (cloud, key):
        raise TypeError(f"{module}.PROVISIONER is not the {cloud!r} provisioner {key!r}")
    return provisioner


def provisioner_for(spec: GpuPoolSpec) -> Provisioner:
    """How ``spec``'s capacity is made: the one place a pool's provisioner is decided (the cloud's default today)."""
    return provisioner_named(spec.cloud, DEFAULT_PROVISIONER[spec.cloud])


def provisioners() -> tuple[Provisioner, ...]:
    """Every registered provisioner, in registration order."""
    return tuple(provisioner_named(cloud, key) for cloud, key in ENTRIES)
