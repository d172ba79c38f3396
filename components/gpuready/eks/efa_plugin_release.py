"""The EFA device plugin's Helm release (``efa_plugin``'s chart and values) for a stack's EFA pools, on the
cluster's Kubernetes provider, after the pools (its DaemonSet needs their nodes)."""

from __future__ import annotations

from collections.abc import Sequence

import pulumi
import pulumi_kubernetes as k8s

from gpuready.core.specs import GpuPoolSpec
from gpuready.eks import efa_plugin


def build_fabric_plugin(
    pools: Sequence[GpuPoolSpec], provider: pulumi.ProviderResource, depends_on: Sequence[pulumi.Resource]
) -> pulumi.Resource | None:
    """The release, or None when no pool has EFA."""
    if not efa_plugin.efa_pools(pools):
        return None
    release: pulumi.Resource = k8s.helm.v3.Release(
        "efa-device-plugin",
        name=efa_plugin.RELEASE,
        chart=efa_plugin.CHART,
        version=efa_plugin.VERSION,
        repository_opts=k8s.helm.v3.RepositoryOptsArgs(repo=efa_plugin.REPOSITORY),
        namespace=efa_plugin.NAMESPACE,
        create_namespace=False,
        values=efa_plugin.values(pools),
        opts=pulumi.ResourceOptions(provider=provider, depends_on=list(depends_on)),
    )
    return release
