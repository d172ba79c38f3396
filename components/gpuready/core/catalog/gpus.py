"""NVIDIA GPU models gpuready knows: memory, architecture, MIG, and the names other tools use.

A cloud's own name for a GPU (GKE's accelerator type) is its catalog's (``CloudCatalog.accelerator_names``).

``key`` is gpuready's canonical lowercase accelerator name. It matches SkyPilot's canonical names
lowercased (skypilot ``sky/utils/gpu_names.py`` 0.14.1: ``A100-80GB`` -> ``a100-80gb``; ``RTXPRO6000`` ->
``rtxpro6000``) except where one SkyPilot name covers two GPUs with different MIG tables (``h100-nvl``,
``h200-nvl``: SkyPilot calls them ``h100``, ``h200``), so
``skypilot`` holds the value SkyPilot's ``skypilot.co/accelerator`` label expects.

Memory is MiB per GPU as EC2 DescribeInstanceTypes reports it where AWS sells the GPU (moto 5.2.5
``ec2/resources/instance_types.json.gz``), otherwise the vendor's figure. MIG capability: NVIDIA MIG user
guide, "Supported GPUs" (https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-gpus.html).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

from gpuready.core.catalog import mig_profiles
from gpuready.core.catalog.mig_profiles import MigTable
from gpuready.record import record

Architecture = Literal["volta", "turing", "ampere", "ada-lovelace", "hopper", "blackwell"]
"""GPU family as GPU Feature Discovery writes it in ``nvidia.com/gpu.family``."""


@record(frozen=True, slots=True)
class GpuModel:
    """One NVIDIA GPU model."""

    key: str
    """Canonical lowercase accelerator name, e.g. ``a100-80gb``."""
    display: str
    """Human name, e.g. ``A100-80GB``."""
    memory_mib: int
    """Memory per GPU in MiB."""
    architecture: Architecture
    mig: MigTable | None
    """MIG profile table, or None when the GPU cannot be partitioned."""
    skypilot: str
    """Value for SkyPilot's ``skypilot.co/accelerator`` label."""
    product_pattern: str
    """Regex matching GPU Feature Discovery's ``nvidia.com/gpu.product`` values for this model."""
    source: str
    """Where the facts come from."""

    @property
    def mig_capable(self) -> bool:
        """Whether the GPU supports Multi-Instance GPU."""
        return self.mig is not None

    def matches_product(self, product: str) -> bool:
        """Whether a GFD ``nvidia.com/gpu.product`` value (MIG/SHARED suffixes allowed) is this model."""
        return re.search(self.product_pattern, product, flags=re.IGNORECASE) is not None


_EC2 = "EC2 DescribeInstanceTypes GpuInfo (moto 5.2.5 instance_types.json.gz)"
_MIG = "MIG user guide 'Supported GPUs'; " + mig_profiles.MIG_PARTED_SOURCE
_GCE_DOCS = "GKE how-to/gpus accelerator types (shared reference clouds.md 4.1)"

GPU_MODELS: Mapping[str, GpuModel] = {
    m.key: m
    for m in (
        GpuModel(
            key="t4", display="T4", memory_mib=16384, architecture="turing", mig=None, skypilot="t4",
            product_pattern=r"\bT4\b(?!G)", source=f"{_EC2} g4dn; {_GCE_DOCS}",
        ),
        GpuModel(
            key="t4g", display="T4g", memory_mib=16384, architecture="turing", mig=None, skypilot="t4g",
            product_pattern=r"\bT4G\b", source=f"{_EC2} g5g",
        ),
        GpuModel(
            key="a10g", display="A10G", memory_mib=22888, architecture="ampere", mig=None, skypilot="a10g",
            product_pattern=r"\bA10G\b", source=f"{_EC2} g5",
        ),
        GpuModel(
            key="a10", display="A10", memory_mib=24576, architecture="ampere", mig=None, skypilot="a10",
            product_pattern=r"\bA10\b(?!G)",
            source="Azure NVadsA10_v5 docs (A10 24 GB); not MIG-capable per MIG user guide",
        ),
        GpuModel(
            key="l4", display="L4", memory_mib=22888, architecture="ada-lovelace", mig=None, skypilot="l4",
            product_pattern=r"\bL4\b", source=f"{_EC2} g6/gr6; {_GCE_DOCS}",
        ),
        GpuModel(
            key="l40s", display="L40S", memory_mib=45776, architecture="ada-lovelace", mig=None,
            skypilot="l40s", product_pattern=r"\bL40S\b", source=f"{_EC2} g6e",
        ),
        GpuModel(
            key="v100", display="V100", memory_mib=16384, architecture="volta", mig=None, skypilot="v100",
            product_pattern=r"\bV100\b(?!.*32GB)",
            source=f"NVIDIA V100 16 GB; {_GCE_DOCS}",
        ),
        GpuModel(
            key="v100-32gb", display="V100-32GB", memory_mib=32768, architecture="volta", mig=None,
            skypilot="v100-32gb", product_pattern=r"\bV100\b.*32GB",
            source=f"{_EC2} p3dn",
        ),
        GpuModel(
            key="a100", display="A100", memory_mib=40960, architecture="ampere", mig=mig_profiles.A100_40GB,
            skypilot="a100", product_pattern=r"\bA100\b(?!.*80GB)",
            source=f"{_EC2} p4d; {_MIG}; {_GCE_DOCS}",
        ),
        GpuModel(
            key="a100-80gb", display="A100-80GB", memory_mib=81920, architecture="ampere",
            mig=mig_profiles.A100_80GB_H100_80GB, skypilot="a100-80gb",
            product_pattern=r"\bA100\b.*80GB", source=f"{_EC2} p4de; {_MIG}; {_GCE_DOCS}",
        ),
        GpuModel(
            key="h100", display="H100", memory_mib=81920, architecture="hopper",
            mig=mig_profiles.A100_80GB_H100_80GB, skypilot="h100",
            product_pattern=r"\bH100\b(?!.*NVL)(?!.*MEGA)", source=f"{_EC2} p5; {_MIG}; {_GCE_DOCS}",
        ),
        GpuModel(
            key="h100-mega", display="H100-MEGA", memory_mib=81920, architecture="hopper",
            mig=mig_profiles.A100_80GB_H100_80GB, skypilot="h100-mega",
            product_pattern=r"\bH100\b(?!.*NVL)", source=f"GKE A3 Mega (H100 80 GB); {_MIG}; {_GCE_DOCS}",
        ),
        GpuModel(
            key="h100-nvl", display="H100-NVL", memory_mib=96256, architecture="hopper",
            mig=mig_profiles.H100_NVL_94GB, skypilot="h100",
            product_pattern=r"\bH100\b.*NVL", source=f"Azure NC H100 v5 (H100 NVL 94 GB); {_MIG}",
        ),
        GpuModel(
            key="h200", display="H200", memory_mib=144384, architecture="hopper", mig=mig_profiles.H200_141GB,
            skypilot="h200", product_pattern=r"\bH200\b(?!.*NVL)",
            source=f"{_EC2} p5e/p5en; {_MIG}; {_GCE_DOCS}",
        ),
        GpuModel(
            key="b200", display="B200", memory_mib=183359, architecture="blackwell", mig=mig_profiles.B200_180GB,
            skypilot="b200", product_pattern=r"\bB200\b",
            source=f"{_EC2} p6-b200; {_MIG}; {_GCE_DOCS}",
        ),
        GpuModel(
            key="gh200", display="GH200", memory_mib=98304, architecture="hopper",
            mig=mig_profiles.H100_96GB_GH200, skypilot="gh200",
            product_pattern=r"\bGH200\b", source=f"NVIDIA GH200 Grace Hopper (96 GB HBM3); {_MIG}",
        ),
        GpuModel(
            key="h200-nvl", display="H200-NVL", memory_mib=144384, architecture="hopper",
            mig=mig_profiles.H200_NVL_141GB, skypilot="h200",
            product_pattern=r"\bH200\b.*NVL", source=f"NVIDIA H200 NVL (141 GB HBM3e, as H200 SXM); {_MIG}",
        ),
        GpuModel(
            key="a30", display="A30", memory_mib=24576, architecture="ampere", mig=mig_profiles.A30_24GB,
            skypilot="a30", product_pattern=r"\bA30\b", source=f"NVIDIA A30 (24 GB HBM2); {_MIG}",
        ),
        GpuModel(
            key="b300", display="B300", memory_mib=275040, architecture="blackwell", mig=mig_profiles.B300_269GB,
            skypilot="b300", product_pattern=r"\bB300\b",
            source=f"{_EC2} p6-b300; {_MIG}; MIG from driver R580 (MIG user guide 620, deployment considerations)",
        ),
        GpuModel(
            key="gb200", display="GB200", memory_mib=190464, architecture="blackwell", mig=mig_profiles.GB200_186GB,
            skypilot="gb200", product_pattern=r"\bGB200\b",
            source=f"NVIDIA GB200 (186 GB HBM3e per GPU, mig-parted's whole-GPU 7g.186gb); {_MIG}; {_GCE_DOCS} (A4X)",
        ),
        GpuModel(
            key="rtxpro6000", display="RTX PRO 6000", memory_mib=98304, architecture="blackwell",
            mig=mig_profiles.RTX_PRO_6000_96GB, skypilot="rtxpro6000",
            product_pattern=r"\bRTX[- ]PRO[- ](Server[- ])?6000\b",
            source=f"{_EC2} g7e ('RTX PRO Server 6000'); {_MIG} (max 4); {_GCE_DOCS} (G4)",
        ),
        GpuModel(
            key="rtxpro4500", display="RTX PRO 4500", memory_mib=32768, architecture="blackwell", mig=None,
            skypilot="rtxpro4500", product_pattern=r"\bRTX[- ]PRO[- ](Server[- ])?4500\b",
            source=f"{_EC2} g7; no mig-parted v0.15.0 layout and not in the MIG user guide's supported GPUs",
        ),
    )
}  # fmt: skip
"""Every GPU model gpuready knows, by canonical key."""
