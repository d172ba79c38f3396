"""``GpuOperator``: the NVIDIA GPU Operator chart on gpuready pools, driver owned by exactly one party."""

from __future__ import annotations

import pulumi

from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.gpu_stack.release_component import GpuStackRelease, GpuStackReleaseArgs
from gpuready.record import record


@record(frozen=True, kw_only=True)
class GpuOperatorArgs(GpuStackReleaseArgs):
    """Inputs of ``GpuOperator``. Chart ``gpu-operator`` v26.7.0 from https://helm.ngc.nvidia.com/nvidia unless
    overridden; values are derived from the pools (see ``gpuready.core.gpu_stack.operator_values``)."""

    mig_reboot: bool = True
    """Let the MIG manager reboot a node to apply a layout (cloud VMs cannot reset a GPU)."""

    def spec(self) -> GpuStackSpec:
        return self.stack_spec("gpu-operator")


class GpuOperator(GpuStackRelease):
    """The GPU Operator release (plus namespace, device-plugin / mig-parted configs and, on GKE, the quota).

    Pass a ``pulumi_kubernetes.Provider`` for the cluster as ``args.provider`` (or in ``opts``)."""

    TOKEN = "gpuready:index:GpuOperator"

    def __init__(
        self,
        name: str,
        args: GpuOperatorArgs,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        self._build(name, args, args.spec(), opts)
