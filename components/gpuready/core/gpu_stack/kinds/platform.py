"""``none`` and ``external``: the stack kinds that install no chart. Pure.

``none``: the cloud's own stack advertises the GPUs by its device plugin (GKE with its driver, Bottlerocket).
``external``: you run NVIDIA's stack yourself; gpuready installs nothing and only checks that the pools can carry it.
"""

from __future__ import annotations

from gpuready.core.advertisers.extended_resources import EXTENDED_RESOURCES
from gpuready.core.clouds.fit_rows import FitRow
from gpuready.core.gpu_stack.kind import GpuStackKind

NONE_STACK = GpuStackKind(
    key="none",
    serves=EXTENDED_RESOURCES.key,
    nvidia_fits={
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
)
"""The cloud's own stack advertises the GPUs by its device plugin."""
EXTERNAL_STACK = GpuStackKind(
    key="external",
    nvidia_fits={
        "cloud": FitRow(ok=True, summary="your NVIDIA stack"),
        "operator": FitRow(ok=True, summary="your NVIDIA stack (it must install the driver)"),
    },
)
"""You run NVIDIA's stack; gpuready installs nothing and checks only that the pools can carry it."""
