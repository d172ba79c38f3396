"""Install the GPU stack a stack's settings planned (stack programs): the right component, or nothing."""

from __future__ import annotations

from collections.abc import Sequence

import pulumi

from components.core.gpu_stack.stack_plan import GpuStackPlan
from components.gpu_stack.device_plugin import NvidiaDevicePlugin
from components.gpu_stack.dra_driver import NvidiaDraDriver
from components.gpu_stack.gpu_operator import GpuOperator
from components.gpu_stack.release_component import GpuStackRelease, PoolInput


def install_gpu_stack(
    name: str,
    pools: Sequence[PoolInput],
    plan: GpuStackPlan,
    provider: pulumi.ProviderResource | None,
    opts: pulumi.ResourceOptions | None = None,
) -> GpuStackRelease | None:
    """``GpuOperator``, ``NvidiaDevicePlugin`` or ``NvidiaDraDriver`` for the plan (made once, with the settings);
    None for ``none`` and ``external`` stacks."""
    if plan.spec.kind == "gpu-operator":
        return GpuOperator.from_plan(name, plan, pools=pools, provider=provider, opts=opts)
    if plan.spec.kind == "device-plugin":
        return NvidiaDevicePlugin.from_plan(name, plan, pools=pools, provider=provider, opts=opts)
    if plan.spec.kind == "dra-driver":
        return NvidiaDraDriver.from_plan(name, plan, pools=pools, provider=provider, opts=opts)
    return None
