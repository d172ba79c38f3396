"""``NvidiaDevicePlugin``: NVIDIA's device-plugin chart (with GFD and NFD on GPU pools) on gpuready pools."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pulumi

from components.core.gpu_stack.charts import DEVICE_PLUGIN
from components.core.gpu_stack.stack_spec import MIN_TIMEOUT_SECONDS, GpuStackSpec, NfdMode
from components.gpu_stack.release_component import GpuStackRelease, PoolInput, make_plan


@dataclass(frozen=True, kw_only=True)
class NvidiaDevicePluginArgs:
    """Inputs of ``NvidiaDevicePlugin``. Chart ``nvidia-device-plugin`` 0.20.0 from
    https://nvidia.github.io/k8s-device-plugin unless overridden; values are derived from the pools (see
    ``components.core.gpu_stack.device_plugin_values``)."""

    pools: Sequence[PoolInput]
    namespace: str | None = None
    release_name: str | None = None
    chart_version: str | None = None
    repository: str | None = None
    timeout_seconds: int = MIN_TIMEOUT_SECONDS
    nfd: NfdMode = "deploy"
    gfd: bool = True

    def spec(self) -> GpuStackSpec:
        return GpuStackSpec(
            kind="device-plugin",
            namespace=self.namespace,
            release_name=self.release_name,
            chart_version=self.chart_version,
            repository=self.repository,
            timeout_seconds=self.timeout_seconds,
            nfd=self.nfd,
            gfd=self.gfd,
        )


class NvidiaDevicePlugin(GpuStackRelease):
    """The device-plugin release (plus namespace and the sharing config map).

    Pass a ``pulumi_kubernetes.Provider`` for the cluster as ``provider`` (or in ``opts``)."""

    chart = DEVICE_PLUGIN

    def __init__(
        self,
        name: str,
        args: NvidiaDevicePluginArgs,
        provider: pulumi.ProviderResource | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        plan = make_plan(args.pools, args.spec())
        token = "gpuready:index:NvidiaDevicePlugin"
        super().__init__(token, name, plan, pools=args.pools, provider=provider, opts=opts)
