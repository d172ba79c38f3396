"""Install the GPU stack a stack's settings planned (stack programs): the right component, or nothing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pulumi

from gpuready.core.gpu_stack.stack_plan import GpuStackPlan
from gpuready.gpu_stack.device_plugin import NvidiaDevicePlugin
from gpuready.gpu_stack.dra_driver import NvidiaDraDriver
from gpuready.gpu_stack.gpu_operator import GpuOperator
from gpuready.gpu_stack.gpu_operator_dra import GpuOperatorDra
from gpuready.gpu_stack.release_component import GpuStackRelease, PoolInput

STACK_COMPONENTS: Mapping[str, type[GpuStackRelease]] = {
    "gpu-operator": GpuOperator,
    "device-plugin": NvidiaDevicePlugin,
    "dra-driver": NvidiaDraDriver,
    "gpu-operator-dra": GpuOperatorDra,
}
"""The component of each stack kind that installs a chart (``charts.STACK_CHARTS`` has the same keys)."""


def install_gpu_stack(
    name: str,
    pools: Sequence[PoolInput],
    plan: GpuStackPlan,
    provider: pulumi.ProviderResource | None,
    opts: pulumi.ResourceOptions | None = None,
) -> GpuStackRelease | None:
    """The plan's component (``STACK_COMPONENTS``, made once, with the settings); None for ``none`` and ``external``
    stacks."""
    component = STACK_COMPONENTS.get(plan.spec.kind)
    if component is None:
        return None
    return component.from_plan(name, plan, pools=pools, provider=provider, opts=opts)
