"""The labels GKE puts on GPU nodes, which verification reads (``CloudProfile.node_labels``). Pure.

Sources: GKE "Run GPUs in Standard node pools", "Share GPUs with multiple workloads using GPU time-sharing",
"Run multi-instance GPUs" and "Deploy workloads that use NVIDIA MPS with GPUs" (shared reference clouds.md
section 4.2).
"""

from __future__ import annotations

from gpuready.core.catalog.gpus import GpuModel
from gpuready.core.clouds.cloud_node_labels import CloudNodeLabels
from gpuready.gke.catalog import ACCELERATORS, gpu_for_accelerator

LABEL_GKE_ACCELERATOR = "cloud.google.com/gke-accelerator"
LABEL_GKE_PARTITION_SIZE = "cloud.google.com/gke-gpu-partition-size"
LABEL_GKE_MAX_SHARED_CLIENTS = "cloud.google.com/gke-max-shared-clients-per-gpu"
LABEL_GKE_SHARING_STRATEGY = "cloud.google.com/gke-gpu-sharing-strategy"


def _accelerator_value(model: GpuModel) -> str | None:
    return ACCELERATORS.get(model.key)


NODE_LABELS = CloudNodeLabels(
    accelerator=LABEL_GKE_ACCELERATOR,
    accelerator_origin="GKE sets this label from the node pool's accelerator",
    accelerator_model=gpu_for_accelerator,
    accelerator_value=_accelerator_value,
    partition_size=LABEL_GKE_PARTITION_SIZE,
    partition_cause="the GKE node pool was created with another gpu_partition_size (it cannot change in place)",
    partition_fix="recreate the node pool with the pool's MIG profile; check: gcloud container node-pools describe "
    "<pool>",
    shared_clients=LABEL_GKE_MAX_SHARED_CLIENTS,
    sharing_strategy=LABEL_GKE_SHARING_STRATEGY,
)
