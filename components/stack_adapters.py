"""The stack program's per-cloud adapters, found through the registries: never by comparing cloud names.

A pool's component comes from its provisioner (``components.core.capacity``): its ``adapter`` names the
``module:function`` that builds the component from the stack settings (today each cloud's
``components/<cloud>/stack_adapter.py:build_pool``). The cluster's kubeconfig comes from the cloud profile's
``stack_adapter`` module (``cluster_kubeconfig(target, invoke_opts)``). These modules import the cloud's Pulumi SDK,
so they load only for the stack's own cloud (importing all three SDKs costs seconds).
"""

from __future__ import annotations

import importlib
from typing import Protocol, cast

import pulumi

from components.core.capacity.registry import provisioner_for
from components.core.clouds.registry import cloud_profile
from components.core.cluster_kubeconfig import ClusterTarget
from components.core.specs import GpuPoolSpec
from components.core.stack_settings import StackSettings
from components.errors import SpecError
from components.pool_outputs import GpuNodePoolBase


class StackAdapter(Protocol):
    """What a cloud's ``stack_adapter`` module provides to the cluster provider."""

    def cluster_kubeconfig(
        self, target: ClusterTarget, invoke_opts: pulumi.InvokeOutputOptions
    ) -> pulumi.Output[str]: ...


def stack_adapter(cloud: str) -> StackAdapter:
    """The stack adapter of ``cloud`` (its module, imported on first use)."""
    return cast("StackAdapter", importlib.import_module(cloud_profile(cloud).stack_adapter))


def build_pool(spec: GpuPoolSpec, settings: StackSettings) -> GpuNodePoolBase:
    """The component making ``spec``'s capacity, built by its provisioner's adapter from the stack settings."""
    chosen = provisioner_for(spec)
    if not chosen.adapter:  # the stack settings refuse these pools first; a program building its own gets this
        raise SpecError.one(
            "provisioner", "not built by the stack program yet", chosen.key, (), chosen.stack_program_gap
        )
    module, _, name = chosen.adapter.partition(":")
    pool = getattr(importlib.import_module(module), name)(spec, settings)
    if not isinstance(pool, GpuNodePoolBase):
        raise TypeError(f"{module}:{name} built {type(pool).__name__}, not a GPU node pool component")
    return pool
