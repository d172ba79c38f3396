"""The GPU a cloud's accelerator label names, and the name a cloud gives a GPU, read from the registered clouds'
catalogs (``CloudCatalog.accelerator_label`` and ``accelerator_names``). Pure; used by verification, which reads
a node's labels without knowing its cloud."""

from __future__ import annotations

from gpuready.core.catalog.gpus import GPU_MODELS, GpuModel
from gpuready.core.clouds.registry import cloud_profiles


def accelerator_model(label: str, value: str) -> GpuModel | None:
    """The GPU model that ``value`` of the cloud accelerator label ``label`` names, or None."""
    for profile in cloud_profiles():
        if profile.accelerator_label == label:
            key = next((k for k, name in profile.accelerator_names.items() if name == value), None)
            return GPU_MODELS[key] if key is not None else None
    return None


def accelerator_name(label: str, gpu: str) -> str | None:
    """The value of the cloud accelerator label ``label`` for GPU model ``gpu``, or None (the cloud has no name)."""
    for profile in cloud_profiles():
        if profile.accelerator_label == label:
            return profile.accelerator_names.get(gpu)
    return None
