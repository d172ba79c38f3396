"""Install the GPU stack a ``GpuStackSpec`` names (stack programs): the right component, or nothing."""

from __future__ import annotations

from collections.abc import Sequence

import pulumi

from components.core.gpu_stack.stack_spec import GpuStackSpec
from components.gpu_stack.device_plugin import NvidiaDevicePlugin, NvidiaDevicePluginArgs
from components.gpu_stack.gpu_operator import GpuOperator, GpuOperatorArgs
from components.gpu_stack.release_component import GpuStackRelease, PoolInput


def install_gpu_stack(
    name: str,
    pools: Sequence[PoolInput],
    spec: GpuStackSpec,
    provider: pulumi.ProviderResource | None,
    opts: pulumi.ResourceOptions | None = None,
) -> GpuStackRelease | None:
    """``GpuOperator`` or ``NvidiaDevicePlugin`` for ``spec``; None for ``none`` and ``external`` stacks."""
    if spec.kind == "gpu-operator":
        return GpuOperator(
            name,
            GpuOperatorArgs(
                pools=pools,
                namespace=spec.namespace,
                release_name=spec.release_name,
                chart_version=spec.chart_version,
                repository=spec.repository,
                timeout_seconds=spec.timeout_seconds,
                nfd=spec.nfd,
                mig_reboot=spec.mig_reboot,
            ),
            provider,
            opts,
        )
    if spec.kind == "device-plugin":
        return NvidiaDevicePlugin(
            name,
            NvidiaDevicePluginArgs(
                pools=pools,
                namespace=spec.namespace,
                release_name=spec.release_name,
                chart_version=spec.chart_version,
                repository=spec.repository,
                timeout_seconds=spec.timeout_seconds,
                nfd=spec.nfd,
                gfd=spec.gfd,
            ),
            provider,
            opts,
        )
    return None
