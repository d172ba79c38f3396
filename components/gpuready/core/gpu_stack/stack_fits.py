"""Driver ownership as data: ``(platform plugin, stack kind) -> fit``, per driver owner. Pure.

One row per device plugin that comes with a platform (``PlatformAdvertiser``: ``nvidia`` when none does) and stack
kind, with the row for each driver owner (``cloud``: the image installs it; ``operator``: nothing does, unless the
stack installs it). Each kind holds its ``nvidia`` rows (``GpuStackKind.nvidia_fits``, in its module under
``kinds/``); a platform's own plugin (GKE's, Bottlerocket's, EKS Auto Mode's) has its rows in its cloud's package
(``NodeSetup.platform_fits``). ``ownership.fit`` is the lookup; the sources of every row are in ``ownership``'s
docstring.
"""

from __future__ import annotations

from gpuready.core.clouds.fit_rows import ByDriver
from gpuready.core.clouds.node_setup import PlatformAdvertiser, PlatformFits
from gpuready.core.gpu_stack.kind import GpuStackKind

_NOT_YET = " (the GPU Operator as the driver installer beside the DRA driver is not offered yet)"
DRA_HINT = "use advertise: device-plugin under gpuStack.kind gpu-operator" + _NOT_YET
"""The hint of the DRA stacks' rows for a pool whose driver nothing installs."""
DRA_HINT_CLOUD = "set the pool's driver: cloud" + _NOT_YET
"""The same, where the cloud's driver serves NVIDIA's plugin."""


def rows(platform_fits: PlatformFits, plugin: PlatformAdvertiser, kind: GpuStackKind) -> ByDriver:
    """The rows of ``plugin`` and ``kind``: the kind's own on NVIDIA's plugin, or the platform's from its cloud
    profile (``NodeSetup.platform_fits``: a platform's plugin is its cloud's fact)."""
    return kind.nvidia_fits if plugin == "nvidia" else platform_fits[plugin][kind.key]
