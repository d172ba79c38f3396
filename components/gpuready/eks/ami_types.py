"""Which EKS AMI types carry the NVIDIA driver, and the facts of the one a GPU node group names (read by the node
group's reader for the policy pack's image convention: ``PoolFacts.image``). Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.capacity.pool_settings import NodeImage
from gpuready.core.props import as_text
from gpuready.eks.plan import AMI_TYPES

NVIDIA_AMI_TYPES = frozenset(AMI_TYPES.values()) | {
    "BOTTLEROCKET_x86_64_NVIDIA_FIPS",
    "BOTTLEROCKET_ARM_64_NVIDIA_FIPS",
}
"""EKS AMI types with the NVIDIA driver (botocore ``eks`` model ``AMITypes``; gpuready's choices plus FIPS)."""
DEPRECATED_GPU_AMI = "AL2_x86_64_GPU"
"""EKS stopped publishing AL2 AMIs on 2025-11-26 (awslabs/amazon-eks-ami doc/usage/al2.md, issue #2545)."""
RETIRED_GPU_AMI = (
    "the deprecated Amazon Linux 2 GPU AMI; EKS stopped publishing AL2 AMIs on 2025-11-26 (awslabs/amazon-eks-ami#2545)"
)
"""Why ``DEPRECATED_GPU_AMI`` is no longer current, as messages say it."""


def has_nvidia_driver(ami: str) -> bool:
    """Whether nodes of AMI type ``ami`` come with the NVIDIA driver (the deprecated AL2 GPU AMI too)."""
    return ami in NVIDIA_AMI_TYPES or ami == DEPRECATED_GPU_AMI


def node_image(props: Mapping[str, Any], types: Sequence[str], arch: str | None) -> NodeImage:
    """The AMI type a GPU node group names for its instance types (of CPU ``arch`` when known), as the image
    convention reads it (``gpuready.policy.rules.pool_settings``)."""
    ami = as_text(props.get("amiType"))
    return NodeImage(
        field="amiType",
        named=ami,
        # without amiType, the AMI comes from the launch template; a CUSTOM one is the team's own
        elsewhere=(ami is None and props.get("launchTemplate") is not None) or ami == "CUSTOM",
        driver=ami is not None and ami in NVIDIA_AMI_TYPES,
        retired=RETIRED_GPU_AMI if ami == DEPRECATED_GPU_AMI else "",
        arch="arm64" if ami is not None and "_ARM_64_" in ami else "x86_64",
        want=AMI_TYPES[("al2023", arch or "x86_64")],
        allowed=tuple(sorted(NVIDIA_AMI_TYPES)),
        machines=", ".join(types) or "its launch template's instance types",
        unset="EKS then picks a standard AMI",
        alternative="the BOTTLEROCKET_*_NVIDIA type",
    )
