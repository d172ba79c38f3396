"""AKS in the stack program: a pool's agent pool from the stack settings, and the cluster's kubeconfig.

Found through the cloud profile (``AksProfile.stack_adapter``) by ``gpuready.stack_adapters``; it imports
pulumi_azure_native, so only an AKS stack loads it. The kubeconfig:
``containerservice.list_managed_cluster_user_credentials`` (Azure REST ``Managed Clusters - List Cluster User
Credentials``) returns it base64-encoded; it is decoded and used as Azure wrote it. With Microsoft Entra ID
integration it runs ``kubelogin``, which must then be on the PATH of the Pulumi run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pulumi
from pulumi_azure_native import containerservice

from gpuready.aks.kubeconfig import aks_kubeconfig
from gpuready.aks.node_pool import AksGpuNodePool, AksGpuNodePoolArgs
from gpuready.aks.settings_keys import AksSettingsValues
from gpuready.core.clouds.registry import Cloud
from gpuready.core.cluster_kubeconfig import ClusterTarget, first_entry
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import StackSettings


def build_pool(spec: GpuPoolSpec, settings: StackSettings) -> AksGpuNodePool:
    """The agent pool component of ``spec``, wired from the stack's ``aks*`` settings."""
    wiring = AksSettingsValues.of(settings)
    return AksGpuNodePool(spec.name, AksGpuNodePoolArgs(
        pool=spec, resource_group_name=wiring.aks_resource_group, cluster_name=settings.cluster_name,
        vnet_subnet_id=wiring.aks_vnet_subnet_id or None, tags=settings.tags,
    ))  # fmt: skip


PACKAGE_CLOUD: Cloud = "aks"
"""The cloud of this adapter's package component (``gpuready.package.provider``)."""


def package_pool(
    name: str, spec: GpuPoolSpec, wiring: Mapping[str, Any], opts: pulumi.ResourceOptions
) -> AksGpuNodePool:
    """The agent pool component built by the package provider from its schema inputs (camelCase wiring)."""
    return AksGpuNodePool(name, AksGpuNodePoolArgs(
        pool=spec, resource_group_name=wiring["resourceGroupName"], cluster_name=wiring["clusterName"],
        vnet_subnet_id=wiring.get("vnetSubnetId"), tags=wiring.get("tags") or {},
    ), opts)  # fmt: skip


def cluster_kubeconfig(target: ClusterTarget, invoke_opts: pulumi.InvokeOutputOptions) -> pulumi.Output[str]:
    """The cluster user's kubeconfig, as AKS lists it."""
    credentials = containerservice.list_managed_cluster_user_credentials_output(
        resource_group_name=AksSettingsValues.of(target).aks_resource_group,
        resource_name=target.cluster_name,
        opts=invoke_opts,
    )
    kubeconfig: pulumi.Output[str] = credentials.apply(
        lambda result: aks_kubeconfig(first_entry(result.kubeconfigs, "kubeconfigs").value)
    )
    return kubeconfig
