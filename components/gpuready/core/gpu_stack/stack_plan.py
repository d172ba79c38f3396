"""A stack's GPU software stack, decided: the Helm release, its values, and the objects beside it. Pure.

``plan_gpu_stack`` checks the stack spec against the pools (``stack_rules``) and either raises one
``SpecError`` with every problem, or returns a ``GpuStackPlan`` the Pulumi components register as is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.core.gpu_stack import (
    extra_values,
    mig_manager_config,
    ownership,
    plugin_configs,
    stack_objects,
    stack_rules,
)
from gpuready.core.gpu_stack.charts import Chart
from gpuready.core.gpu_stack.device_plugin_values import device_plugin_values
from gpuready.core.gpu_stack.dra_values import dra_driver_values
from gpuready.core.gpu_stack.gpu_cluster_values import gpu_cluster_values
from gpuready.core.gpu_stack.operator_values import operator_values
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.health.agent import INSTALLED_AGENT, agent_values, health_problems
from gpuready.core.health.agent import describe as describe_health
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import Problem, SpecError

PLUGIN_CONFIG_BASE = "gpuready-device-plugin-config"
MIG_CONFIG_BASE = "gpuready-mig-parted-config"


@dataclass(frozen=True, kw_only=True, slots=True)
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


@dataclass(frozen=True, kw_only=True, slots=True)
class PoolService:
    """How the stack serves one pool."""

    pool: str
    advertiser: ownership.Advertiser
    summary: str


@dataclass(frozen=True, kw_only=True, slots=True)
class GpuStackPlan:
    """Everything a stack's GPU software needs, in registration order: namespace, objects, release."""

    spec: GpuStackSpec
    cloud: Cloud
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


def plan_gpu_stack(cloud: Cloud, pools: Sequence[GpuPoolSpec], spec: GpuStackSpec) -> GpuStackPlan:
    """Decide the GPU stack for ``pools`` on ``cloud``; raise ``SpecError`` listing every contradiction."""
    problems: list[Problem] = [
        Problem("nodePools", f"pool {p.name!r} is for {p.cloud}, not {cloud}") for p in pools if p.cloud != cloud
    ]
    problems.extend(stack_rules.stack_problems(pools, spec))
    agents = cloud_profile(cloud).health_agents
    problems.extend(health_problems(spec.health, stack_kind=spec.kind, monitoring=spec.monitoring, cloud_agents=agents,
                                    pools=pools))  # fmt: skip
    if problems:
        raise SpecError(problems)
    health = describe_health(spec.health, spec.kind, agents)
    agent = _agent_values(pools, spec)
    services = tuple(
        PoolService(
            pool=p.name,
            advertiser=p.resolved.platform_plugin,
            summary=ownership.pool_fit(p, spec.kind).summary,
        )
        for p in pools
    )
    if not spec.installs_chart:
        return GpuStackPlan(spec=spec, cloud=cloud, pools=services, health=health, agent_values=agent)
    ns = spec.effective_namespace
    objects: list[stack_objects.ReleaseObject] = []
    if spec.kind == "dra-driver":
        values = dra_driver_values(pools)
    elif spec.kind == "gpu-operator-dra":
        values = gpu_cluster_values(pools, spec)
    else:
        values = _device_plugin_stack_values(cloud, pools, spec, objects)
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
        cloud=cloud,
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


def _device_plugin_stack_values(
    cloud: Cloud, pools: Sequence[GpuPoolSpec], spec: GpuStackSpec, objects: list[stack_objects.ReleaseObject]
) -> dict[str, Any]:
    """Values of the GPU Operator or device-plugin release; their config maps are appended to ``objects``."""
    ns = spec.effective_namespace
    plugin_name = _add_config(objects, PLUGIN_CONFIG_BASE, ns, plugin_configs.plugin_configs(pools))
    mig_name = None
    if spec.kind == "gpu-operator" and mig_manager_config.needs_custom_config(pools):
        data = {mig_manager_config.CONFIG_KEY: mig_manager_config.mig_parted_config(pools)}
        mig_name = _add_config(objects, MIG_CONFIG_BASE, ns, data)
    if spec.kind == "gpu-operator":
        values = operator_values(cloud, pools, spec, plugin_config_name=plugin_name, mig_config_name=mig_name)
        objects.extend(cloud_profile(cloud).stack_objects(ns, pools))
        return values
    return device_plugin_values(pools, spec, plugin_config_name=plugin_name)


def _add_config(
    objects: list[stack_objects.ReleaseObject], base: str, namespace: str, data: Mapping[str, str]
) -> str | None:
    if not data:
        return None
    config_map = stack_objects.config_map(base, namespace, data)
    objects.append(config_map)
    return config_map.name
