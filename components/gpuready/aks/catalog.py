"""Azure GPU VM sizes usable in AKS node pools.

Source: MicrosoftDocs/azure-compute-docs ``articles/virtual-machines/sizes/gpu-accelerated/*`` (shared
reference clouds.md 3.3). MIG on AKS (``gpuInstanceProfile``): "currently supported on NVIDIA A100,
H100, and H200 series GPU VM sizes" (MicrosoftDocs/azure-aks-docs ``gpu-multi-instance.md``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from gpuready.core.catalog.instance_types import InstanceType, family_table

_SRC = "azure-compute-docs sizes/gpu-accelerated"

AKS_VM_SIZES: Mapping[str, InstanceType] = {
    **family_table("aks", "t4", "x86_64", f"{_SRC} NCasT4_v3", {
        "Standard_NC4as_T4_v3": 1, "Standard_NC8as_T4_v3": 1, "Standard_NC16as_T4_v3": 1,
        "Standard_NC64as_T4_v3": 4,
    }),
    **family_table("aks", "a100-80gb", "x86_64", f"{_SRC} NC A100 v4", {
        "Standard_NC24ads_A100_v4": 1, "Standard_NC48ads_A100_v4": 2, "Standard_NC96ads_A100_v4": 4,
    }),
    **family_table("aks", "h100-nvl", "x86_64", f"{_SRC} NC H100 v5", {
        "Standard_NC40ads_H100_v5": 1, "Standard_NC80adis_H100_v5": 2,
    }),
    **family_table("aks", "a100", "x86_64", f"{_SRC} ND A100 v4", {"Standard_ND96asr_v4": 8}),
    **family_table("aks", "a100-80gb", "x86_64", f"{_SRC} NDm A100 v4", {"Standard_ND96amsr_A100_v4": 8}),
    **family_table("aks", "h100", "x86_64", f"{_SRC} ND H100 v5", {"Standard_ND96isr_H100_v5": 8}),
    **family_table("aks", "h200", "x86_64", f"{_SRC} ND H200 v5", {"Standard_ND96isr_H200_v5": 8}),
}  # fmt: skip
"""AKS GPU VM sizes by their canonical spelling."""

NVIDIA_SIZE = re.compile(r"^standard_n[cd](?!.*mi300)", re.IGNORECASE)
"""Azure NC/ND sizes are NVIDIA GPU VMs, except the AMD MI300X ND v5 (azure-compute-docs gpu-accelerated)."""


def unlisted_gpu_type(name: str) -> bool:
    """Whether an Azure VM size is an NVIDIA GPU size (listed in the catalog or not)."""
    return bool(NVIDIA_SIZE.match(name))
