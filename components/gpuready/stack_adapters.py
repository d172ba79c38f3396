"""The stack program's per-cloud adapters, found through the registries: never by comparing cloud names.

A pool's component comes from its provisioner (``gpuready.core.capacity``): its ``adapter`` names the
``module:function`` that builds the component from the stack settings (today each cloud's
``components/gpuready/<cloud>/stack_adapter.py:build_pool``). The cluster's kubeconfig comes from the cloud profile's
``stack_adapter`` module (``cluster_kubeconfig(target, invoke_opts)``). These modules import the cloud's Pulumi SDK,
so they load only for the stack's own cloud (importing all three SDKs costs seconds).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Protocol, cast

import pulumi

from gpuready.core.capacity.registry import provisioner_for
from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.cluster_kubeconfig import ClusterTarget
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import StackSettings
from gpuready.pool_outputs import GpuNodePoolBase


class StackAdapter(Protocol):
    """What a cloud's ``stack_adapter`` module provides to the cluster provider."""

    def cluster_kubeconfig(
        self, target: ClusterTarget, invoke_opts: pulumi.InvokeOutputOptions
    ) -> pulumi.Output[str]: ...


def stack_adapter(cloud: str) -> StackAdapter:
    """The stack adapter of ``cloud`` (its module, imported on first use)."""
    return cast("StackAdapter", importlib.import_module(cloud_profile(cloud).stack_adapter))


def build_pool(
    spec: GpuPoolSpec, settings: StackSettings, cluster: Callable[[], pulumi.ProviderResource] | None = None
) -> GpuNodePoolBase:
    """The component making ``spec``'s capacity, built by its provisioner's adapter from the stack settings.

    An elastic provisioner's pool is a custom resource in the cluster: its adapter also takes the cluster's
    Kubernetes provider, which ``cluster`` makes (once, on first use: stacks without elastic pools make none here).
    """
    chosen = provisioner_for(spec)
    module, _, name = chosen.adapter.partition(":")
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
    (the cloud's own reporter, or no agent)."""
    values = settings.planned_gpu_stack.agent_values
    adapter_path = cloud_profile(settings.cloud).health_agent_adapter
    if values is None or adapter_path is None:
        return None
    module, _, name = adapter_path.partition(":")
    adapter = getattr(importlib.import_module(module), name)
    return cast("pulumi.Resource", adapter(settings, values, depends_on))
