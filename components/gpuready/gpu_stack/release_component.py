"""The shared adapter behind ``GpuOperator`` and ``NvidiaDevicePlugin``: a plan from ``gpuready.core.gpu_stack``
registered as a namespace, its config maps (and GKE quota), then the pinned ``helm.v3.Release``.

The plan is made before the component registers, so a contradiction between the stack and the pools raises
``SpecError`` with nothing half-applied. Registration order: namespace, objects in it, then the release, which
also depends on the pool components it serves (its DaemonSets then roll onto pools that exist).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import field, fields
from typing import Any, ClassVar, Self, assert_never

import pulumi
import pulumi_kubernetes as k8s

from gpuready.core.gpu_stack.kinds import StackKind
from gpuready.core.gpu_stack.stack_objects import ConfigMapObject, ReleaseObject, ResourceQuotaObject
from gpuready.core.gpu_stack.stack_plan import GpuStackPlan, plan_gpu_stack
from gpuready.core.gpu_stack.stack_spec import MIN_TIMEOUT_SECONDS, GpuStackSpec, NfdMode
from gpuready.core.health.agent import HealthSpec
from gpuready.core.health.agent_chart import AGENT_ADDON
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import SpecError
from gpuready.pool_outputs import GpuNodePoolBase
from gpuready.record import record
from gpuready.stack_adapters import install_health_agent, require_cluster_name

PoolInput = GpuNodePoolBase | GpuPoolSpec
"""A pool component from this package, or just its spec (pools made elsewhere, with gpuready's labels)."""


@record(frozen=True, kw_only=True)
class GpuStackReleaseArgs:
    """What both chart components take: the pools and the release settings (chart pinned unless overridden)."""

    pools: Sequence[PoolInput]
    namespace: str | None = None
    release_name: str | None = None
    chart_version: str | None = None
    repository: str | None = None
    timeout_seconds: int = MIN_TIMEOUT_SECONDS
    nfd: NfdMode = "deploy"
    values: Mapping[str, Any] = field(default_factory=dict)
    """Extra Helm values deep-merged into the release (a private registry, ``imagePullSecrets``, resources...):
    keys the chart reads, never one gpuready decides (``gpuready.core.gpu_stack.owned_values``)."""
    monitoring: bool | None = None
    """GPU Operator: the DCGM exporter's ServiceMonitor on or off; None keeps the chart's default."""
    health: HealthSpec = field(default_factory=HealthSpec)
    """Who reports GPU health and who runs DCGM on the pools (``gpuStack.health``; see docs/gpu-health.md)."""
    provider: pulumi.ProviderResource | None = None
    """The cluster's ``pulumi_kubernetes.Provider`` (or pass it in ``opts``, as ``provider`` or ``providers``)."""
    cluster_name: str | None = None
    """The cluster's name: required when ``health`` installs an agent add-on (EKS: the node monitoring agent)."""
    tags: Mapping[str, str] = field(default_factory=dict)
    """Tags of the health agent add-on, when one is installed."""

    def stack_spec(self, kind: StackKind) -> GpuStackSpec:
        """The validated spec of these arguments (Python users' path; stack programs plan from the settings):
        every field these arguments share with ``GpuStackSpec`` by name, so the two cannot drift apart."""
        given = {f.name: getattr(self, f.name) for f in fields(self) if f.name in _SPEC_FIELDS}
        return GpuStackSpec(kind=kind, **given)


_SPEC_FIELDS = frozenset(f.name for f in fields(GpuStackSpec) if f.init) - {"kind"}
"""The release settings a chart component passes on to its spec (``kind`` is the component's own)."""


def pool_specs(pools: Sequence[PoolInput]) -> list[GpuPoolSpec]:
    return [p.spec if isinstance(p, GpuNodePoolBase) else p for p in pools]


def make_plan(pools: Sequence[PoolInput], spec: GpuStackSpec) -> GpuStackPlan:
    """The plan for ``pools``; every pool must be of one cloud."""
    specs = pool_specs(pools)
    if not specs:
        raise SpecError.one("pools", "a GPU stack needs at least one pool to serve", [], (), "pass the pool components")
    clouds = sorted({p.cloud for p in specs})
    if len(clouds) > 1:
        raise SpecError.one("pools", "all pools of one GPU stack are in one cluster, so of one cloud", clouds)
    return plan_gpu_stack(specs[0].profile, specs, spec)


class GpuStackRelease(pulumi.ComponentResource):
    """Namespace, config maps and the chart release of one GPU stack plan."""

    TOKEN: ClassVar[str] = "gpuready:index:GpuStackRelease"
    """The component type of each chart's subclass."""

    plan: GpuStackPlan
    namespace: k8s.core.v1.Namespace
    release: k8s.helm.v3.Release
    objects: list[pulumi.CustomResource]
    health_agent: pulumi.Resource | None
    """The health agent add-on ``plan`` installs (a child), or None (none planned, or the stack program's own)."""

    def __init__(
        self,
        type_token: str,
        name: str,
        plan: GpuStackPlan,
        *,
        pools: Sequence[PoolInput],
        provider: pulumi.ProviderResource | None,
        opts: pulumi.ResourceOptions | None,
        cluster_name: str | None = None,
        tags: Mapping[str, str] | None = None,
        install_agent: bool = True,
    ) -> None:
        release = plan.release
        if release is None or plan.namespace is None:
            raise ValueError(f"{type_token}: the plan installs no chart")
        if install_agent:
            require_cluster_name(plan, cluster_name, "clusterName")
        super().__init__(type_token, name, {}, opts)
        self.plan = plan
        child = pulumi.ResourceOptions(parent=self, provider=provider)
        self.namespace = k8s.core.v1.Namespace(
            f"{name}-namespace", metadata=dict(plan.namespace["metadata"]), opts=child
        )
        in_namespace = pulumi.ResourceOptions.merge(child, pulumi.ResourceOptions(depends_on=[self.namespace]))
        self.objects = [_object(name, obj, in_namespace) for obj in plan.objects]
        components = [p for p in pools if isinstance(p, GpuNodePoolBase)]
        self.release = k8s.helm.v3.Release(
            f"{name}-release",
            name=release.name,
            chart=release.chart.name,
            version=release.version,
            repository_opts=k8s.helm.v3.RepositoryOptsArgs(repo=release.repository),
            namespace=self.namespace.metadata["name"],
            create_namespace=False,
            values=_plain(release.values),
            timeout=release.timeout_seconds,
            atomic=release.atomic,
            skip_await=release.skip_await,
            disable_openapi_validation=release.chart.disable_openapi_validation,
            opts=pulumi.ResourceOptions.merge(
                child, pulumi.ResourceOptions(depends_on=[self.namespace, *self.objects, *components])
            ),
        )
        self.health_agent = None
        if install_agent and cluster_name:
            self.health_agent = install_health_agent(
                plan,
                f"{name}-{AGENT_ADDON}",
                cluster_name=cluster_name,
                tags=tags or {},
                opts=pulumi.ResourceOptions(parent=self, depends_on=list(components)),
            )
        self.register_outputs(
            {
                "release_name": self.release.name,
                "namespace": release.namespace,
                "chart": release.chart.name,
                "version": release.version,
                "values": _plain(release.values),
            }
        )

    def _build(
        self, name: str, args: GpuStackReleaseArgs, spec: GpuStackSpec, opts: pulumi.ResourceOptions | None
    ) -> None:
        """A chart component's constructor: plan ``spec`` for ``args.pools`` and build what the plan holds."""
        GpuStackRelease.__init__(
            self, self.TOKEN, name, make_plan(args.pools, spec), pools=args.pools, provider=args.provider, opts=opts,
            cluster_name=args.cluster_name, tags=args.tags,
        )  # fmt: skip

    @classmethod
    def from_plan(
        cls,
        name: str,
        plan: GpuStackPlan,
        *,
        pools: Sequence[PoolInput],
        provider: pulumi.ProviderResource | None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> Self:
        """The component for a plan made already (the stack program's settings carry it): nothing is planned
        or checked twice. The stack program installs the plan's health agent itself (beside the release, also for
        stacks without a chart), so this component installs none."""
        release = cls.__new__(cls)
        GpuStackRelease.__init__(
            release, cls.TOKEN, name, plan, pools=pools, provider=provider, opts=opts, install_agent=False
        )
        return release

    @property
    def release_name(self) -> pulumi.Output[str]:
        name: pulumi.Output[str] = self.release.name
        return name


def _object(name: str, obj: ReleaseObject, opts: pulumi.ResourceOptions) -> pulumi.CustomResource:
    metadata = dict(obj.manifest["metadata"])
    if isinstance(obj, ConfigMapObject):  # logical name without the content hash: edits replace, never rename
        config_map: pulumi.CustomResource = k8s.core.v1.ConfigMap(
            f"{name}-{obj.base_name}", metadata=metadata, data=dict(obj.data), opts=opts
        )
        return config_map
    if isinstance(obj, ResourceQuotaObject):
        quota: pulumi.CustomResource = k8s.core.v1.ResourceQuota(
            f"{name}-{obj.name}", metadata=metadata, spec=obj.manifest["spec"], opts=opts
        )
        return quota
    assert_never(obj)


def _plain(values: Mapping[str, Any]) -> dict[str, Any]:
    """A deep copy (the builders return plain dicts and lists; the release must not share them)."""
    return copy.deepcopy(dict(values))
