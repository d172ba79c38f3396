"""EKS node image families for GPU pools, one row each (``ImageFacts``). Pure.

Sources: botocore ``eks/2017-11-01/service-2.json`` ``AMITypes`` (``tests/fidelity/test_eks_enums.py``), the EKS
user guide ``ml-eks-optimized-ami.adoc`` (AL2023 NVIDIA AMIs ship driver and toolkit, no device plugin),
NVIDIA/gpu-operator#686 (no Amazon Linux or Bottlerocket driver containers), Bottlerocket's NVIDIA variants (driver,
toolkit and device plugin built in; awslabs/ai-on-eks nvidia-gpu-operator values turn those operands off).
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.core.clouds.images import ImageFacts

BOTTLEROCKET_DISABLED_OPERANDS: tuple[str, ...] = (
    "driver",
    "container-toolkit",
    "device-plugin",
    "mig-manager",
)
"""GPU Operator operands Bottlerocket NVIDIA already provides (awslabs/ai-on-eks nvidia-gpu-operator values)."""

IMAGES: Mapping[str, ImageFacts] = {
    "al2023": ImageFacts(
        title="EKS AL2023 NVIDIA",
        api_names={"x86_64": "AL2023_x86_64_NVIDIA", "arm64": "AL2023_ARM_64_NVIDIA"},
        operator_driver=False,
    ),
    "bottlerocket": ImageFacts(
        title="EKS bottlerocket",
        api_names={"x86_64": "BOTTLEROCKET_x86_64_NVIDIA", "arm64": "BOTTLEROCKET_ARM_64_NVIDIA"},
        platform_plugin="bottlerocket",
        built_in_operands=BOTTLEROCKET_DISABLED_OPERANDS,
        operator_driver=False,
    ),
}
"""Image family -> its facts; the first is the default."""
