"""Per-cloud GPU instance types: which GPU, how many per node, which CPU architecture.

Lookups are case-insensitive for AKS VM sizes (Azure treats them so) and exact elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from gpuready.core.clouds.registry import Cloud
from gpuready.record import record

Arch = Literal["x86_64", "arm64"]


@record(frozen=True, slots=True)
class InstanceType:
    """A GPU instance type (EC2), VM size (Azure) or machine type (GCE)."""

    cloud: Cloud
    name: str
    """The name exactly as the cloud API spells it."""
    gpu: str
    """Key of the GPU model in ``GPU_MODELS``."""
    gpus: int
    """GPUs per node."""
    arch: Arch
    """CPU architecture of the node."""
    source: str
    gpu_fraction: float = 1.0
    """Share of one physical GPU each of the ``gpus`` devices is (EC2 ``GpuPartitionSize``); 1.0 for whole GPUs.

    Below 1.0 the cloud partitions the GPU before the node boots (EC2 G6f/Gr6f: a fixed slice of an L4's
    compute and memory); the node still shows one device, which Kubernetes counts as ``nvidia.com/gpu: 1``.
    """


@record(frozen=True, slots=True)
class AttachableGpus:
    """GPUs a general-purpose GCE machine family accepts as guest accelerators (N1)."""

    machine_prefix: str
    counts: Mapping[str, tuple[int, ...]]
    """GPU model key -> allowed accelerator counts per node."""
    source: str


def family_table(cloud: Cloud, gpu: str, arch: Arch, source: str, sizes: Mapping[str, int]) -> dict[str, InstanceType]:
    """Expand ``{name: gpus}`` of one family into ``InstanceType`` entries keyed by name."""
    return {name: InstanceType(cloud, name, gpu, count, arch, source) for name, count in sizes.items()}
