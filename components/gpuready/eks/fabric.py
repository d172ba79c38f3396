"""EFA on EKS: the types that have it, where a pool may use it, and what its pods request. Pure.

Facts per type from ``fabric_facts`` (EC2 ``NetworkInfo`` via moto). Rules:

* One zone: "EFA does not work cross-AZ" (pulumi/pulumi-eks PR #1593, closing #1564, which therefore requires
  ``placementGroupAvailabilityZone``), and a cluster placement group lies in one zone (AWS EC2 User Guide,
  "Placement strategies": "A cluster placement group is a logical grouping of instances within a single
  Availability Zone"). A pool names exactly one zone (``zones: [us-east-1a]``); a node group's subnets must all lie
  in it (checked against the subnets at deploy, ``eks.launch_template``); a Karpenter pool's NodePool requires it.
* Placement: ``create`` by default (terraform-aws-modules/terraform-aws-eks ``enable_efa_support`` creates one:
  modules/eks-managed-node-group/main.tf @bef29c4 L40-86).
* EKS Auto Mode: its ``eks.amazonaws.com/v1`` NodeClass (schema in
  ``../shared/reference/upstream/crds-catalog/eks.amazonaws.com/nodeclass_v1.json``) has no network interface nor
  placement group field, so gpuready cannot give its nodes EFA interfaces: refused.
* A Karpenter pool's types share one EFA card layout: the EC2NodeClass lists its ``networkInterfaces`` once for
  every type of the pool.

Pods: the EFA device plugin advertises ``vpc.amazonaws.com/efa``, one per EFA interface (aws/eks-charts
``stable/aws-efa-k8s-device-plugin``; Karpenter lists it among its well-known resources:
kubernetes-sigs/karpenter v1.14.1 / aws/karpenter-provider-aws v1.14.1 ``pkg/apis/v1/labels.go``
``ResourceEFA``). A pod requests the node's interfaces in proportion to the node's GPUs it takes (all of them for a
whole-node job, at least one). libfabric's EFA provider needs huge pages
(AWS EKS User Guide "Run machine learning training on Amazon EKS with Elastic Fabric Adapter", node-efa: the sample
pods request ``hugepages-2Mi: 5120Mi``). ``FI_PROVIDER=efa`` makes libfabric use the EFA provider only, as the
EFA presets of aws/aws-ofi-nccl ``doc/efa-env-var.md`` (@518f4c6) set it; that cheatsheet also says
``FI_EFA_USE_DEVICE_RDMA=1`` is not needed with libfabric >= 1.18.0 and aws-ofi-nccl >= 1.7.0 (and only p4/p5-class
types have GPUDirect RDMA), so gpuready does not set it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gpuready.core.capacity import gpu_choice
from gpuready.core.fabric.model import CREATE, CloudFabric, FabricSpec, FabricWorkload, StackItem
from gpuready.eks import fabric_policy
from gpuready.eks.fabric_facts import (
    EFA_PLUGIN_CHART,
    EFA_PLUGIN_RELEASE,
    EFA_PLUGIN_VERSION,
    EFA_RESOURCE,
    EFA_TYPES,
)
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

HUGEPAGES = {"hugepages-2Mi": "5120Mi"}
"""Huge pages an EFA pod requests (the AWS EKS User Guide's EFA sample pods)."""
NCCL_ENV: Mapping[str, str] = {"FI_PROVIDER": "efa"}
"""What NCCL's aws-ofi-nccl plugin (through libfabric) reads to run over EFA (cited in the module docstring)."""
ZONE = re.compile(r"^[a-z]{2}(-[a-z]+)+-\d+[a-z](-[a-z]+-\d+[a-z])?\Z")
"""An Availability Zone name (``us-east-1a``; Local Zones ``us-east-1-bos-1a`` are not offered EFA GPU types)."""
AUTO_MODE = "eks-auto-mode"
EFA_NCCL_IMAGE = "public.ecr.aws/deep-learning-containers/pytorch-training:2.8.0-gpu-py312-cu129-ubuntu22.04-ec2"
"""The smoke run's two-node all-reduce image on EFA: AWS's Deep Learning Container for PyTorch on EC2/EKS, with
torchrun, NCCL and aws-ofi-nccl over libfabric from its base image ("base has EFA", aws/deep-learning-containers
``pytorch/training/docker/2.8/py3/cu129/Dockerfile.gpu`` at f0217a2, L28-29; the plugin on the library path,
``/opt/amazon/ofi-nccl/lib``, L79), on ECR Public under the DLC releases' ``<version>-gpu-<python>-<cuda>-<os>-ec2``
tag form; CUDA 12.9 (an NVIDIA driver of the 525 branch or later)."""


class EksFabric(CloudFabric):
    types = EFA_TYPES
    default_placement = CREATE
    plugin_adapter = "gpuready.eks.efa_plugin_release:build_fabric_plugin"
    policy_types = ("aws:ec2/launchTemplate:LaunchTemplate",)
    resource_names = (EFA_RESOURCE,)
    # aws/aws-ofi-nccl names its NCCL net plugin "Libfabric" (v1.21.1 src/nccl_ofi_interface_nvidia.cpp L662, the
    # ``ncclNetPlugin_v*`` ``.name``); "AWS Libfabric" in v1.11.0 and before, and "AWS Libfabric" or "OFI" when
    # NCCL_NET names it so (v1.19.2, same file, L737-760 ``nvidia_plugin_name_fixup``).
    nccl_networks = {"efa": ("Libfabric", "AWS Libfabric", "OFI")}
    nccl_images = {"efa": EFA_NCCL_IMAGE}
    charts = {EFA_PLUGIN_CHART: EFA_PLUGIN_VERSION}
    node_causes = (
        "the EFA device plugin is not running on the node (its DaemonSet not installed, not tolerating the node's "
        "taints, or not selecting its pool label), or the node has no EFA interfaces (launched without gpuready's "
        "launch template, or EFA not set up on its AMI)",
        "the node has fewer EFA interfaces than its type takes: it was launched from a launch template (or an "
        "older version of it) that attaches fewer, or some interfaces failed to attach",
    )
    node_fix = (
        "check the EFA device plugin's pod on the node and the node's interfaces (the launch template's EFA "
        "interfaces, in the EFA security group that admits all traffic from itself): kubectl -n kube-system get "
        f"pods -o wide --field-selector spec.nodeName={{node}} | grep {EFA_PLUGIN_RELEASE}"
    )

    def type_resources(self, instance_type: str) -> dict[str, int]:
        found = EFA_TYPES.get(instance_type)
        return {EFA_RESOURCE: found.devices} if found else {}

    def policy_problems(
        self, where: str, props: Mapping[str, Any], instance_types: Sequence[str], stack: Sequence[StackItem]
    ) -> list[str]:
        return fabric_policy.policy_problems(where, props, instance_types, stack)

    def problems(self, spec: GpuPoolSpec, fabric: FabricSpec) -> list[Problem]:
        if spec.provisioner == AUTO_MODE:
            return [
                Problem(
                    "fabric",
                    "EKS Auto Mode's NodeClass has no network interface or placement group field, so its nodes get "
                    "no EFA interfaces",
                    fabric.kind,
                    (),
                    "use provisioner: karpenter (EC2NodeClass networkInterfaces) or a node group",
                )
            ]
        found: list[Problem] = []
        overrides = spec.overrides if isinstance(spec.overrides, Mapping) else {}
        if "launchTemplate" in overrides:
            found.append(
                Problem(
                    "overrides.launchTemplate",
                    "an EFA pool's launch template is gpuready's (its EFA interfaces and placement group)",
                    overrides["launchTemplate"],
                    (),
                    "remove overrides.launchTemplate, or remove fabric and give the interfaces yourself",
                )
            )
        zones = spec.zones if isinstance(spec.zones, tuple) else ()
        if len(zones) > 1:
            found.append(
                Problem(
                    "zones",
                    "an EFA pool lies in one zone: EFA does not work across zones and a cluster placement group is "
                    "in one zone (pulumi-eks #1564 / PR #1593)",
                    list(zones),
                    (),
                    "keep one zone, with its subnets",
                )
            )
        elif not zones:
            found.append(
                Problem(
                    "zones",
                    "an EFA pool must name its one zone: EFA does not work across zones, and a node group or "
                    "Karpenter otherwise launches in every zone of its subnets (pulumi-eks requires "
                    "placementGroupAvailabilityZone for the same reason, PR #1593)",
                    None,
                    (),
                    "zones: [us-east-1a] (a zone of the pool's subnets that offers its instance type)",
                )
            )
        elif not ZONE.match(str(zones[0])):
            found.append(Problem("zones[0]", "is not an AWS Availability Zone name", zones[0], (), "e.g. us-east-1a"))
        layouts = {EFA_TYPES[name].cards for name in gpu_choice.instance_types(spec)}
        if len(layouts) > 1:
            found.append(
                Problem(
                    "instanceType",
                    "the types of an EFA pool must share one EFA network card layout (the EC2NodeClass lists its "
                    "network interfaces once)",
                    list(gpu_choice.instance_types(spec)),
                    (),
                    "split the pool by EFA interface count",
                )
            )
        return found

    def resources(self, spec: GpuPoolSpec) -> dict[str, int]:
        if spec.fabric is None:
            return {}
        return {EFA_RESOURCE: min(EFA_TYPES[name].devices for name in gpu_choice.instance_types(spec))}

    def workload(self, spec: GpuPoolSpec, share: Fraction) -> FabricWorkload:
        devices = self.resources(spec).get(EFA_RESOURCE, 0)
        if not devices:
            return FabricWorkload()
        # The node's interfaces in proportion to its GPUs the pod takes (all of them for a whole-node job), at least
        # one: a p5.48xlarge's 32 interfaces serve its 8 GPUs, 4 each.
        wanted = max(1, math.floor(devices * share))
        return FabricWorkload(resources={EFA_RESOURCE: wanted}, env=NCCL_ENV, hugepages=HUGEPAGES)

    def summary(self, spec: GpuPoolSpec) -> str:
        fabric = spec.fabric
        if fabric is None:
            return "-"
        devices = self.resources(spec)[EFA_RESOURCE]
        placement = self.placement(fabric)
        group = "new placement group" if placement == CREATE else f"placement group {placement}"
        return f"efa x{devices}, {group}"


FABRIC = EksFabric()
