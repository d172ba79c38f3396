"""``NvidiaDraDriver``: NVIDIA's DRA driver chart on gpuready's DRA pools (``advertise: dra``)."""

from __future__ import annotations

import pulumi

from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.gpu_stack.release_component import GpuStackRelease, GpuStackReleaseArgs
from gpuready.record import record


@record(frozen=True, kw_only=True)
class NvidiaDraDriverArgs(GpuStackReleaseArgs):
    """Inputs of ``NvidiaDraDriver``. Chart ``dra-driver-nvidia-gpu`` 0.4.0 from https://helm.ngc.nvidia.com/nvidia
    unless overridden; values are derived from the pools (see ``gpuready.core.gpu_stack.kinds.dra_driver``)."""

    cluster_version: str | None = None
    """The cluster's Kubernetes version (``1.34``, ``v1.34.1-eks-...``): at least 1.34, where resource.k8s.io/v1
    is GA."""

    def spec(self) -> GpuStackSpec:
        return self.stack_spec("dra-driver")


class NvidiaDraDriver(GpuStackRelease):
    """The DRA driver release (plus its namespace): DeviceClasses ``gpu.nvidia.com`` / ``mig.nvidia.com`` and the
    kubelet plugin on the DRA pools only.

    Pass a ``pulumi_kubernetes.Provider`` for the cluster as ``args.provider`` (or in ``opts``)."""

    TOKEN = "gpuready:index:NvidiaDraDriver"

    def __init__(
        self,
        name: str,
        args: NvidiaDraDriverArgs,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        self._build(name, args, args.spec(), opts)
