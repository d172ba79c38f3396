"""The stack program's per-cloud adapter, found through the cloud profile: never by comparing cloud names.

Each cloud package has a ``stack_adapter`` module (its profile names it in ``stack_adapter``) with
``build_pool(spec, settings)`` (the pool's component, wired from the stack settings) and
``cluster_kubeconfig(target, invoke_opts)`` (the cluster's kubeconfig from the cloud's invokes). It imports the
cloud's Pulumi SDK, so it loads only for the stack's own cloud (importing all three SDKs costs seconds).
"""

from __future__ import annotations

import importlib
from typing import Protocol, cast

import pulumi

from components.core.clouds.registry import cloud_profile
from components.core.cluster_kubeconfig import ClusterTarget
from components.core.specs import GpuPoolSpec
from components.core.stack_settings import StackSettings
from components.pool_outputs import GpuNodePoolBase


class StackAdapter(Protocol):
    """What a cloud's ``stack_adapter`` module provides."""

    def build_pool(self, spec: GpuPoolSpec, settings: StackSettings) -> GpuNodePoolBase: ...

    def cluster_kubeconfig(
        self, target: ClusterTarget, invoke_opts: pulumi.InvokeOutputOptions
    ) -> pulumi.Output[str]: ...


def stack_adapter(cloud: str) -> StackAdapter:
    """The stack adapter of ``cloud`` (its module, imported on first use)."""
    return cast("StackAdapter", importlib.import_module(cloud_profile(cloud).stack_adapter))
