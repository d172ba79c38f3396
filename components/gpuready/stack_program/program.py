"""The gpuready stack program: stack config -> validated pool specs -> GPU node pool components -> exports.

Every pool is validated before the first resource is registered, so bad config changes nothing. ``run`` is the whole
program: the repository's ``stacks/__main__.py`` and every project ``gpuready new`` writes call it.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

import pulumi

from gpuready.core.component_entry import SettingEntry
from gpuready.core.health.agent import HealthSpec
from gpuready.core.setting_components import SETTING_COMPONENTS
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import StackSettings
from gpuready.errors import GpuReadyError
from gpuready.pool_outputs import GpuNodePoolBase
from gpuready.stack_adapters import build_fabric_plugin, build_health_agent, build_pool
from gpuready.stack_program import config as program_config

if TYPE_CHECKING:
    from gpuready.gpu_stack.release_component import GpuStackRelease


def stack_cluster(settings: StackSettings) -> Callable[[], pulumi.ProviderResource]:
    """The stack's one Kubernetes provider, made on first use: by the first elastic pool (a custom resource in the
    cluster) or by the cluster software; a stack that needs neither makes no provider and looks no cluster up."""

    @functools.cache
    def provider() -> pulumi.ProviderResource:
        # Lazy: the Kubernetes SDK loads only for a stack that talks to its cluster.
        from gpuready.core.cluster_kubeconfig import ClusterTarget  # noqa: PLC0415
        from gpuready.kube_provider import cluster_provider  # noqa: PLC0415

        target = ClusterTarget(
            cloud=settings.cloud,
            cluster_name=settings.cluster_name,
            cloud_settings=settings.cloud_settings,
        )
        made: pulumi.ProviderResource = cluster_provider(
            "cluster", target, kubeconfig=settings.kubeconfig, context=settings.kube_context
        )
        return made

    return provider


def build_pools(
    settings: StackSettings, cluster: Callable[[], pulumi.ProviderResource] | None = None
) -> list[GpuNodePoolBase]:
    """One component per pool, made by the pool's provisioner (elastic ones on ``cluster``'s provider)."""
    return [build_pool(spec, settings, cluster) for spec in settings.pools]


class StackComponentBuilder(Protocol):
    """A stack-wide component's builder module (``SettingEntry.builder``), as the stack program uses it: the
    component on the stack's pools and its one Kubernetes provider (``cluster``, made on first use), or None when the
    stack gets none of it (then it makes no provider); and what the stack exports of it."""

    def stack_component(
        self, name: str, spec: Any, pools: Sequence[GpuPoolSpec], cluster: Callable[[], pulumi.ProviderResource]
    ) -> pulumi.Resource | None: ...
    def stack_exports(self, spec: Any, component: pulumi.Resource) -> dict[str, Any]: ...


StackComponents = list[tuple[SettingEntry, Any, StackComponentBuilder, pulumi.Resource]]
"""The stack-wide components the stack made: entry, parsed spec, builder module and component."""


def build_cluster_software(
    settings: StackSettings, pools: list[GpuNodePoolBase], cluster: Callable[[], pulumi.ProviderResource] | None = None
) -> tuple[GpuStackRelease | None, StackComponents]:
    """The GPU stack release (None when the stack asks for none) and the stack-wide components (each registered
    ``SettingEntry`` whose key the stack sets: the bin-packing scheduler, the Kueue objects), on one provider for the
    stack's cluster (made on first use: without any, no provider and no cluster lookup). The fabric pools' cluster
    objects (``GpuFabricObjects``) go on the same provider when there are any."""
    fabric: list[Any] = []
    if any(spec.fabric is not None for spec in settings.pools):
        # Late: the fabric component (and the Kubernetes SDK it registers with) loads only for a fabric pool.
        from gpuready.gpu_stack.fabric import fabric_manifests  # noqa: PLC0415

        fabric = fabric_manifests(settings.pools)
    cluster = cluster or stack_cluster(settings)
    gpu_stack = None
    if settings.gpu_stack.installs_chart or fabric:
        from gpuready.gpu_stack.install import install_gpu_stack  # noqa: PLC0415

        provider = cluster()
        if fabric:
            from gpuready.gpu_stack.fabric import GpuFabricObjects  # noqa: PLC0415

            GpuFabricObjects("fabric", fabric, pulumi.ResourceOptions(provider=provider))
        gpu_stack = install_gpu_stack("gpu-stack", pools, settings.planned_gpu_stack, provider)
    components: StackComponents = []
    for entry in SETTING_COMPONENTS:
        spec = getattr(settings, entry.setting)
        if spec is None or (entry.needed is not None and not entry.needed(spec, settings.pools)):
            continue  # the stack gets none of it: its builder is not even imported
        builder = cast("StackComponentBuilder", importlib.import_module(entry.builder))
        component = builder.stack_component(entry.stack_name, spec, settings.pools, cluster)
        if component is not None:
            components.append((entry, spec, builder, component))
    return gpu_stack, components


def run() -> None:
    """Run the stack program on the running stack's ``gpuready:*`` config (inside a Pulumi program)."""
    try:
        settings = program_config.load()
    except GpuReadyError as error:
        # A RunError prints the message without a Python traceback.
        raise pulumi.RunError(f"invalid gpuready config:\n{error}") from error
    cluster = stack_cluster(settings)
    pools = build_pools(settings, cluster)
    gpu_stack, components = build_cluster_software(settings, pools, cluster)
    health_agent = build_health_agent(settings, list(pools))
    fabric_plugin = build_fabric_plugin(settings, pools, cluster)
    if settings.verify:
        from gpuready.verify_hook import verify_pools  # noqa: PLC0415

        verify_pools(
            pools,
            kubeconfig=pulumi.Output.secret(settings.kubeconfig) if settings.kubeconfig else None,
            context=settings.kube_context or None,
            timeout=settings.verify_timeout_seconds,
            skip=settings.verify_skip_pools,
            smoke=settings.verify_smoke,
            smoke_image=settings.verify_smoke_image or None,
            smoke_nccl_image=settings.verify_smoke_nccl_image or None,
            depends_on=[r for r in (gpu_stack, health_agent, fabric_plugin) if r is not None],
        )
    pulumi.export("cloud", settings.cloud)
    pulumi.export("clusterName", settings.cluster_name)
    for entry, spec, builder, component in components:
        pulumi.export(entry.key, builder.stack_exports(spec, component))
    # Planned once, with the settings (for none / external the plan is only the per-pool summaries).
    plan = settings.planned_gpu_stack
    release = plan.release
    pulumi.export(
        "gpuStack",
        {
            "kind": settings.gpu_stack.kind,
            "pools": {service.pool: service.summary for service in plan.pools},
            **({"health": plan.health} if settings.gpu_stack.health != HealthSpec() else {}),
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
