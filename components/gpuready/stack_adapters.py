"""The stack program's per-cloud adapters, found through the registries: never by comparing cloud names.

A pool's component comes from its provisioner (``gpuready.core.capacity``): its registration entry's ``builder``
module (``Provisioner.component``) builds it from the stack settings with ``build_pool``, reading the cloud's own
keys from its settings model (``<Cloud>SettingsValues.of(settings)``). The cluster's kubeconfig comes from the cloud
profile's ``stack_adapter`` module (``cluster_kubeconfig(target, invoke_opts)``). These modules import the cloud's
Pulumi SDK, so they load only for the stack's own cloud (importing all three SDKs costs seconds).

The health agent a GPU stack plan chose (``gpuStack.health``) is registered by one path for the stack program
(``build_health_agent``) and the chart components (``GpuStackRelease``): the cloud profile's
``health_agent_adapter`` (EKS: the node monitoring agent add-on, ``gpuready.eks.health_agent``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Protocol, cast

import pulumi

from gpuready.core.clouds.stack_wiring import StackWiring
from gpuready.core.cluster_kubeconfig import ClusterTarget
from gpuready.core.gpu_stack.stack_plan import GpuStackPlan
from gpuready.core.health.agent_chart import AGENT_ADDON
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import StackSettings
from gpuready.errors import Problem, SpecError
from gpuready.pool_outputs import GpuNodePoolBase

POOL_BUILDER = "build_pool"
"""The function of a provisioner's builder module (``ComponentEntry.builder``) that builds its pool's component from
the stack settings: ``build_pool(spec, settings)``, and ``build_pool(spec, settings, provider)`` when elastic."""


class StackAdapter(Protocol):
    """What a cloud's ``stack_adapter`` module provides to the cluster provider."""

    def cluster_kubeconfig(
        self, target: ClusterTarget, invoke_opts: pulumi.InvokeOutputOptions
    ) -> pulumi.Output[str]: ...


def stack_adapter(wiring: StackWiring) -> StackAdapter:
    """The stack adapter of ``wiring``'s cloud (its module, imported on first use)."""
    return cast("StackAdapter", importlib.import_module(wiring.stack_adapter))


def build_pool(
    spec: GpuPoolSpec, settings: StackSettings, cluster: Callable[[], pulumi.ProviderResource] | None = None
) -> GpuNodePoolBase:
    """The component making ``spec``'s capacity, built by its provisioner's adapter from the stack settings.

    An elastic provisioner's pool is a custom resource in the cluster: its adapter also takes the cluster's
    Kubernetes provider, which ``cluster`` makes (once, on first use: stacks without elastic pools make none here).
    """
    chosen = spec.resolved.provisioner
    module, name = chosen.component.builder, POOL_BUILDER
    adapter = getattr(importlib.import_module(module), name)
    if chosen.elastic:
        if cluster is None:
            raise TypeError(f"pool {spec.name!r} ({chosen.key}) needs the cluster's Kubernetes provider")
        pool = adapter(spec, settings, cluster())
    else:
        pool = adapter(spec, settings)
    if not isinstance(pool, GpuNodePoolBase):
        raise TypeError(f"{module}:{name} built {type(pool).__name__}, not a GPU node pool component")
    return pool


def build_health_agent(settings: StackSettings, depends_on: list[pulumi.Resource]) -> pulumi.Resource | None:
    """The health agent the stack installs (``gpuStack.health``), by its cloud's adapter; None when it installs none
    (the cloud's own reporter, or no agent). The chart components register it by the same function."""
    return install_health_agent(
        settings.planned_gpu_stack,
        AGENT_ADDON,
        cluster_name=settings.cluster_name,
        tags=settings.tags,
        opts=pulumi.ResourceOptions(depends_on=depends_on),
    )


def build_fabric_plugin(
    settings: StackSettings, pools: list[GpuNodePoolBase], cluster: Callable[[], pulumi.ProviderResource]
) -> pulumi.Resource | None:
    """What the cluster needs for the stack's fabric pools (the cloud fabric's ``plugin_adapter``: EKS's EFA device
    plugin), after the pools; None when no pool has a fabric (then no provider is made)."""
    adapter_path = settings.profile.fabric.plugin_adapter
    if adapter_path is None or not any(spec.fabric is not None for spec in settings.pools):
        return None
    module, _, function = adapter_path.partition(":")
    adapter = getattr(importlib.import_module(module), function)
    return cast("pulumi.Resource | None", adapter(list(settings.pools), cluster(), pools))


def installs_agent(plan: GpuStackPlan) -> bool:
    """Whether ``plan`` installs a health agent (its values planned, and the cloud has an adapter for it)."""
    return plan.agent_values is not None and plan.profile.health_agent_adapter is not None


def cluster_name_problems(plan: GpuStackPlan, cluster_name: str | None, field: str) -> list[Problem]:
    """A missing cluster name when ``plan`` installs an agent (the add-on goes on a named cluster)."""
    if not installs_agent(plan) or cluster_name:
        return []
    return [Problem(field, f"the health agent {plan.spec.health.agent} is an add-on of a cluster: name the cluster",
                    cluster_name, (), f"pass the cluster's name as {field}, or set health.agent: none")]  # fmt: skip


def install_health_agent(
    plan: GpuStackPlan,
    name: str,
    *,
    cluster_name: str,
    tags: Mapping[str, str],
    opts: pulumi.ResourceOptions,
) -> pulumi.Resource | None:
    """The agent ``plan`` installs, registered as ``name``; None when it installs none (the cloud's own reporter,
    or no agent)."""
    if not installs_agent(plan):
        return None
    adapter_path = plan.profile.health_agent_adapter
    assert adapter_path is not None and plan.agent_values is not None  # installs_agent
    module, _, function = adapter_path.partition(":")
    adapter = getattr(importlib.import_module(module), function)
    return cast("pulumi.Resource", adapter(name, cluster_name, plan.agent_values, tags, opts))


def require_cluster_name(plan: GpuStackPlan, cluster_name: str | None, field: str) -> None:
    """Raise ``SpecError`` when ``plan`` installs an agent and no cluster is named."""
    problems = cluster_name_problems(plan, cluster_name, field)
    if problems:
        raise SpecError(problems)
