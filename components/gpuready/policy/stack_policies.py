"""The pack's GPU stack policies: one driver owner and one device plugin per pool, every pool served, the stack's
DaemonSets tolerating the pools' taints, the MIG manager only with MIG pools."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy, Severity

from gpuready.policy.rules import stack
from gpuready.policy.rules.charts import INSTALL_TYPES
from gpuready.policy.rules.elastic_pools import ELASTIC_TYPES
from gpuready.policy.rules.gpu_pools import POOL_TYPES
from gpuready.policy.scoped import ScopedStackPolicy

MANDATORY, ADVISORY = EnforcementLevel.MANDATORY, EnforcementLevel.ADVISORY
DEVICE_PLUGIN_README = "https://github.com/NVIDIA/k8s-device-plugin#quick-start"
STACK_TYPES = POOL_TYPES | ELASTIC_TYPES | INSTALL_TYPES
"""What a GPU stack policy reads: the pools (fixed and elastic) and the releases that install a GPU stack."""

POLICIES: list[Policy] = [
    ScopedStackPolicy(
        name="gpu-stack-single-driver-owner",
        description="Each GPU pool has exactly one NVIDIA driver owner and one device plugin across node image, "
        "cloud and GPU stack.",
        rules=[stack.driver_owner_findings],
        resource_types=STACK_TYPES,
        requires_types=INSTALL_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.HIGH,
        url="https://github.com/NVIDIA/gpu-operator/issues/525",
        remediation_steps="With a driver in the node image or cloud (EKS NVIDIA AMIs, AKS gpuProfile.driver Install, "
        "GKE driver installation) set the GPU Operator's driver.enabled: false; on GKE with NVIDIA's stack label "
        "pools gke-no-default-nvidia-gpu-device-plugin=true.",
    ),
    ScopedStackPolicy(
        name="gpu-pool-served-by-gpu-stack",
        description="Every GPU pool, NodePool and ComputeClass has a device plugin (the cloud's, Bottlerocket's, EKS "
        "Auto Mode's, or a GPU release in the stack).",
        rules=[stack.served_findings],
        resource_types=STACK_TYPES,
        enforcement_level=ADVISORY,
        severity=Severity.MEDIUM,
        url=DEVICE_PLUGIN_README,
        remediation_steps="Add an nvidia-device-plugin or gpu-operator Helm release to the stack, or make this policy "
        "mandatory only in stacks that own the cluster's GPU stack.",
    ),
    ScopedStackPolicy(
        name="gpu-stack-tolerates-pool-taints",
        description="GPU-stack DaemonSets tolerate every NoSchedule/NoExecute taint of the GPU pools they serve.",
        rules=[stack.taint_toleration_findings],
        resource_types=STACK_TYPES,
        requires_types=INSTALL_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.HIGH,
        url="https://github.com/eksctl-io/eksctl/issues/5277",
        remediation_steps="Add an Exists toleration for each pool taint to the release's DaemonSet tolerations.",
    ),
    ScopedStackPolicy(
        name="gpu-mig-manager-only-with-mig-pools",
        description="The MIG manager is configured only with MIG-capable pools, and MIG layouts asked for by pools "
        "are served.",
        rules=[stack.mig_manager_findings],
        resource_types=STACK_TYPES,
        requires_types=INSTALL_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.MEDIUM,
        url="https://github.com/NVIDIA/gpu-operator/issues/652",
        remediation_steps="Disable migManager without MIG-capable pools; run it (with the named layouts) where pools "
        "set nvidia.com/mig.config.",
    ),
]
"""The GPU stack policies, in the order ``policies.POLICIES`` lists them."""
