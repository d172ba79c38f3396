"""The pack's GPU health policies: health agents that tolerate the GPU taint, one DCGM host engine per GPU node, and
AKS pools without the cloud's GPU health checks (docs/gpu-health.md "GPU health")."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy, Severity

from gpuready.core.conventions import GPU_TAINT_PROPERTY, GPU_TAINT_SCHEMA
from gpuready.policy.rules import health
from gpuready.policy.rules.charts import RELEASE
from gpuready.policy.rules.gpu_pools import POOL_TYPES
from gpuready.policy.scoped import ScopedResourcePolicy, ScopedStackPolicy

POLICIES: list[Policy] = [
    ScopedResourcePolicy(
        name="gpu-health-agent-tolerates-gpu-taint",
        description="Health agents (the EKS node monitoring agent add-on or chart, node-problem-detector, DCGM, "
        "NVSentinel DaemonSets) tolerate the GPU taint (gpuTaint, nvidia.com/gpu by default), so they run on the "
        "GPU nodes they watch.",
        rules=[health.agent_taint_problems],
        resource_types=health.HEALTH_TYPES,
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.HIGH,
        url="https://github.com/aws/containers-roadmap/issues/2567",
        config={GPU_TAINT_PROPERTY: GPU_TAINT_SCHEMA},
        remediation_steps="Add {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule} to the agent's "
        "tolerations (the EKS agent: dcgmAgent.tolerations in its configuration values), or let the GPU Operator "
        "run DCGM and keep dcgm-server off the GPU pools (gpuStack.health.dcgm: gpu-operator).",
    ),
    ScopedStackPolicy(
        name="gpu-stack-single-dcgm-owner",
        description="One DCGM host engine per GPU node: not the GPU Operator's beside the EKS node monitoring agent's "
        "dcgm-server.",
        rules=[health.dcgm_owner_findings],
        resource_types=health.HEALTH_TYPES,
        requires_types=[RELEASE],
        config={GPU_TAINT_PROPERTY: GPU_TAINT_SCHEMA},
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.HIGH,
        url="https://github.com/aws/eks-node-monitoring-agent/issues/256",
        remediation_steps="Choose one owner (gpuStack.health.dcgm): the GPU Operator's standalone DCGM (dcgm.enabled: "
        "true, the agent's dcgmAgent.affinity excluding gpuready.io/gpu-pool nodes), or the agent's dcgm-server "
        "with the operator's DCGM exporter off.",
    ),
    ScopedResourcePolicy(
        name="gpu-pool-has-cloud-health-checks",
        description="GPU pools the cloud runs no GPU health checks on (AKS with gpuProfile.driver None) are named, "
        "with another way to watch them.",
        rules=[health.driverless_health_problems],
        resource_types=POOL_TYPES,
        enforcement_level=EnforcementLevel.ADVISORY,
        severity=Severity.LOW,
        url="https://learn.microsoft.com/azure/aks/gpu-health-monitoring",
        remediation_steps="Run NVIDIA NVSentinel or the GPU Operator's DCGM exporter with health alerts on the pool, "
        "or let AKS install the driver (gpuProfile.driver: Install) where the GPU Operator's driver is not needed.",
    ),
]
