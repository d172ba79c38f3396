"""Label and resource keys that other parties write on GPU nodes, which verification reads. Pure constants.

Sources: NVIDIA GPU Feature Discovery and GPU Operator labels (k8s-device-plugin v0.20.0 ``internal/lm``,
gpu-operator ``state_manager.go``), NFD's PCI vendor label, MIG manager's state label, and the labels EKS,
AKS and GKE put on GPU nodes (shared reference nvidia.md section 4, clouds.md sections 1.3, 3.2 and 4.2).
gpuready's own keys live in ``gpuready.core.scheduling``.
"""

from __future__ import annotations

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
LABEL_GKE_ACCELERATOR = "cloud.google.com/gke-accelerator"
LABEL_GKE_PARTITION_SIZE = "cloud.google.com/gke-gpu-partition-size"
LABEL_GKE_MAX_SHARED_CLIENTS = "cloud.google.com/gke-max-shared-clients-per-gpu"
LABEL_GKE_SHARING_STRATEGY = "cloud.google.com/gke-gpu-sharing-strategy"
LABEL_AKS_ACCELERATOR = "kubernetes.azure.com/accelerator"
AKS_ACCELERATOR_NVIDIA = "nvidia"
LIFECYCLE_TAINT_PREFIX = "node.kubernetes.io/"
"""Taints the node lifecycle controller adds and removes itself (not-ready, unreachable, ...)."""
MIG_INVALID_SUFFIX = "-MIG-INVALID"
"""GFD's product suffix when a node's MIG layout does not fit the ``single`` strategy."""
