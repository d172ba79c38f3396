"""EKS in the stack program: a pool's node group from the stack settings, and the cluster's kubeconfig.

Found through the cloud profile (``EksProfile.stack_adapter``) by ``gpuready.stack_adapters``; it imports
pulumi_aws, so only an EKS stack loads it. The kubeconfig: ``aws.eks.get_cluster`` gives the endpoint and the
base64 CA (``certificate_authorities[0].data``) and ``aws.eks.get_cluster_auth`` a bearer token minted from the
AWS provider's IAM credentials, the ``k8s-aws-v1.`` token of aws-iam-authenticator (AWS EKS User Guide,
"Connect kubectl to an EKS cluster by creating a kubeconfig file"). EKS accepts it for about 15 minutes: a
longer run may see 401s part-way; the remedy is a ``gpuready:kubeconfig`` whose user runs ``aws eks get-token``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pulumi
from pulumi_aws import eks

from gpuready.core.clouds.registry import Cloud
from gpuready.core.cluster_kubeconfig import ClusterTarget, first_entry
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import StackSettings
from gpuready.eks.kubeconfig import eks_kubeconfig
from gpuready.eks.node_pool import EksGpuNodePool, EksGpuNodePoolArgs
from gpuready.eks.settings_keys import EksSettingsValues


def build_pool(spec: GpuPoolSpec, settings: StackSettings) -> EksGpuNodePool:
    """The node group component of ``spec``, wired from the stack's ``eks*`` settings."""
    wiring = EksSettingsValues.of(settings)
    return EksGpuNodePool(spec.name, EksGpuNodePoolArgs(
        pool=spec, cluster_name=settings.cluster_name, node_role_arn=wiring.eks_node_role_arn,
        subnet_ids=list(wiring.eks_subnet_ids), tags=settings.tags,
    ))  # fmt: skip


PACKAGE_CLOUD: Cloud = "eks"
"""The cloud of this adapter's package component (``gpuready.package.provider``)."""


def package_pool(
    name: str, spec: GpuPoolSpec, wiring: Mapping[str, Any], opts: pulumi.ResourceOptions
) -> EksGpuNodePool:
    """The node group component built by the package provider from its schema inputs (camelCase wiring)."""
    return EksGpuNodePool(name, EksGpuNodePoolArgs(
        pool=spec, cluster_name=wiring["clusterName"], node_role_arn=wiring["nodeRoleArn"],
        subnet_ids=wiring["subnetIds"], tags=wiring.get("tags") or {},
    ), opts)  # fmt: skip


def cluster_kubeconfig(target: ClusterTarget, invoke_opts: pulumi.InvokeOutputOptions) -> pulumi.Output[str]:
    """The cluster's kubeconfig with a bearer token, from the cluster and its auth invokes."""
    name = target.cluster_name
    cluster = eks.get_cluster_output(name=name, opts=invoke_opts)
    auth = eks.get_cluster_auth_output(name=name, opts=invoke_opts)

    def text(results: list[Any]) -> str:
        found, token = results
        ca = first_entry(found.certificate_authorities, "certificateAuthorities").data
        return eks_kubeconfig(name, found.endpoint, ca, token.token)

    kubeconfig: pulumi.Output[str] = pulumi.Output.all(cluster, auth).apply(text)
    return kubeconfig
