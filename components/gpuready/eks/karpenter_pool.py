"""``EksKarpenterGpuPool``: a GPU pool made by Karpenter on EKS (``provisioner: karpenter``): the NodePool and
EC2NodeClass that ``gpuready.eks.karpenter`` builds, as ``pulumi_kubernetes`` custom resources on the cluster's
Kubernetes provider. Thin: every field is the pure builder's.

Karpenter itself (its controller, CRDs, IAM and the node role's access entry) must already run in the cluster:
this component makes the pool, not Karpenter. The stack program builds it with ``build_pool``, the component
package with ``package_pool``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any, cast

import pulumi
import pulumi_aws as aws
import pulumi_kubernetes as k8s

from gpuready.core.capacity import node_overlay
from gpuready.core.clouds.registry import Cloud
from gpuready.core.fabric.model import CREATE
from gpuready.core.scale_path.model import DEFAULT_CLUSTER, ClusterFacts
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import StackSettings
from gpuready.eks import ec2_node_class, karpenter, launch_template_fabric, plan
from gpuready.eks.fabric import FABRIC
from gpuready.eks.settings_keys import EksSettingsValues
from gpuready.pool_outputs import GpuNodePoolBase, require_provisioner
from gpuready.record import record


@record(frozen=True, kw_only=True)
class EksKarpenterGpuPoolArgs:
    """Inputs of ``EksKarpenterGpuPool``: the pool decisions, the cluster wiring and the cluster's provider."""

    pool: GpuPoolSpec
    """The validated pool spec (``cloud="eks"``, ``provisioner="karpenter"``)."""
    provider: k8s.Provider
    """The Kubernetes provider of the cluster Karpenter runs in."""
    cluster_name: pulumi.Input[str]
    node_role: pulumi.Input[str]
    """IAM role of the nodes: its ARN (e.g. ``gpuready:eksNodeRoleArn``) or its name."""
    subnet_ids: pulumi.Input[Sequence[pulumi.Input[str]]]
    security_group_ids: pulumi.Input[Sequence[pulumi.Input[str]]] = ()
    """Empty: the EKS cluster security group."""
    tags: Mapping[str, str] = field(default_factory=dict)
    cluster: ClusterFacts = DEFAULT_CLUSTER
    """What the stack declares of the cluster's Karpenter (``gpuready:karpenterFeatureGates``): with the
    ``NodeOverlay`` gate, a pool whose GPUs Karpenter cannot see gets its NodeOverlay."""


class EksKarpenterGpuPool(GpuNodePoolBase):
    """A Karpenter NodePool of GPU nodes with its EC2NodeClass: nodes appear when GPU pods need them."""

    node_pool: k8s.apiextensions.CustomResource
    """The ``karpenter.sh/v1`` NodePool (escape hatch)."""
    node_class: k8s.apiextensions.CustomResource
    """The ``karpenter.k8s.aws/v1`` EC2NodeClass (escape hatch)."""
    node_overlay: k8s.apiextensions.CustomResource | None
    """The ``karpenter.sh/v1alpha1`` NodeOverlay of the pool's other GPU resources, if it needs one."""

    def __init__(self, name: str, args: EksKarpenterGpuPoolArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        spec = args.pool
        require_provisioner("EksKarpenterGpuPool", spec, karpenter.PROVISIONER)
        pool = karpenter.node_pool(spec)
        super().__init__("gpuready:index:EksKarpenterGpuPool", name, {}, opts)
        child = pulumi.ResourceOptions(parent=self, provider=args.provider)
        tags = dict(args.tags)

        # On the instance, not the class: the SDK evaluates class annotations (see EksGpuNodePool.launch_template).
        self.placement_group: aws.ec2.PlacementGroup | None = _placement_group(name, spec, tags, self)
        """An EFA pool's cluster placement group, when gpuready makes it (``placementGroup: create``)."""

        def class_spec(resolved: dict[str, Any]) -> dict[str, Any]:
            wiring = karpenter.KarpenterWiring(
                cluster_name=resolved["cluster"], node_role=resolved["role"], subnet_ids=tuple(resolved["subnets"]),
                security_group_ids=tuple(resolved["groups"]), tags=tags,
            )  # fmt: skip
            body: dict[str, Any] = karpenter.node_class(spec, wiring, resolved["placement"])["spec"]
            return body

        node_class_spec = pulumi.Output.all(
            cluster=args.cluster_name, role=args.node_role, subnets=args.subnet_ids, groups=args.security_group_ids,
            placement=self.placement_group.name if self.placement_group else _named_placement(spec),
        ).apply(class_spec)  # fmt: skip
        api_version, kind = karpenter.NODE_CLASS_API
        self.node_class = k8s.apiextensions.CustomResource(
            f"{name}-node-class", api_version=api_version, kind=kind, metadata={"name": spec.name},
            spec=node_class_spec, opts=child,
        )  # fmt: skip
        after_class = pulumi.ResourceOptions.merge(child, pulumi.ResourceOptions(depends_on=[self.node_class]))
        self.node_pool = k8s.apiextensions.CustomResource(
            f"{name}-node-pool", api_version=pool["apiVersion"], kind=pool["kind"], metadata=pool["metadata"],
            spec=pool["spec"], opts=after_class,
        )  # fmt: skip
        warning = ec2_node_class.latest_warning(spec)
        if warning:
            pulumi.log.warn(warning, resource=self)
        overlay = node_overlay.node_overlay(spec) if args.cluster.node_overlay else None
        self.node_overlay = None if overlay is None else k8s.apiextensions.CustomResource(
            f"{name}-node-overlay", api_version=overlay["apiVersion"], kind=overlay["kind"],
            metadata=overlay["metadata"], spec=overlay["spec"], opts=child,
        )  # fmt: skip
        node_pool_name = pulumi.Output.from_input(spec.name)
        self._publish(
            spec, node_pool_name, plan.driver_summary(spec), karpenter.lifecycle_summary(spec), cluster=args.cluster
        )


def _placement_group(
    name: str, spec: GpuPoolSpec, tags: Mapping[str, str], parent: pulumi.Resource
) -> aws.ec2.PlacementGroup | None:
    """The cluster placement group gpuready makes for an EFA pool (``placementGroup: create``), else None. It is
    an AWS resource beside the Kubernetes objects: deleted after the EC2NodeClass that selects it (Pulumi deletes
    dependents first), once Karpenter has removed the pool's nodes."""
    if spec.fabric is None or FABRIC.placement(spec.fabric) != CREATE:
        return None
    return aws.ec2.PlacementGroup(
        f"{name}-placement", strategy=launch_template_fabric.CLUSTER_STRATEGY, tags=dict(tags),
        opts=pulumi.ResourceOptions(parent=parent),
    )  # fmt: skip


def _named_placement(spec: GpuPoolSpec) -> str | None:
    """The placement group an EFA pool names (made elsewhere), or None."""
    return None if spec.fabric is None else FABRIC.placement(spec.fabric)


PACKAGE_CLOUD: Cloud = "eks"
"""The cloud of this module's package component (``gpuready.package.provider``)."""


def package_pool(
    name: str, spec: GpuPoolSpec, wiring: Mapping[str, Any], provider: pulumi.ProviderResource,
    opts: pulumi.ResourceOptions, *, cluster: ClusterFacts = DEFAULT_CLUSTER,
) -> EksKarpenterGpuPool:  # fmt: skip
    """The component built by the package provider from its schema inputs (camelCase wiring; ``cluster``: the
    ``karpenterFeatureGates`` input, checked by the provider as the stack key ``gpuready:karpenterFeatureGates``)."""
    return EksKarpenterGpuPool(name, EksKarpenterGpuPoolArgs(
        pool=spec, provider=cast("k8s.Provider", provider), cluster_name=wiring["clusterName"],
        node_role=wiring["nodeRoleArn"], subnet_ids=wiring["subnetIds"],
        security_group_ids=wiring.get("securityGroupIds") or (), tags=wiring.get("tags") or {}, cluster=cluster,
    ), opts)  # fmt: skip


def build_pool(spec: GpuPoolSpec, settings: StackSettings, provider: pulumi.ProviderResource) -> EksKarpenterGpuPool:
    """The Karpenter component of ``spec`` on the stack's cluster ``provider``, wired from ``gpuready:clusterName``,
    ``eksNodeRoleArn``, ``eksSubnetIds`` and ``tags`` (the stack program's adapter, as for Auto Mode pools)."""
    wiring = EksSettingsValues.of(settings)
    return EksKarpenterGpuPool(spec.name, EksKarpenterGpuPoolArgs(
        pool=spec, provider=cast("k8s.Provider", provider), cluster_name=settings.cluster_name,
        node_role=wiring.eks_node_role_arn, subnet_ids=tuple(wiring.eks_subnet_ids), tags=settings.tags,
        cluster=settings.cluster,
    ))  # fmt: skip
