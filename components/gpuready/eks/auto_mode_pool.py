"""``EksAutoModeGpuPool``: a GPU pool made by EKS Auto Mode (``provisioner: eks-auto-mode``): the NodeClass and
NodePool that ``gpuready.eks.auto_mode`` builds, as ``pulumi_kubernetes`` custom resources on the cluster's
Kubernetes provider. Thin: every field is the pure builder's.

The cluster must run EKS Auto Mode (``aws.eks.Cluster`` ``compute_config.enabled``), and the node role must be
allowed to join it (an access entry of type ``EC2``): this component makes the pool, not the cluster's Auto Mode.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

import pulumi
import pulumi_kubernetes as k8s

from gpuready.core.clouds.registry import Cloud
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import StackSettings
from gpuready.eks import auto_mode, auto_mode_capacity, karpenter
from gpuready.eks.settings_keys import EksSettingsValues
from gpuready.pool_outputs import GpuNodePoolBase, custom_resources, require_provisioner
from gpuready.record import record


@record(frozen=True, kw_only=True)
class EksAutoModeGpuPoolArgs:
    """Inputs of ``EksAutoModeGpuPool``: the pool decisions, the wiring and the cluster's Kubernetes provider."""

    pool: GpuPoolSpec
    """The validated pool spec (``cloud="eks"``, ``provisioner="eks-auto-mode"``)."""
    provider: pulumi.ProviderResource
    """The Kubernetes provider of the Auto Mode cluster."""
    cluster_name: str
    node_role: str
    """IAM role of the nodes: its ARN (``gpuready:eksNodeRoleArn``) or its name."""
    subnet_ids: Sequence[str]
    security_group_ids: Sequence[str] = ()
    """Empty: the EKS cluster security group."""
    tags: Mapping[str, str] = field(default_factory=dict)
    stack_pools: Sequence[GpuPoolSpec] = ()
    """The stack's pools, when it has more than this one: a pool whose NodeClass selects reservations names the
    other Auto Mode pools that Auto Mode's cluster-wide caveat affects (``auto_mode_capacity.odcr_caveat``)."""


class EksAutoModeGpuPool(GpuNodePoolBase):
    """An EKS Auto Mode NodePool of GPU nodes with its NodeClass: nodes appear when GPU pods need them."""

    node_pool: k8s.apiextensions.CustomResource
    """The ``karpenter.sh/v1`` NodePool (escape hatch)."""
    node_class: k8s.apiextensions.CustomResource
    """The ``eks.amazonaws.com/v1`` NodeClass (escape hatch)."""

    def __init__(self, name: str, args: EksAutoModeGpuPoolArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        spec = args.pool
        require_provisioner("EksAutoModeGpuPool", spec, auto_mode.PROVISIONER)
        wiring = karpenter.KarpenterWiring(
            cluster_name=args.cluster_name, node_role=args.node_role, subnet_ids=tuple(args.subnet_ids),
            security_group_ids=tuple(args.security_group_ids), tags=dict(args.tags),
        )  # fmt: skip
        objects = [("node-class", auto_mode.node_class(spec, wiring)), ("node-pool", auto_mode.node_pool(spec))]
        super().__init__("gpuready:index:EksAutoModeGpuPool", name, {}, opts)
        self.node_class, self.node_pool = custom_resources(self, name, objects, args.provider)
        caveat = auto_mode_capacity.odcr_caveat(spec, args.stack_pools)
        if caveat:
            pulumi.log.warn(caveat, resource=self)
        self._publish(
            spec, pulumi.Output.from_input(spec.name), "EKS Auto Mode (AWS's NVIDIA driver and device plugin)",
            auto_mode.lifecycle_summary(spec),
        )  # fmt: skip


PACKAGE_CLOUD: Cloud = "eks"
"""The cloud of this module's package component (``gpuready.package.provider``)."""


def package_pool(
    name: str, spec: GpuPoolSpec, wiring: Mapping[str, Any], provider: pulumi.ProviderResource,
    opts: pulumi.ResourceOptions,
) -> EksAutoModeGpuPool:  # fmt: skip
    """The component built by the package provider from its schema inputs (camelCase wiring, known values)."""
    return EksAutoModeGpuPool(name, EksAutoModeGpuPoolArgs(
        pool=spec, provider=provider, cluster_name=wiring["clusterName"], node_role=wiring["nodeRoleArn"],
        subnet_ids=wiring["subnetIds"], security_group_ids=wiring.get("securityGroupIds") or (),
        tags=wiring.get("tags") or {},
    ), opts)  # fmt: skip


def build_pool(spec: GpuPoolSpec, settings: StackSettings, provider: pulumi.ProviderResource) -> EksAutoModeGpuPool:
    """The Auto Mode component of ``spec`` on the stack's cluster ``provider``, wired from ``gpuready:clusterName``,
    ``eksNodeRoleArn``, ``eksSubnetIds`` and ``tags``; the stack's pools for the plan's note of Auto Mode's
    cluster-wide ODCR caveat."""
    wiring = EksSettingsValues.of(settings)
    return EksAutoModeGpuPool(spec.name, EksAutoModeGpuPoolArgs(
        pool=spec, provider=provider, cluster_name=settings.cluster_name, node_role=wiring.eks_node_role_arn,
        subnet_ids=tuple(wiring.eks_subnet_ids), tags=settings.tags, stack_pools=settings.pools,
    ))  # fmt: skip
