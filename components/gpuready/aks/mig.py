"""AKS MIG: the ``gpuInstanceProfile`` an AKS pool gets, and the MIG profiles it can give. Pure.

AKS partitions a pool's GPUs itself (``gpuInstanceProfile`` on the agent pool); gpuready's MIG layouts map onto it
here.
"""

from __future__ import annotations

from gpuready.core.catalog import mig_profiles
from gpuready.core.catalog.mig_profiles import MigTable

MIG_PROFILES: tuple[str, ...] = ("MIG1g", "MIG2g", "MIG3g", "MIG4g", "MIG7g")
"""azure-native ``GPUInstanceProfile`` values (pulumi_azure_native 3.29.0 containerservice/_enums.py)."""


def gpu_instance_profile(table: MigTable, profile: str) -> str | None:
    """The AKS ``gpuInstanceProfile`` (``MIG<N>g``) that yields ``profile``, or None if none does.

    AKS names only the compute size; each maps to the smallest-memory profile of that size on the GPU
    (``MIG1g`` is ``1g.5gb`` on A100 40 GB, ``1g.10gb`` on 80 GB parts: azure-aks-docs gpu-multi-instance.md).
    """
    compute = mig_profiles.compute_slices_of(profile)
    candidates = [
        p
        for p in table.profiles
        if mig_profiles.compute_slices_of(p) == compute and p.endswith("gb") and f"MIG{compute}g" in MIG_PROFILES
    ]
    smallest = min(candidates, key=table.memory_slices_of, default=None)
    return f"MIG{compute}g" if smallest == profile else None


def mig_choices(table: MigTable) -> list[str]:
    """MIG profiles an AKS pool of this GPU can get through ``gpuInstanceProfile``."""
    return [p for p in table.profiles if gpu_instance_profile(table, p) is not None]
