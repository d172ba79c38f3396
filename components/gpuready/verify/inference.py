"""Recognise GPU nodes and infer which GPU they carry, from labels and resources alone. Pure: no I/O.

A node is a GPU node when any of these says so: GPU capacity advertised (any registered advertiser's), NFD's NVIDIA
PCI label, a cloud's accelerator label (``CloudNodeLabels``: GKE's, AKS's), ``nvidia.com/gpu.present=true``, a
gpuready pool label, or an instance type in gpuready's catalog. So a node whose device plugin never started is
still found.
The GPU model comes from the strongest source first: GFD's product label, then a cloud's accelerator label (unless
the machine type has built-in GPUs of another model: a hand-edited label), then the instance type, then the GPU
labels of the elastic provisioner that made the node (Karpenter's ``instance-gpu-name``...; ``provisioned``), then
labels gpuready or SkyPilot wrote earlier. Those provisioner labels also mark a node as a GPU node.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field
from typing import Literal

from gpuready.core.advertisers.registry import is_gpu_resource
from gpuready.core.catalog.gpus import GPU_MODELS, GpuModel
from gpuready.core.catalog.instance_types import InstanceType
from gpuready.core.clouds.registry import cloud_profiles
from gpuready.core.scheduling import LABEL_ACCELERATOR, LABEL_GPU_POOL, LABEL_GPU_PRESENT, LABEL_POOL
from gpuready.record import record
from gpuready.verify.node_labels import (
    LABEL_GFD_PRODUCT,
    LABEL_INSTANCE_TYPE,
    LABEL_INSTANCE_TYPE_BETA,
    NFD_NVIDIA_PCI_LABELS,
    accelerator_labels,
    gpu_markers,
)
from gpuready.verify.nodes import NodeView
from gpuready.verify.provisioned import gpu_label, node_origin, says_gpu

Source = Literal["gfd-product", "gke-accelerator", "instance-type", "provisioner-label", "gpuready-label"]
"""Where a node's GPU model was read from; ``gke-accelerator``: a cloud's accelerator label (``CloudNodeLabels``), a
name kept from when only GKE's was read, since ``gpuready check -o json`` shows it as ``acceleratorSource``."""

_INSTANCE_TYPES_FOLDED: Mapping[str, InstanceType] = {
    name.lower(): entry for profile in cloud_profiles() for name, entry in profile.instance_types.items()
}
"""Every catalog instance type by lowercase name; names never collide across clouds."""
_TOKEN_SPLIT = re.compile(r"[^a-z0-9.]+")
_TRUE_LABELS = (*NFD_NVIDIA_PCI_LABELS, LABEL_GPU_PRESENT, LABEL_GPU_POOL)


@record(frozen=True, slots=True)
class Inference:
    """The GPU model of a node and where that knowledge came from."""

    model: GpuModel
    source: Source
    evidence: str
    """The label value the model was read from (``label=value`` for a provisioner's label)."""
    label: str = field(default="", compare=False)
    """The cloud's accelerator label it was read from (source ``gke-accelerator``), else ""."""


def instance_type_of(view: NodeView) -> str:
    """The node's instance type / VM size / machine type label, or ''."""
    return view.labels.get(LABEL_INSTANCE_TYPE) or view.labels.get(LABEL_INSTANCE_TYPE_BETA) or ""


def catalog_instance_type(view: NodeView) -> InstanceType | None:
    """The catalog entry of the node's instance type (case-insensitive), or None."""
    name = instance_type_of(view)
    return _INSTANCE_TYPES_FOLDED.get(name.lower()) if name else None


def gpu_signals(view: NodeView) -> list[str]:
    """Each reason to believe the node has NVIDIA GPUs, as ``key=value`` text; empty for CPU nodes."""
    labels = view.labels
    signals = [f"capacity {name}={count}" for name, count in sorted(view.capacity.items()) if is_gpu_resource(name)]
    signals += [f"{key}={labels[key]}" for key in NFD_NVIDIA_PCI_LABELS if labels.get(key) == "true"]
    for key, wanted in ((LABEL_GPU_PRESENT, "true"), (LABEL_GPU_POOL, "true"), *gpu_markers()):
        if labels.get(key) == wanted:
            signals.append(f"{key}={wanted}")
    for key in (*(c.accelerator for c in accelerator_labels()), LABEL_POOL):  # empty values: no GPU (skypilot#6274)
        if labels.get(key):
            signals.append(f"{key}={labels[key]}")
    if catalog_instance_type(view) is not None:
        signals.append(f"{LABEL_INSTANCE_TYPE}={instance_type_of(view)}")
    if provisioned := says_gpu(labels):
        signals.append(provisioned)
    return signals


def is_gpu_node(view: NodeView) -> bool:
    """Whether the node has (or should have) NVIDIA GPUs, even if no device plugin advertises them yet.

    Same answer as ``bool(gpu_signals(view))``, without building the texts (it runs for every node).
    """
    labels = view.labels
    return (
        any(is_gpu_resource(name) for name in view.capacity)
        or any(labels.get(key) == "true" for key in _TRUE_LABELS)
        or any(labels.get(key) == wanted for key, wanted in gpu_markers())
        or any(labels.get(c.accelerator) for c in accelerator_labels())
        or bool(labels.get(LABEL_POOL))
        or catalog_instance_type(view) is not None
        or bool(says_gpu(labels))
    )


def model_for_product(product: str) -> GpuModel | None:
    """The catalog model a GFD ``nvidia.com/gpu.product`` value names, preferring the most specific match.

    Several patterns can match one product (``H100`` and ``H100-MEGA`` both match ``NVIDIA-H100-80GB-HBM3``);
    the winner is the model whose key parts all appear in the product, with the most parts.
    """
    candidates = [m for m in GPU_MODELS.values() if m.matches_product(product)]
    if not candidates:
        return None
    tokens = set(_TOKEN_SPLIT.split(product.lower()))

    def specificity(model: GpuModel) -> tuple[bool, int]:
        parts = model.key.split("-")
        return all(p in tokens for p in parts), len(parts)

    return max(candidates, key=specificity)


def infer_accelerator(view: NodeView) -> Inference | None:
    """The node's GPU model from the strongest available source, or None when nothing names it."""
    labels = view.labels
    own = labels.get(LABEL_ACCELERATOR, "")
    product = labels.get(LABEL_GFD_PRODUCT, "")
    if product and (model := model_for_product(product)) is not None:
        labeled = GPU_MODELS.get(own)  # keep a label that is a valid reading of an ambiguous product
        if labeled is not None and labeled.matches_product(product):
            model = labeled
        return Inference(model, "gfd-product", product)
    listed = catalog_instance_type(view)
    for cloud in accelerator_labels():
        accelerator = labels.get(cloud.accelerator, "")
        model = cloud.accelerator_model(accelerator) if accelerator else None
        if model is not None and (listed is None or listed.gpu == model.key):  # built-in GPUs outrank a label
            return Inference(model, "gke-accelerator", accelerator, cloud.accelerator)
    if listed is not None:
        return Inference(GPU_MODELS[listed.gpu], "instance-type", listed.name)
    origin = node_origin(labels)
    named = gpu_label(origin, labels) if origin is not None else None
    if named is not None:
        return Inference(named[1], "provisioner-label", named[0])
    if own in GPU_MODELS:
        return Inference(GPU_MODELS[own], "gpuready-label", own)
    return None
