"""``AksNapGpuPool``: a GPU pool made by AKS node auto-provisioning (``provisioner: nap``): the NodePool and
AKSNodeClass that ``gpuready.aks.nap`` builds, as ``pulumi_kubernetes`` custom resources on the cluster's
Kubernetes provider. Thin: every field is the pure builder's.

The cluster must run node auto-provisioning (``ManagedClusterNodeProvisioningProfile`` mode ``Auto``, azure-native
``containerservice.ManagedCluster`` ``node_provisioning_profile``): this component makes the pool, not NAP.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

import pulumi
import pulumi_kubernetes as k8s

from gpuready.aks import nap
from gpuready.core.clouds.registry import Cloud
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import StackSettings
from gpuready.pool_outputs import GpuNodePoolBase, custom_resources, require_provisioner
from gpuready.record import record


@record(frozen=True, kw_only=True)
class AksNapGpuPoolArgs:
    """Inputs of ``AksNapGpuPool``: the pool decisions and the cluster's Kubernetes provider."""

    pool: GpuPoolSpec
    """The validated pool spec (``cloud="aks"``, ``provisioner="nap"``)."""
    provider: pulumi.ProviderResource
    """The Kubernetes provider of the cluster NAP runs in."""
    tags: Mapping[str, str] = field(default_factory=dict)
    """Azure tags of the VMs."""


class AksNapGpuPool(GpuNodePoolBase):
    """A NAP NodePool of GPU nodes with its AKSNodeClass: nodes appear when GPU pods need them."""

    node_pool: k8s.apiextensions.CustomResource
    """The ``karpenter.sh/v1`` NodePool (escape hatch)."""
    node_class: k8s.apiextensions.CustomResource
    """The ``karpenter.azure.com/v1beta1`` AKSNodeClass (escape hatch)."""

    def __init__(self, name: str, args: AksNapGpuPoolArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        spec = args.pool
        require_provisioner("AksNapGpuPool", spec, nap.PROVISIONER)
        node_class, node_pool = nap.node_class(spec, args.tags), nap.node_pool(spec)
        super().__init__("gpuready:index:AksNapGpuPool", name, {}, opts)
        self.node_class, self.node_pool = custom_resources(
            self, name, [("node-class", node_class), ("node-pool", node_pool)], args.provider
        )
        self._publish(spec, pulumi.Output.from_input(spec.name), nap.driver_summary(spec), nap.lifecycle_summary(spec))


PACKAGE_CLOUD: Cloud = "aks"
"""The cloud of this module's package component (``gpuready.package.provider``)."""


def package_pool(
    name: str, spec: GpuPoolSpec, wiring: Mapping[str, Any], provider: pulumi.ProviderResource,
    opts: pulumi.ResourceOptions,
) -> AksNapGpuPool:  # fmt: skip
    """The component built by the package provider from its schema inputs (camelCase wiring)."""
    return AksNapGpuPool(name, AksNapGpuPoolArgs(pool=spec, provider=provider, tags=wiring.get("tags") or {}), opts)


def build_pool(spec: GpuPoolSpec, settings: StackSettings, provider: pulumi.ProviderResource) -> AksNapGpuPool:
    """The NAP component of ``spec`` on the stack's cluster ``provider``, its VMs tagged with the stack's tags."""
    return AksNapGpuPool(spec.name, AksNapGpuPoolArgs(pool=spec, provider=provider, tags=settings.tags))
