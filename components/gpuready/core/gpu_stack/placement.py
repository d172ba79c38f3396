"""Where the GPU stack's DaemonSets run: tolerations of the pools' taints, and NFD's node selector. Pure.

Every DaemonSet that must reach GPU nodes tolerates each taint the pools carry with ``operator: Exists``, so
the taint's value never matters (the plugin chart's NFD default tolerates only ``nvidia.com/gpu=present``:
NVIDIA/k8s-device-plugin#734). A Helm list replaces the chart default, so the list is complete. NFD's worker
selects on ``gpuready.io/gpu-pool=true``, a label every pool has from creation, never on a label NFD writes
itself (which a fresh node does not have yet: NVIDIA/aicr#230; runs everywhere otherwise: NVIDIA/gpu-operator#728).
"""

from __future__ import annotations

from collections.abc import Iterable

from gpuready.core.advertisers.dra import DYNAMIC_RESOURCES
from gpuready.core.scheduling import LABEL_ADVERTISE, LABEL_GPU_POOL, tolerated_taints, toleration_for
from gpuready.core.specs import GpuPoolSpec

CRITICAL_ADDONS_ONLY = {"key": "CriticalAddonsOnly", "operator": "Exists"}
"""Kept from the plugin chart's default tolerations (DP values L86-93)."""


def taint_tolerations(pools: Iterable[GpuPoolSpec]) -> list[dict[str, str]]:
    """One ``Exists`` toleration per (taint key, effect) any pool carries, in first-seen order."""
    seen: dict[tuple[str, str], dict[str, str]] = {}
    for pool in pools:
        for taint in tolerated_taints(pool):
            seen.setdefault((taint.key, taint.effect), toleration_for(taint))
    return list(seen.values())


def nfd_node_selector() -> dict[str, str]:
    """The NFD worker's node selector: the GPU pools, by a label set at creation."""
    return {LABEL_GPU_POOL: "true"}


NOT_DRA = {"key": LABEL_ADVERTISE, "operator": "NotIn", "values": [DYNAMIC_RESOURCES.pool_value]}
"""Node-selector expression that keeps a device plugin off DRA pools (nodes without the label match it)."""

DEVICE_PLUGIN_NODE_TERMS: tuple[tuple[str, str], ...] = (
    ("feature.node.kubernetes.io/pci-10de.present", "true"),
    ("feature.node.kubernetes.io/cpu-model.vendor_id", "NVIDIA"),
    ("nvidia.com/gpu.present", "true"),
)
"""The device-plugin chart's own node-affinity terms (DP 0.20.0 values.yaml L64-85: NVIDIA PCI device, NVIDIA CPU
vendor, or ``nvidia.com/gpu.present=true``), each of which gpuready narrows with ``NOT_DRA``."""


def device_plugin_affinity() -> dict[str, object]:
    """The device-plugin chart's affinity (the plugin and GFD): its NVIDIA-node terms, never on a DRA pool."""
    terms = [
        {"matchExpressions": [{"key": key, "operator": "In", "values": [value]}, dict(NOT_DRA)]}
        for key, value in DEVICE_PLUGIN_NODE_TERMS
    ]
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}
