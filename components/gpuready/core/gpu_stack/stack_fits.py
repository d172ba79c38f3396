"""Driver ownership as data: ``(platform plugin, stack kind) -> fit``, per driver owner. Pure.

One row per device plugin that comes with a platform (``PlatformAdvertiser``: ``nvidia`` when none does) and stack
kind, with the row for each driver owner (``cloud``: the image installs it; ``operator``: nothing does, unless the
stack installs it). ``NVIDIA_FITS`` holds the ``nvidia`` rows; a platform's own plugin (GKE's, Bottlerocket's, EKS
Auto Mode's) has its rows in its cloud's package (``NodeSetup.platform_fits``). ``ownership.fit`` is the lookup;
the sources of every row are in ``ownership``'s docstring.
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.core.clouds.fit_rows import ByDriver, FitRow
from gpuready.core.clouds.node_setup import PlatformAdvertiser, PlatformFits
from gpuready.core.gpu_stack.charts import GPU_OPERATOR_DRA, StackKind

_NOT_YET = " (the GPU Operator as the driver installer beside the DRA driver is not offered yet)"
_DRA_HINT = "use advertise: device-plugin under gpuStack.kind gpu-operator" + _NOT_YET
_DRA_HINT_CLOUD = "set the pool's driver: cloud" + _NOT_YET
_EXPERIMENTAL = " (experimental)" if GPU_OPERATOR_DRA.experimental else ""

NVIDIA_FITS: Mapping[StackKind, ByDriver] = {
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
"""The rows of pools whose platform brings no device plugin (``nvidia``: NVIDIA's serves), per kind."""


def rows(platform_fits: PlatformFits, plugin: PlatformAdvertiser, kind: StackKind) -> ByDriver:
    """The rows of ``plugin`` and ``kind``: NVIDIA's, or the platform's own from its cloud profile
    (``NodeSetup.platform_fits``: a platform's plugin is its cloud's fact)."""
    return NVIDIA_FITS[kind] if plugin == "nvidia" else platform_fits[plugin][kind]
