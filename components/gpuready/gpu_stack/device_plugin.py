"""``NvidiaDevicePlugin``: NVIDIA's device-plugin chart (with GFD and NFD on GPU pools) on gpuready pools."""

from __future__ import annotations

import pulumi

from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.gpu_stack.release_component import GpuStackRelease, GpuStackReleaseArgs
from gpuready.record import record


@record(frozen=True, kw_only=True)
class NvidiaDevicePluginArgs(GpuStackReleaseArgs):
    """Inputs of ``NvidiaDevicePlugin``. Chart ``nvidia-device-plugin`` 0.20.0 from
    https://nvidia.github.io/k8s-device-plugin unless overridden; values are derived from the pools (see
    ``gpuready.core.gpu_stack.kinds.device_plugin``)."""

    gfd: bool = True
    """Run GPU Feature Discovery (and with it NFD); MPS sharing needs it."""

    def spec(self) -> GpuStackSpec:
        return self.stack_spec("device-plugin")


class NvidiaDevicePlugin(GpuStackRelease):
    """The device-plugin release (plus namespace and the sharing config map).

    Pass a ``pulumi_kubernetes.Provider`` for the cluster as ``args.provider`` (or in ``opts``)."""

    TOKEN = "gpuready:index:NvidiaDevicePlugin"

    def __init__(
        self,
        name: str,
        args: NvidiaDevicePluginArgs,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        self._build(name, args, args.spec(), opts)
