"""``GpuOperator``: the NVIDIA GPU Operator chart on gpuready pools, driver owned by exactly one party."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pulumi

from components.core.gpu_stack.charts import GPU_OPERATOR
from components.core.gpu_stack.stack_spec import MIN_TIMEOUT_SECONDS, GpuStackSpec, NfdMode
from components.gpu_stack.release_component import GpuStackRelease, PoolInput, make_plan


@dataclass(frozen=True, kw_only=True)
class GpuOperatorArgs:
    """Inputs of ``GpuOperator``. Chart ``gpu-operator`` v26.7.0 from https://helm.ngc.nvidia.com/nvidia unless
    overridden; values are derived from the pools (see ``components.core.gpu_stack.operator_values``)."""

    pools: Sequence[PoolInput]
    namespace: str | None = None
    release_name: str | None = None
    chart_version: str | None = None
    repository: str | None = None
    timeout_seconds: int = MIN_TIMEOUT_SECONDS
    nfd: NfdMode = "deploy"
    mig_reboot: bool = True

    def spec(self) -> GpuStackSpec:
        return GpuStackSpec(
            kind="gpu-operator",
            namespace=self.namespace,
            release_name=self.release_name,
            chart_version=self.chart_version,
            repository=self.repository,
            timeout_seconds=self.timeout_seconds,
            nfd=self.nfd,
            mig_reboot=self.mig_reboot,
        )


class GpuOperator(GpuStackRelease):
    """The GPU Operator release (plus namespace, device-plugin / mig-parted configs and, on GKE, the quota).

    Pass a ``pulumi_kubernetes.Provider`` for the cluster as ``provider`` (or in ``opts``)."""

    chart = GPU_OPERATOR

    def __init__(
        self,
        name: str,
        args: GpuOperatorArgs,
        provider: pulumi.ProviderResource | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        plan = make_plan(args.pools, args.spec())
        super().__init__("gpuready:index:GpuOperator", name, plan, pools=args.pools, provider=provider, opts=opts)
