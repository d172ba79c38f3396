"""EC2 GPU instance types usable in EKS managed node groups.

Source: EC2 DescribeInstanceTypes ``GpuInfo`` and ``ProcessorInfo`` as bundled by moto 5.2.5
(``moto/ec2/resources/instance_types.json.gz``); ``tests/core/catalog/test_eks_fidelity.py`` checks every
entry (GPU name, count, memory, architecture) against that file, and that every NVIDIA GPU type in it is
listed here or in ``catalog_exclusions.EXCLUDED`` with a reason. p3 sizes other than p3dn are absent from
that data and are not listed.
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.core.catalog.instance_types import InstanceType, family_table
from gpuready.eks.catalog_exclusions import FRACTIONAL_L4

_SRC = "EC2 DescribeInstanceTypes via moto 5.2.5 instance_types.json.gz"

_SINGLE_TO_8 = {
    "xlarge": 1,
    "2xlarge": 1,
    "4xlarge": 1,
    "8xlarge": 1,
    "16xlarge": 1,
    "12xlarge": 4,
    "24xlarge": 4,
}


def _sizes(family: str, table: Mapping[str, int]) -> dict[str, int]:
    return {f"{family}.{size}": count for size, count in table.items()}


EKS_INSTANCE_TYPES: Mapping[str, InstanceType] = {
    **family_table("eks", "t4", "x86_64", f"{_SRC} g4dn", _sizes("g4dn", {
        "xlarge": 1, "2xlarge": 1, "4xlarge": 1, "8xlarge": 1, "16xlarge": 1, "12xlarge": 4, "metal": 8,
    })),
    **family_table("eks", "a10g", "x86_64", f"{_SRC} g5", _sizes("g5", {**_SINGLE_TO_8, "48xlarge": 8})),
    **family_table("eks", "t4g", "arm64", f"{_SRC} g5g", _sizes("g5g", {
        "xlarge": 1, "2xlarge": 1, "4xlarge": 1, "8xlarge": 1, "16xlarge": 2, "metal": 2,
    })),
    **family_table("eks", "l4", "x86_64", f"{_SRC} g6", _sizes("g6", {**_SINGLE_TO_8, "48xlarge": 8})),
    **family_table("eks", "l40s", "x86_64", f"{_SRC} g6e", _sizes("g6e", {**_SINGLE_TO_8, "48xlarge": 8})),
    **family_table("eks", "l4", "x86_64", f"{_SRC} gr6", _sizes("gr6", {"4xlarge": 1, "8xlarge": 1})),
    **family_table("eks", "v100-32gb", "x86_64", f"{_SRC} p3dn", {"p3dn.24xlarge": 8}),
    **family_table("eks", "a100", "x86_64", f"{_SRC} p4d", {"p4d.24xlarge": 8}),
    **family_table("eks", "a100-80gb", "x86_64", f"{_SRC} p4de", {"p4de.24xlarge": 8}),
    **family_table("eks", "h100", "x86_64", f"{_SRC} p5", {"p5.4xlarge": 1, "p5.48xlarge": 8}),
    **family_table("eks", "h200", "x86_64", f"{_SRC} p5e", {"p5e.48xlarge": 8}),
    **family_table("eks", "h200", "x86_64", f"{_SRC} p5en", {"p5en.48xlarge": 8}),
    **family_table("eks", "b200", "x86_64", f"{_SRC} p6-b200", {"p6-b200.48xlarge": 8}),
    **family_table("eks", "b300", "x86_64", f"{_SRC} p6-b300", {"p6-b300.48xlarge": 8}),
    **family_table("eks", "rtxpro4500", "x86_64", f"{_SRC} g7", _sizes("g7", {
        "2xlarge": 1, "4xlarge": 1, "8xlarge": 1, "12xlarge": 2, "24xlarge": 4, "48xlarge": 8,
    })),
    **family_table("eks", "rtxpro6000", "x86_64", f"{_SRC} g7e", _sizes("g7e", {
        "2xlarge": 1, "4xlarge": 1, "8xlarge": 1, "12xlarge": 2, "24xlarge": 4, "48xlarge": 8,
    })),
    **FRACTIONAL_L4,
}  # fmt: skip
"""EKS GPU instance types by name."""

EXTRA_GPU_FAMILIES = frozenset({"p3", "p6e-gb200"})
"""NVIDIA EC2 families the catalog does not list yet (shared reference nvidia.md 5, clouds.md 8)."""
GPU_FAMILIES = frozenset(name.split(".")[0] for name in EKS_INSTANCE_TYPES) | EXTRA_GPU_FAMILIES
"""NVIDIA EC2 instance families (``g6``, ``p5``): the catalog's and those it does not list yet."""


def gpu_family(family: str) -> bool:
    """Whether an EC2 instance family (``g6``, ``p5``) is an NVIDIA GPU family."""
    return family in GPU_FAMILIES


def unlisted_gpu_type(name: str) -> bool:
    """Whether an EC2 instance type is of an NVIDIA GPU family (listed in the catalog or not)."""
    return "." in name and gpu_family(name.split(".", maxsplit=1)[0])
