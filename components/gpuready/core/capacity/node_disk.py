"""The disk of an elastic pool's nodes: ``diskSizeGb``, with a default that holds GPU images. Pure.

Left to themselves the elastic provisioners give a GPU node little room for images: Karpenter's EC2NodeClass root
volume is 20 GiB (aws/karpenter-provider-aws v1.14.1 ``pkg/providers/amifamily/resolver.go`` L40-44,
``DefaultEBS``), EKS Auto Mode's NodeClass ephemeral storage 80 GiB (its schema's ``ephemeralStorage.size`` default,
datreeio/CRDs-catalog ``eks.amazonaws.com/nodeclass_v1.json``), NAP's AKSNodeClass OS disk 128 GB (``osDiskSizeGB``
default, Azure/karpenter-provider-azure v1.14.2 CRD), a GKE ComputeClass the node pool's 100 GB. A CUDA framework
image is large (NVIDIA's NGC PyTorch container unpacks to well over 10 GB, and a node pulls several, plus model
caches), and a full disk evicts pods by ``DiskPressure``. So every elastic pool gets ``DEFAULT_GB`` unless it sets
``diskSizeGb``, within what its provisioner's object takes (each provisioner's ``spec_problems``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

DEFAULT_GB = 200
"""Disk of an elastic pool's nodes when ``diskSizeGb`` is not set (GiB on AWS, GB on Azure and GCP)."""


def size_gb(spec: GpuPoolSpec) -> int:
    """The pool's node disk: ``diskSizeGb``, else ``DEFAULT_GB``."""
    return spec.disk_size_gb if spec.disk_size_gb is not None else DEFAULT_GB


def range_problems(spec: GpuPoolSpec, low: int, high: int | None, field: str) -> list[Problem]:
    """``diskSizeGb`` outside ``low``-``high`` (None: no upper bound), the range of the object's ``field``."""
    size = spec.disk_size_gb
    if size is None or not isinstance(size, int) or (size >= low and (high is None or size <= high)):
        return []
    bound = f"{low}-{high}" if high is not None else f"at least {low}"
    return [Problem("diskSizeGb", f"is outside what {field} takes ({bound})", size, (),
                    f"set diskSizeGb within {bound}, or leave it out for {DEFAULT_GB}")]  # fmt: skip
