"""Which EKS AMI types carry the NVIDIA driver, and what is wrong with the one a GPU node group names (read by the
node group's reader for the policy pack: ``PoolFacts.image_problems``). Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.props import as_text
from gpuready.eks.plan import AMI_TYPES

NVIDIA_AMI_TYPES = frozenset(AMI_TYPES.values()) | {
    "BOTTLEROCKET_x86_64_NVIDIA_FIPS",
    "BOTTLEROCKET_ARM_64_NVIDIA_FIPS",
}
"""EKS AMI types with the NVIDIA driver (botocore ``eks`` model ``AMITypes``; gpuready's choices plus FIPS)."""
DEPRECATED_GPU_AMI = "AL2_x86_64_GPU"
"""EKS stopped publishing AL2 AMIs on 2025-11-26 (awslabs/amazon-eks-ami doc/usage/al2.md, issue #2545)."""


def has_nvidia_driver(ami: str) -> bool:
    """Whether nodes of AMI type ``ami`` come with the NVIDIA driver (the deprecated AL2 GPU AMI too)."""
    return ami in NVIDIA_AMI_TYPES or ami == DEPRECATED_GPU_AMI


def image_problems(props: Mapping[str, Any], types: Sequence[str], arch: str | None) -> list[str]:
    """What is wrong with the AMI type a GPU node group names for its instance types (of CPU ``arch`` when known)."""
    want = AMI_TYPES[("al2023", arch or "x86_64")]
    ami = as_text(props.get("amiType"))
    named = ", ".join(types) or "its launch template's instance types"
    if ami is None:
        if props.get("launchTemplate") is not None:
            return []  # the AMI comes from the launch template
        return [
            f"amiType: not set for GPU instance types {named}; EKS then picks a standard AMI. Set amiType: {want!r}"
        ]
    if ami == "CUSTOM":
        return []
    if ami == DEPRECATED_GPU_AMI:
        return [
            f"amiType: {ami!r} is the deprecated Amazon Linux 2 GPU AMI; EKS stopped publishing AL2 AMIs on "
            f"2025-11-26 (awslabs/amazon-eks-ami#2545). Use {want!r} (or the BOTTLEROCKET_*_NVIDIA type)"
        ]
    if ami not in NVIDIA_AMI_TYPES:
        return [
            f"amiType: {ami!r} has no NVIDIA driver, so the GPUs of {named} are never usable. Use {want!r} "
            f"(allowed: {', '.join(sorted(NVIDIA_AMI_TYPES))})"
        ]
    ami_arch = "arm64" if "_ARM_64_" in ami else "x86_64"
    if arch is not None and ami_arch != arch:
        return [f"amiType: {ami!r} is for {ami_arch}, but {named} is {arch}. Use {want!r}"]
    return []
