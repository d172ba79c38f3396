"""The pack's placement policies: schedulers that exist, and replicas that say whether they pack or spread."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy, Severity

from gpuready.policy.rules import placement
from gpuready.policy.rules.workloads import WORKLOAD_TYPES
from gpuready.policy.scoped import ScopedResourcePolicy, ScopedStackPolicy

MANDATORY, ADVISORY = EnforcementLevel.MANDATORY, EnforcementLevel.ADVISORY
_STRING_LIST = {"type": "array", "items": {"type": "string"}}

POLICIES: list[Policy] = [
    ScopedStackPolicy(
        name="gpu-workload-scheduler-exists",
        description="Workloads that name a scheduler (e.g. the gpu-binpack profile) are in a stack that runs it.",
        rules=[placement.scheduler_findings],
        resource_types=WORKLOAD_TYPES | {placement.CONFIG_MAP},
        enforcement_level=MANDATORY,
        severity=Severity.HIGH,
        url="https://kubernetes.io/docs/tasks/extend-kubernetes/configure-multiple-schedulers/",
        remediation_steps="Deploy GpuBinPackingScheduler (profile gpu-binpack) in the same stack, fix schedulerName, "
        "or list schedulers other stacks run in the policy config externalSchedulers.",
        config={"externalSchedulers": {**_STRING_LIST, "default": []}},
    ),
    ScopedResourcePolicy(
        name="gpu-replicas-spread-or-pack",
        description="GPU Deployments and StatefulSets with more than one replica say whether replicas pack or spread.",
        rules=[placement.spread_or_pack_problems],
        resource_types=placement.REPLICATED_TYPES,
        enforcement_level=ADVISORY,
        severity=Severity.LOW,
        url="https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#inter-pod-affinity-and-anti-affinity",
        remediation_steps="Add required podAntiAffinity on kubernetes.io/hostname (spread), or schedulerName "
        "gpu-binpack with preferred podAffinity on a group label (pack); core.workload.Placement builds both.",
    ),
]
"""The placement policies, in the order the pack lists them."""
