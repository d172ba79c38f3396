"""GKE in the stack program: a pool's node pool from the stack settings, and the cluster's kubeconfig.

Found through the cloud profile (``GkeProfile.stack_adapter``) by ``gpuready.stack_adapters``; it imports
pulumi_gcp, so only a GKE stack loads it. The kubeconfig: ``gcp.container.get_cluster`` gives the endpoint and
the base64 CA (``master_auths[0].cluster_ca_certificate``); the user runs the ``gke-gcloud-auth-plugin`` exec
credential plugin, as ``gcloud container clusters get-credentials`` writes it since GKE 1.26 (Google Cloud blog,
"Here's what to know about changes to kubectl authentication coming in GKE v1.26"); the plugin must be installed
where Pulumi runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pulumi
from pulumi_gcp import container

from gpuready.core.clouds.registry import Cloud
from gpuready.core.cluster_kubeconfig import ClusterTarget, first_entry
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import StackSettings
from gpuready.gke.node_pool import GkeGpuNodePool, GkeGpuNodePoolArgs
from gpuready.gke.settings_keys import GkeSettingsValues


def build_pool(spec: GpuPoolSpec, settings: StackSettings) -> GkeGpuNodePool:
    """The node pool component of ``spec``, wired from the stack's ``gke*`` settings."""
    wiring = GkeSettingsValues.of(settings)
    return GkeGpuNodePool(spec.name, GkeGpuNodePoolArgs(
        pool=spec, cluster_name=settings.cluster_name, location=wiring.gke_location,
        node_locations=tuple(wiring.gke_node_locations) or None,
        service_account=wiring.gke_service_account or None, resource_labels=settings.tags,
    ))  # fmt: skip


PACKAGE_CLOUD: Cloud = "gke"
"""The cloud of this adapter's package component (``gpuready.package.provider``)."""


def package_pool(
    name: str, spec: GpuPoolSpec, wiring: Mapping[str, Any], opts: pulumi.ResourceOptions
) -> GkeGpuNodePool:
    """The node pool component built by the package provider from its schema inputs (camelCase wiring)."""
    return GkeGpuNodePool(name, GkeGpuNodePoolArgs(
        pool=spec, cluster_name=wiring["clusterName"], location=wiring["location"],
        node_locations=wiring.get("nodeLocations"), service_account=wiring.get("serviceAccount"),
        resource_labels=wiring.get("resourceLabels") or {},
    ), opts)  # fmt: skip


def cluster_kubeconfig(target: ClusterTarget, invoke_opts: pulumi.InvokeOutputOptions) -> pulumi.Output[str]:
    """A kubeconfig for the cluster whose user runs gke-gcloud-auth-plugin."""
    from gpuready.gke.kubeconfig import gke_kubeconfig  # noqa: PLC0415 - only a stack with a Kubernetes provider

    name = target.cluster_name
    cluster = container.get_cluster_output(
        name=name, location=GkeSettingsValues.of(target).gke_location, opts=invoke_opts
    )
    kubeconfig: pulumi.Output[str] = cluster.apply(
        lambda result: gke_kubeconfig(
            name, result.endpoint, first_entry(result.master_auths, "masterAuths").cluster_ca_certificate
        )
    )
    return kubeconfig
