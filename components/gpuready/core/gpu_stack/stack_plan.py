"""A stack's GPU software stack, decided: the Helm release, its values, and the objects beside it. Pure.

``plan_gpu_stack`` checks the stack spec against the pools (``stack_rules``) and either raises one
``SpecError`` with every problem, or returns a ``GpuStackPlan`` the Pulumi components register as is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import TYPE_CHECKING, Any

from gpuready.core.gpu_stack import extra_values, ownership, stack_objects, stack_rules
from gpuready.core.gpu_stack.charts import Chart
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.health.agent import INSTALLED_AGENT, agent_values, health_problems
from gpuready.core.health.agent import describe as describe_health
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import Problem, SpecError
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.clouds.profile import CloudProfile
    from gpuready.core.clouds.registry import Cloud


@record(frozen=True, kw_only=True, slots=True)
class HelmRelease:
    """One ``helm.v3.Release``: chart, pinned version, repository, namespace, values and waiting."""

    name: str
    chart: Chart
    version: str
    repository: str
    namespace: str
    values: Mapping[str, Any]
    timeout_seconds: int
    atomic: bool = False
    """Off: a failed rollout stays for ``gpuready check`` to explain instead of being rolled back."""
    skip_await: bool = False
    """Off: Helm waits for the workloads, so whatever depends on the release sees a rolled-out stack."""


@record(frozen=True, kw_only=True, slots=True)
class PoolService:
    """How the stack serves one pool."""

    pool: str
    platform_plugin: ownership.PlatformPlugin
    """The device plugin that comes with the pool's platform (``nvidia``: none, NVIDIA's serves it)."""
    summary: str


@record(frozen=True, kw_only=True, slots=True)
class GpuStackPlan:
    """Everything a stack's GPU software needs, in registration order: namespace, objects, release."""

    spec: GpuStackSpec
    profile: CloudProfile = field(repr=False, compare=False)
    """The stack's cloud's profile (its health agents and adapters, its fabric), as the planner was given it."""
    pools: tuple[PoolService, ...]
    namespace: Mapping[str, Any] | None = None
    objects: tuple[stack_objects.ReleaseObject, ...] = ()
    """Config maps and the GKE ResourceQuota, created in ``namespace`` before the release."""
    release: HelmRelease | None = None
    config_data: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Config map name -> its data, for display."""
    health: str = ""
    """Who reports GPU health and runs DCGM, in one line (``gpuStack.health``)."""
    agent_values: Mapping[str, Any] | None = None
    """The EKS node monitoring agent's chart values (its add-on's configuration values), when it is installed."""

    @property
    def cloud(self) -> Cloud:
        """The stack's cloud's name."""
        return self.profile.name


def plan_gpu_stack(profile: CloudProfile, pools: Sequence[GpuPoolSpec], spec: GpuStackSpec) -> GpuStackPlan:
    """Decide the GPU stack for ``pools`` on ``profile``'s cloud (the stack's, resolved once); raise ``SpecError``
    listing every contradiction."""
    cloud = profile.name
    problems: list[Problem] = [
        Problem("nodePools", f"pool {p.name!r} is for {p.cloud}, not {cloud}") for p in pools if p.cloud != cloud
    ]
    problems.extend(stack_rules.stack_problems(pools, spec))
    agents = profile.health_agents
    problems.extend(health_problems(spec.health, stack_kind=spec.kind, monitoring=spec.monitoring, cloud_agents=agents,
                                    pools=pools))  # fmt: skip
    if problems:
        raise SpecError(problems)
    health = describe_health(spec.health, spec.kind, agents)
    agent = _agent_values(pools, spec)
    services = tuple(
        PoolService(
            pool=p.name,
            platform_plugin=p.resolved.platform_plugin,
            summary=ownership.pool_fit(p, spec.stack_kind).summary,
        )
        for p in pools
    )
    build = spec.stack_kind.values
    if build is None:
        return GpuStackPlan(spec=spec, profile=profile, pools=services, health=health, agent_values=agent)
    ns = spec.effective_namespace
    objects: list[stack_objects.ReleaseObject] = []
    values = build(profile, pools, spec, objects)
    if spec.values:  # the always-owned paths were refused with the spec; these are what the pools made gpuready's
        overrides = extra_values.override_problems(spec.chart, spec.values, values, "gpuStack.values")
        if overrides:
            raise SpecError(overrides)
        values = extra_values.merge(values, spec.values)
    release = HelmRelease(
        name=spec.effective_release_name,
        chart=spec.chart,
        version=spec.effective_version,
        repository=spec.effective_repository,
        namespace=ns,
        values=values,
        timeout_seconds=spec.timeout_seconds,
    )
    return GpuStackPlan(
        spec=spec,
        profile=profile,
        pools=services,
        namespace=stack_objects.namespace(ns),
        objects=tuple(objects),
        release=release,
        config_data={o.name: o.data for o in objects if isinstance(o, stack_objects.ConfigMapObject)},
        health=health,
        agent_values=agent,
    )


def _agent_values(pools: Sequence[GpuPoolSpec], spec: GpuStackSpec) -> dict[str, Any] | None:
    if spec.health.agent != INSTALLED_AGENT:
        return None
    return agent_values(pools, spec.health.dcgm_owner(spec.kind))
