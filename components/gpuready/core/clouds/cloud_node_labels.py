"""The labels a cloud puts on its GPU nodes that verification reads (``CloudNodeLabels``). Pure.

Each cloud's are a row in its package (``<cloud>/node_labels.py``, ``NodeSetup.node_labels``); verification asks
every cloud's, since a node read from a cluster does not say which cloud made it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.catalog.gpus import GpuModel


def _no_model(value: str) -> GpuModel | None:
    return None


def _no_name(model: GpuModel) -> str | None:
    return None


@record(frozen=True, slots=True)
class CloudNodeLabels:
    """What a cloud's node labels say about the node's GPUs ("" or None: the cloud sets no such label)."""

    accelerator: str = ""
    """The label whose value names the node's GPU model (set from the pool's accelerator)."""
    accelerator_origin: str = ""
    """Who sets that label from what, for messages (``GKE sets this label from the node pool's accelerator``)."""
    accelerator_model: Callable[[str], GpuModel | None] = _no_model
    """The GPU model a value of that label names, None for a value the catalog does not know."""
    accelerator_value: Callable[[GpuModel], str | None] = _no_name
    """The value of that label for a GPU model, None when the cloud has no name for it."""
    gpu_marker: tuple[str, str] | None = None
    """(label, value) marking a node of a GPU pool, whatever the GPU (``kubernetes.azure.com/accelerator=nvidia``)."""
    partition_size: str = ""
    """The label naming the MIG profile the cloud partitions each GPU into."""
    partition_cause: str = ""
    """Why a node's partition label names another profile than its pool's (the cloud's pool setting)."""
    partition_fix: str = ""
    """How to fix that, in the cloud's own commands."""
    shared_clients: str = ""
    """The label counting the clients that share each GPU (time-sharing or MPS the cloud delivers)."""
    sharing_strategy: str = ""
    """The label naming how the cloud shares each GPU (``time-sharing``, ``mps``)."""
