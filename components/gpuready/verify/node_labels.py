"""Label and resource keys that other parties write on GPU nodes, which verification reads. Pure constants.

Sources: NVIDIA GPU Feature Discovery and GPU Operator labels (k8s-device-plugin v0.20.0 ``internal/lm``,
gpu-operator ``state_manager.go``), NFD's PCI vendor label and MIG manager's state label (shared reference
nvidia.md section 4). The labels each cloud puts on its GPU nodes are its own (``cloud_node_labels``: every cloud's
``CloudProfile.node_labels``); gpuready's own keys live in ``gpuready.core.scheduling``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from gpuready.core.clouds.cloud_node_labels import CloudNodeLabels
from gpuready.core.clouds.registry import cloud_profiles
from gpuready.core.scheduling import LABEL_DEPLOY_PREFIX

NFD_NVIDIA_PCI_LABELS: tuple[str, ...] = (
    "feature.node.kubernetes.io/pci-10de.present",
    "feature.node.kubernetes.io/pci-0302_10de.present",
    "feature.node.kubernetes.io/pci-0300_10de.present",
)
"""NFD's NVIDIA PCI vendor labels; the GPU Operator accepts all three spellings."""
LABEL_GFD_PRODUCT = "nvidia.com/gpu.product"
LABEL_GFD_COUNT = "nvidia.com/gpu.count"
LABEL_GFD_REPLICAS = "nvidia.com/gpu.replicas"
LABEL_GFD_SHARING_STRATEGY = "nvidia.com/gpu.sharing-strategy"
LABEL_GFD_MIG_STRATEGY = "nvidia.com/mig.strategy"
LABEL_MIG_CONFIG_STATE = "nvidia.com/mig.config.state"
LABEL_DEPLOY_DEVICE_PLUGIN = LABEL_DEPLOY_PREFIX + "device-plugin"
LABEL_INSTANCE_TYPE = "node.kubernetes.io/instance-type"
LABEL_INSTANCE_TYPE_BETA = "beta.kubernetes.io/instance-type"
LIFECYCLE_TAINT_PREFIX = "node.kubernetes.io/"
"""Taints the node lifecycle controller adds and removes itself (not-ready, unreachable, ...)."""
MIG_INVALID_SUFFIX = "-MIG-INVALID"
"""GFD's product suffix when a node's MIG layout does not fit the ``single`` strategy."""


@cache
def cloud_node_labels() -> tuple[CloudNodeLabels, ...]:
    """Every cloud's node labels (a node does not say which cloud made it), in the registry's order."""
    return tuple(profile.node_labels for profile in cloud_profiles())


@cache
def accelerator_labels() -> tuple[CloudNodeLabels, ...]:
    """The clouds whose nodes carry a label naming their GPU model."""
    return tuple(labels for labels in cloud_node_labels() if labels.accelerator)


def partition_labels(node_labels: Mapping[str, str]) -> CloudNodeLabels | None:
    """The labels of the cloud whose MIG partition label the node carries, else of the first cloud with one, else
    None."""
    clouds = [c for c in cloud_node_labels() if c.partition_size]
    return next((c for c in clouds if c.partition_size in node_labels), clouds[0] if clouds else None)


@cache
def gpu_markers() -> tuple[tuple[str, str], ...]:
    """(label, value) pairs the clouds mark their GPU nodes with."""
    return tuple(labels.gpu_marker for labels in cloud_node_labels() if labels.gpu_marker is not None)
