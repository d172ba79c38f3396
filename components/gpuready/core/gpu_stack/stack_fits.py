"""Driver ownership as data: ``(platform plugin, stack kind) -> fit``, per driver owner. Pure.

``FITS`` holds one row per device plugin that comes with a platform (``PlatformAdvertiser``: ``nvidia`` when none
does) and stack kind, with the row for each driver owner (``cloud``: the image installs it; ``operator``: nothing
does, unless the stack installs it). ``ownership.fit`` is the lookup; the sources of every row are in
``ownership``'s docstring.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gpuready.core.clouds.node_setup import PlatformAdvertiser
from gpuready.core.gpu_stack.charts import GPU_OPERATOR_DRA, STACK_KINDS, StackKind


@dataclass(frozen=True, kw_only=True, slots=True)
class FitRow:
    """Whether a kind serves a platform, and how (``{image}`` in the texts: the pool's image as messages name it)."""

    ok: bool
    summary: str
    hint: str = ""
    hint_cloud_driver: str | None = None
    """The hint instead of ``hint`` on clouds whose own driver serves NVIDIA's device plugin."""
    operator_driver: bool = False
    """The GPU Operator installs the driver and container toolkit on these nodes."""


ByDriver = Mapping[str, FitRow]
"""Driver owner (``cloud``, ``operator``) -> row."""


def _same(row: FitRow) -> ByDriver:
    return {"cloud": row, "operator": row}


_NOT_YET = " (the GPU Operator as the driver installer beside the DRA driver is not offered yet)"
_DRA_HINT = "use advertise: device-plugin under gpuStack.kind gpu-operator" + _NOT_YET
_DRA_HINT_CLOUD = "set the pool's driver: cloud" + _NOT_YET
_EXPERIMENTAL = " (experimental)" if GPU_OPERATOR_DRA.experimental else ""

_NVIDIA: Mapping[StackKind, ByDriver] = {
    "gpu-operator": {
        "cloud": FitRow(ok=True, summary="GPU Operator; driver and toolkit from the {image} image"),
        "operator": FitRow(ok=True, summary="GPU Operator installs driver and toolkit", operator_driver=True),
    },
    "device-plugin": {
        "cloud": FitRow(ok=True, summary="device plugin; driver and toolkit from the {image} image"),
        "operator": FitRow(
            ok=False,
            summary="the device-plugin chart installs no driver and this pool's cloud installs none (driver: operator)",
            hint="use gpuStack.kind gpu-operator",
            hint_cloud_driver="use gpuStack.kind gpu-operator, or set the pool's driver: cloud",
        ),
    },
    "dra-driver": {
        "cloud": FitRow(ok=True, summary="DRA driver; NVIDIA driver from the {image} image"),
        "operator": FitRow(
            ok=False,
            summary="the DRA driver chart installs no NVIDIA driver and this pool's cloud installs none (driver: "
            "operator)",
            hint=_DRA_HINT,
            hint_cloud_driver=_DRA_HINT_CLOUD,
        ),
    },
    "gpu-operator-dra": {
        "cloud": FitRow(
            ok=True,
            summary=f"GPU Operator's GPUCluster{_EXPERIMENTAL}: DRA driver, DCGM exporter, DRA validator; NVIDIA "
            "driver from the {image} image",
        ),
        "operator": FitRow(
            ok=False,
            summary="the GPUCluster stack installs no container toolkit (GPU Operator v26.7.0 newGPUClusterStates), "
            "gpuready does not drive its NVIDIADriver CRD, and this pool's cloud installs none (driver: operator)",
            hint=_DRA_HINT,
            hint_cloud_driver=_DRA_HINT_CLOUD,
        ),
    },
    "none": {
        "cloud": FitRow(
            ok=False,
            summary="the {image} image has the driver but no device plugin",
            hint="set gpuStack.kind to gpu-operator or device-plugin",
        ),
        "operator": FitRow(
            ok=False,
            summary="nothing installs the driver or a device plugin on this pool",
            hint="set gpuStack.kind to gpu-operator, which installs the driver",
        ),
    },
    "external": {
        "cloud": FitRow(ok=True, summary="your NVIDIA stack"),
        "operator": FitRow(ok=True, summary="your NVIDIA stack (it must install the driver)"),
    },
}

_GKE_FIGHT = FitRow(
    ok=False,
    summary="GKE installs the driver and runs its own device plugin on this pool, so NVIDIA's would fight it",
    hint="set gpuStack.kind none, or give the pool driver: operator and image: ubuntu (GKE driver installation "
    "disabled, on a node pool: a ComputeClass always has GKE install the driver) for NVIDIA's stack; the "
    "operator over Google's driver installer is not offered (docs/gpu-stack.md, 'GKE and the GPU Operator')",
)
_GKE: Mapping[StackKind, ByDriver] = {kind: _same(_GKE_FIGHT) for kind in STACK_KINDS} | {
    "none": _same(FitRow(ok=True, summary="GKE's driver and device plugin (sharing and MIG on the node pool)")),
}

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
_BOTTLEROCKET: Mapping[StackKind, ByDriver] = {
    "gpu-operator": _same(
        FitRow(
            ok=True,
            summary="GPU Operator for GFD, DCGM exporter and validation; driver, toolkit, device plugin and MIG "
            "manager stay Bottlerocket's (nvidia.com/gpu.deploy.*=false on the nodes)",
        )
    ),
    "device-plugin": _same(_BOTTLEROCKET_TWICE),
    "dra-driver": _same(_BOTTLEROCKET_DRA),
    "gpu-operator-dra": _same(_BOTTLEROCKET_DRA),
    "none": _same(FitRow(ok=True, summary="Bottlerocket's driver, toolkit and device plugin")),
    "external": _same(_BOTTLEROCKET_TWICE),
}

_AUTO_MODE_TWICE = FitRow(
    ok=False,
    summary="EKS Auto Mode runs its own NVIDIA driver and device plugin (not a DaemonSet), so a second plugin would "
    "advertise the GPUs twice",
    hint="use gpuStack.kind none or gpu-operator (which leaves Auto Mode's plugin alone), or provisioner: karpenter "
    "for NVIDIA's device plugin",
)
_AUTO_MODE: Mapping[StackKind, ByDriver] = {kind: _same(_AUTO_MODE_TWICE) for kind in STACK_KINDS} | {
    "gpu-operator": _same(
        FitRow(
            ok=True,
            summary="GPU Operator for GFD, DCGM exporter and validation; driver, toolkit and device plugin stay EKS "
            "Auto Mode's (nvidia.com/gpu.deploy.*=false on the nodes)",
        )
    ),
    "none": _same(FitRow(ok=True, summary="EKS Auto Mode's driver and device plugin (AWS-managed, not a DaemonSet)")),
}

_BY_PLATFORM: Mapping[PlatformAdvertiser, Mapping[StackKind, ByDriver]] = {
    "nvidia": _NVIDIA,
    "gke-device-plugin": _GKE,
    "bottlerocket": _BOTTLEROCKET,
    "eks-auto-mode": _AUTO_MODE,
}
FITS: Mapping[tuple[PlatformAdvertiser, StackKind], ByDriver] = {
    (platform, kind): rows for platform, table in _BY_PLATFORM.items() for kind, rows in table.items()
}
"""``(platform plugin, stack kind) -> {driver owner: row}``: every pair has a row."""
