"""Install the GPU stack a ``GpuStackSpec`` names (stack programs): the right component, or nothing."""

from __future__ import annotations

from collections.abc import Sequence

import pulumi

from components.core.gpu_stack.stack_spec import GpuStackSpec
from components.gpu_stack.device_plugin import NvidiaDevicePlugin, NvidiaDevicePluginArgs
from components.gpu_stack.gpu_operator import GpuOperator, GpuOperatorArgs
from components.gpu_stack.release_component import GpuStackRelease, PoolInput, release_settings_of


def install_gpu_stack(
    name: str,
    pools: Sequence[PoolInput],
    spec: GpuStackSpec,
    provider: pulumi.ProviderResource | None,
    opts: pulumi.ResourceOptions | None = None,
) -> GpuStackRelease | None:
    """``GpuOperator`` or ``NvidiaDevicePlugin`` for ``spec``; None for ``none`` and ``external`` stacks."""
    settings = release_settings_of(spec)
    if spec.kind == "gpu-operator":
        operator_args = GpuOperatorArgs(pools=pools, mig_reboot=spec.mig_reboot, provider=provider, **settings)
        return GpuOperator(name, operator_args, opts)
    if spec.kind == "device-plugin":
        plugin_args = NvidiaDevicePluginArgs(pools=pools, gfd=spec.gfd, provider=provider, **settings)
        return NvidiaDevicePlugin(name, plugin_args, opts)
    return None
