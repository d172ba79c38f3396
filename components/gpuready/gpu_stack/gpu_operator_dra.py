"""``GpuOperatorDra``: the GPU Operator chart's experimental GPUCluster stack on gpuready's DRA pools."""

from __future__ import annotations

import pulumi

from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.gpu_stack.release_component import GpuStackRelease, GpuStackReleaseArgs
from gpuready.record import record


@record(frozen=True, kw_only=True)
class GpuOperatorDraArgs(GpuStackReleaseArgs):
    """Inputs of ``GpuOperatorDra``. Chart ``gpu-operator`` v26.7.0 from https://helm.ngc.nvidia.com/nvidia unless
    overridden, with ``gpuCluster.deployCR`` instead of the ClusterPolicy; values are derived from the pools (see
    ``gpuready.core.gpu_stack.kinds.gpu_operator_dra``)."""

    cluster_version: str | None = None
    """The cluster's Kubernetes version (``1.34``, ``v1.34.1-eks-...``): at least 1.34, where resource.k8s.io/v1
    is GA (the chart itself refuses a cluster that serves no DeviceClass API)."""

    def spec(self) -> GpuStackSpec:
        return self.stack_spec("gpu-operator-dra")


class GpuOperatorDra(GpuStackRelease):
    """The GPU Operator release whose GPUCluster runs NVIDIA's DRA driver, DCGM exporter and DRA validator on the
    DRA pools (experimental upstream). No ClusterPolicy: no device plugin, GFD, MIG manager or toolkit.

    Pass a ``pulumi_kubernetes.Provider`` for the cluster as ``args.provider`` (or in ``opts``)."""

    TOKEN = "gpuready:index:GpuOperatorDra"

    def __init__(
        self,
        name: str,
        args: GpuOperatorDraArgs,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        self._build(name, args, args.spec(), opts)
