"""The Kubernetes namespace names gpuready uses or refuses, in one place. Pure.

Sources: Kubernetes "Namespaces" (``default``; the ``kube-`` prefix is reserved for Kubernetes system
namespaces; ``kube-system`` holds ``extension-apiserver-authentication``), the charts' documented release
namespaces (GPU Operator install guide: ``gpu-operator``; k8s-device-plugin README: ``nvidia-device-plugin``).
"""

from __future__ import annotations

DEFAULT = "default"
"""Where objects land without a namespace; node agents never go there."""
KUBE_SYSTEM = "kube-system"
RESERVED_PREFIX = "kube-"
"""Prefix reserved for Kubernetes system namespaces."""
GPU_OPERATOR = "gpu-operator"
"""Default release namespace of the GPU Operator chart (and where its operands run)."""
DEVICE_PLUGIN = "nvidia-device-plugin"
"""Default release namespace of NVIDIA's device-plugin chart."""
DRA_DRIVER = "nvidia-dra-driver-gpu"
"""Default release namespace of NVIDIA's DRA driver chart (gpuready's choice; the chart refuses ``default``)."""
BINPACK_SCHEDULER = "gpu-scheduling"
"""Default namespace of gpuready's bin-packing scheduler."""


def is_shared(name: str) -> bool:
    """Whether ``name`` is ``default`` or a reserved ``kube-`` namespace: never one gpuready creates and deletes."""
    return name == DEFAULT or name.startswith(RESERVED_PREFIX)
