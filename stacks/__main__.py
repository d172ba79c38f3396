"""The gpuready Pulumi program: stack config -> validated pool specs -> GPU node pool components -> exports.

Every pool is validated before the first resource is registered, so bad config changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import program_config
import pulumi

from components.core.stack_settings import StackSettings
from components.errors import GpuReadyError
from components.pool_outputs import GpuNodePoolBase
from components.stack_adapters import build_pool

if TYPE_CHECKING:
    from components.gpu_stack.release_component import GpuStackRelease


def build_pools(settings: StackSettings) -> list[GpuNodePoolBase]:
    """One component per pool, made by the pool's provisioner."""
    return [build_pool(spec, settings) for spec in settings.pools]


def build_cluster_software(
    settings: StackSettings, pools: list[GpuNodePoolBase]
) -> tuple[GpuStackRelease | None, pulumi.Resource | None]:
    """The GPU stack release and the bin-packing scheduler, on one provider for the stack's cluster (each None
    when the stack asks for none; without either, no provider and no cluster lookup)."""
    if not settings.gpu_stack.installs_chart and settings.binpack_scheduler is None:
        return None, None
    from components.core.cluster_kubeconfig import ClusterTarget  # noqa: PLC0415
    from components.gpu_stack.install import install_gpu_stack  # noqa: PLC0415
    from components.kube_provider import cluster_provider  # noqa: PLC0415

    target = ClusterTarget(
        cloud=settings.cloud,
        cluster_name=settings.cluster_name,
        aks_resource_group=settings.aks_resource_group,
        gke_location=settings.gke_location,
    )
    provider = cluster_provider("cluster", target, kubeconfig=settings.kubeconfig, context=settings.kube_context)
    gpu_stack = install_gpu_stack("gpu-stack", pools, settings.planned_gpu_stack, provider)
    scheduler = None
    if settings.binpack_scheduler is not None:
        from components.scheduler.binpack_scheduler import (  # noqa: PLC0415
            GpuBinPackingScheduler,
            GpuBinPackingSchedulerArgs,
        )

        scheduler = GpuBinPackingScheduler(
            "gpu-binpack",
            GpuBinPackingSchedulerArgs(scheduler=settings.binpack_scheduler),
            opts=pulumi.ResourceOptions(provider=provider),
        )
    return gpu_stack, scheduler


def main() -> None:
    try:
        settings = program_config.load()
    except GpuReadyError as error:
        # A RunError prints the message without a Python traceback.
        raise pulumi.RunError(f"invalid gpuready config:\n{error}") from error
    pools = build_pools(settings)
    gpu_stack, scheduler = build_cluster_software(settings, pools)
    if settings.verify:
        from components.verify_hook import verify_pools  # noqa: PLC0415

        verify_pools(
            pools,
            kubeconfig=pulumi.Output.secret(settings.kubeconfig) if settings.kubeconfig else None,
            context=settings.kube_context or None,
            timeout=settings.verify_timeout_seconds,
            skip=settings.verify_skip_pools,
            depends_on=[gpu_stack] if gpu_stack is not None else [],
        )
    pulumi.export("cloud", settings.cloud)
    pulumi.export("clusterName", settings.cluster_name)
    if scheduler is not None and settings.binpack_scheduler is not None:
        binpack = settings.binpack_scheduler
        pulumi.export(
            "binpackScheduler",
            {"schedulerName": binpack.scheduler_name, "namespace": binpack.namespace, "image": binpack.image},
        )
    # Planned once, with the settings (for none / external the plan is only the per-pool summaries).
    plan = settings.planned_gpu_stack
    release = plan.release
    pulumi.export(
        "gpuStack",
        {
            "kind": settings.gpu_stack.kind,
            "pools": {service.pool: service.summary for service in plan.pools},
            **(
                {"release": release.name, "chart": release.chart.name, "version": release.version,
                 "namespace": release.namespace}
                if release is not None
                else {}
            ),
        },
    )  # fmt: skip
    # Plain values (known at construction) plus the cloud-reported name: cheap to export at any scale.
    pulumi.export(
        "pools",
        {
            p.spec.name: {
                "nodePoolName": p.node_pool_name,
                "nodeSelector": p.values.node_selector,
                "taint": p.values.taint,
                "tolerations": p.values.tolerations,
                "resourceName": p.values.resource_name,
                "allocatable": p.values.allocatable,
                "gpusPerNode": p.values.gpus_per_node,
                "accelerator": p.values.accelerator,
            }
            for p in pools
        },
    )


main()
