"""GCE GPU machine types usable in GKE node pools.

Source: GKE how-to/gpus (https://docs.cloud.google.com/kubernetes-engine/docs/how-to/gpus) and GCE GPU
machine types (https://cloud.google.com/compute/docs/gpus), shared reference clouds.md 4.1: G2 carries L4
(1 GPU up to g2-standard-32, 2/4/8 on -24/-48/-96), A2 High/Mega A100 40 GB and A2 Ultra A100 80 GB (the
suffix is the GPU count), A3 High/Mega H100 80 GB, A3 Ultra H200, A4 B200, G4 RTX PRO 6000 (g4-standard-48
has 1, -384 has 8; the fractional -6/-12/-24 and the other whole-GPU sizes are not listed: describe them with
``gpu:``); N1 takes attached T4 (1, 2 or 4) or V100 (1, 2, 4 or 8).
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.core.catalog.gpus import GPU_MODELS, GpuModel
from gpuready.core.catalog.instance_types import AttachableGpus, InstanceType, family_table

_SRC = "GKE how-to/gpus; GCE gpus"

GKE_MACHINE_TYPES: Mapping[str, InstanceType] = {
    **family_table("gke", "l4", "x86_64", f"{_SRC} G2", {
        "g2-standard-4": 1, "g2-standard-8": 1, "g2-standard-12": 1, "g2-standard-16": 1,
        "g2-standard-32": 1, "g2-standard-24": 2, "g2-standard-48": 4, "g2-standard-96": 8,
    }),
    **family_table("gke", "a100", "x86_64", f"{_SRC} A2 High/Mega", {
        "a2-highgpu-1g": 1, "a2-highgpu-2g": 2, "a2-highgpu-4g": 4, "a2-highgpu-8g": 8, "a2-megagpu-16g": 16,
    }),
    **family_table("gke", "a100-80gb", "x86_64", f"{_SRC} A2 Ultra", {
        "a2-ultragpu-1g": 1, "a2-ultragpu-2g": 2, "a2-ultragpu-4g": 4, "a2-ultragpu-8g": 8,
    }),
    **family_table("gke", "h100", "x86_64", f"{_SRC} A3 High", {
        "a3-highgpu-1g": 1, "a3-highgpu-2g": 2, "a3-highgpu-4g": 4, "a3-highgpu-8g": 8,
    }),
    **family_table("gke", "h100-mega", "x86_64", f"{_SRC} A3 Mega", {"a3-megagpu-8g": 8}),
    **family_table("gke", "h200", "x86_64", f"{_SRC} A3 Ultra", {"a3-ultragpu-8g": 8}),
    **family_table("gke", "b200", "x86_64", f"{_SRC} A4", {"a4-highgpu-8g": 8}),
    **family_table("gke", "rtxpro6000", "x86_64", f"{_SRC} G4", {"g4-standard-48": 1, "g4-standard-384": 8}),
}  # fmt: skip
"""GKE machine types with built-in GPUs, by name."""

GKE_ATTACHABLE = AttachableGpus(
    machine_prefix="n1-",
    counts={"t4": (1, 2, 4), "v100": (1, 2, 4, 8)},
    source=f"{_SRC} N1 + T4/V100",
)
"""N1 machines take T4 or V100 GPUs as guest accelerators; the pool spec says which and how many."""

EXTRA_GPU_PREFIXES = ("g4-", "a4x-")
"""GCE GPU machine families the catalog does not list yet (G4 RTX PRO 6000, A4X GB200; clouds.md 4.1)."""
GPU_PREFIXES = tuple(sorted({name.rsplit("-", 1)[0] + "-" for name in GKE_MACHINE_TYPES})) + EXTRA_GPU_PREFIXES
"""GCE GPU machine type prefixes (``a2-highgpu-``, ``g2-standard-``): the catalog's and those it does not list."""


def gpu_family(family: str) -> bool:
    """Whether a GCE machine family (``g2``, ``a3``) is a GPU family."""
    return any(prefix.startswith(family + "-") for prefix in GPU_PREFIXES)


def unlisted_gpu_type(name: str) -> bool:
    """Whether a GCE machine type is of a GPU machine family (listed in the catalog or not)."""
    return name.startswith(GPU_PREFIXES)


GKE_MIG_MODELS = frozenset({"a100", "a100-80gb", "h100", "h200", "b200"})
"""GPUs GKE partitions with ``gpu_partition_size`` (GKE gpus-multi docs, shared reference clouds.md 4.2)."""

ACCELERATORS: Mapping[str, str] = {
    "t4": "nvidia-tesla-t4",
    "l4": "nvidia-l4",
    "v100": "nvidia-tesla-v100",
    "a100": "nvidia-tesla-a100",
    "a100-80gb": "nvidia-a100-80gb",
    "h100": "nvidia-h100-80gb",
    "h100-mega": "nvidia-h100-mega-80gb",
    "h200": "nvidia-h200-141gb",
    "b200": "nvidia-b200",
    "gb200": "nvidia-gb200",
    "rtxpro6000": "nvidia-rtx-pro-6000",
}
"""GPU model key -> GKE's accelerator type (``guest_accelerator.type``, and the ``cloud.google.com/gke-accelerator``
label's value), for each GPU GKE offers (GKE how-to/gpus accelerator types, shared reference clouds.md 4.1)."""

_BY_ACCELERATOR: Mapping[str, GpuModel] = {name: GPU_MODELS[key] for key, name in ACCELERATORS.items()}


def gpu_for_accelerator(accelerator: str) -> GpuModel | None:
    """The model behind a GKE accelerator type, or None."""
    return _BY_ACCELERATOR.get(accelerator)
