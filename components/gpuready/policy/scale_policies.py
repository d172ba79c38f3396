"""The pack's policies on whether GPU pools scale: the scale-path model on any program's NodePools, workloads and
ComputeClasses (docs/scale-path.md "How a pending GPU pod becomes a node")."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy, Severity

from gpuready.policy.rules import scale_path
from gpuready.policy.scoped import ScopedResourcePolicy, ScopedStackPolicy

_README = "https://github.com/gpuready/gpuready/blob/main/docs/scale-path.md#how-a-pending-gpu-pod-becomes-a-node"

POLICIES: list[Policy] = [
    ScopedStackPolicy(
        name="gpu-nodepool-limit-counts-reported-gpus",
        description="A GPU NodePool's nvidia.com/gpu limit counts the GPUs its nodes report (shares, MIG devices), "
        "so it lets all its nodes launch.",
        rules=[scale_path.limit_findings],
        resource_types=scale_path.LIMIT_STACK_TYPES,
        requires_types=scale_path.NODE_POOL_RESOURCE_TYPES,
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.HIGH,
        url=_README,
        remediation_steps="Set spec.limits['nvidia.com/gpu'] to nodes x what one node reports (GPUs x shares, or MIG "
        "devices) and spec.limits.nodes to the nodes.",
    ),
    ScopedResourcePolicy(
        name="gpu-nodepool-not-dra",
        description="Karpenter ignores pods with ResourceClaims (IGNORE_DRA_REQUESTS): DRA GPUs are not served from "
        "a NodePool.",
        rules=[scale_path.dra_node_pool_problems],
        resource_types=scale_path.NODE_POOL_RESOURCE_TYPES,
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.HIGH,
        url=_README,
        remediation_steps="Serve DRA GPUs from a node group with at least one node, or advertise them through the "
        "device plugin.",
    ),
    ScopedResourcePolicy(
        name="gpu-dra-node-group-keeps-a-node",
        description="A DRA node group keeps at least one node: the cluster autoscaler cannot scale it up from zero.",
        rules=[scale_path.dra_node_group_problems],
        resource_types=scale_path.NODE_GROUP_TYPES,
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.HIGH,
        url="https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/docs/dra_support.md",
        remediation_steps="Set the node group's autoscaling minimum to 1 (EKS scalingConfig.minSize, AKS minCount, "
        "GKE autoscaling.minNodeCount).",
    ),
    ScopedStackPolicy(
        name="gpu-workload-requests-what-karpenter-makes",
        description="Pods on a Karpenter NodePool request resources Karpenter can make a node for (nvidia.com/gpu, "
        "or what a NodeOverlay of the stack adds; no ResourceClaims).",
        rules=[scale_path.workload_findings],
        resource_types=scale_path.WORKLOAD_STACK_TYPES,
        enforcement_level=EnforcementLevel.ADVISORY,
        severity=Severity.HIGH,
        url=_README,
        remediation_steps="Request nvidia.com/gpu (MIG strategy single, sharing without renameByDefault), or add a "
        "NodeOverlay with Karpenter's NodeOverlay feature gate on; run DRA pods on a DRA node group.",
    ),
    ScopedStackPolicy(
        name="gpu-compute-class-selected",
        description="Workloads that target a GPU ComputeClass's nodes select the class "
        "(cloud.google.com/compute-class), or GKE never creates the nodes.",
        rules=[scale_path.compute_class_selection_findings],
        resource_types=scale_path.COMPUTE_CLASS_STACK_TYPES,
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.HIGH,
        url="https://cloud.google.com/kubernetes-engine/docs/concepts/about-custom-compute-classes",
        remediation_steps="Add cloud.google.com/compute-class: <class> to the pod's nodeSelector and tolerate "
        "cloud.google.com/compute-class=<class>:NoSchedule (gpuready's workload helper does both).",
    ),
]
"""The scale-path policies, in the order ``PolicyPack`` lists them."""
