"""The labels AKS puts on GPU nodes, which verification reads (``CloudProfile.node_labels``). Pure.

AKS labels the nodes of an N-series (NVIDIA) pool ``kubernetes.azure.com/accelerator=nvidia`` (shared reference
clouds.md section 3.2).
"""

from __future__ import annotations

from gpuready.core.clouds.cloud_node_labels import CloudNodeLabels

LABEL_AKS_ACCELERATOR = "kubernetes.azure.com/accelerator"
AKS_ACCELERATOR_NVIDIA = "nvidia"

NODE_LABELS = CloudNodeLabels(gpu_marker=(LABEL_AKS_ACCELERATOR, AKS_ACCELERATOR_NVIDIA))
