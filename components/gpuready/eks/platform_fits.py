"""How each GPU stack kind fits an EKS pool whose platform brings its own device plugin: Bottlerocket NVIDIA's
(``bottlerocket``) and EKS Auto Mode's (``eks-auto-mode``). Pure; read through ``EksProfile.platform_fits``."""

from __future__ import annotations

from gpuready.core.advertisers.dra import DYNAMIC_RESOURCES
from gpuready.core.clouds.fit_rows import ByDriver, FitRow, same
from gpuready.core.clouds.node_setup import PlatformFits
from gpuready.core.gpu_stack.kinds import STACK_KIND_OBJECTS, STACK_KINDS

_BOTTLEROCKET_TWICE = FitRow(
    ok=False,
    summary="Bottlerocket NVIDIA runs its own device plugin, so a second one would advertise the GPUs twice",
    hint="use gpuStack.kind none or gpu-operator (which leaves Bottlerocket's plugin alone), or image: al2023",
)
_BOTTLEROCKET_DRA = FitRow(
    ok=False,
    summary="Bottlerocket NVIDIA runs its own device plugin, which must not share a node with the DRA GPU plugin (DRA "
    "chart templates/validation.yaml)",
    hint="use image: al2023 for a DRA pool",
)
_DRA_KINDS: list[str] = [kind.key for kind in STACK_KIND_OBJECTS if kind.serves == DYNAMIC_RESOURCES.key]

_AUTO_MODE_TWICE = FitRow(
    ok=False,
    summary="EKS Auto Mode runs its own NVIDIA driver and device plugin (not a DaemonSet), so a second plugin would "
    "advertise the GPUs twice",
    hint="use gpuStack.kind none or gpu-operator (which leaves Auto Mode's plugin alone), or provisioner: karpenter "
    "for NVIDIA's device plugin",
)


def _every(row: FitRow) -> dict[str, ByDriver]:
    """``row`` for every stack kind and driver owner."""
    return {kind: same(row) for kind in STACK_KINDS}


PLATFORM_FITS: PlatformFits = {
    "bottlerocket": _every(_BOTTLEROCKET_TWICE)
    | {kind: same(_BOTTLEROCKET_DRA) for kind in _DRA_KINDS}
    | {
        "gpu-operator": same(
            FitRow(
                ok=True,
                summary="GPU Operator for GFD, DCGM exporter and validation; driver, toolkit, device plugin and MIG "
                "manager stay Bottlerocket's (nvidia.com/gpu.deploy.*=false on the nodes)",
            )
        ),
        "none": same(FitRow(ok=True, summary="Bottlerocket's driver, toolkit and device plugin")),
    },
    "eks-auto-mode": _every(_AUTO_MODE_TWICE)
    | {
        "gpu-operator": same(
            FitRow(
                ok=True,
                summary="GPU Operator for GFD, DCGM exporter and validation; driver, toolkit and device plugin stay "
                "EKS Auto Mode's (nvidia.com/gpu.deploy.*=false on the nodes)",
            )
        ),
        "none": same(
            FitRow(ok=True, summary="EKS Auto Mode's driver and device plugin (AWS-managed, not a DaemonSet)")
        ),
    },
}
"""Bottlerocket's and EKS Auto Mode's device plugins -> their rows per kind and driver owner."""
