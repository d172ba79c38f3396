"""The pack's policies on elastic GPU pools: Karpenter, EKS Auto Mode and AKS NAP NodePools (docs/policies.md).

The GPU taint of NodePools and ComputeClasses is checked by ``gpu-node-pool-requires-gpu-taint`` and their device
plugin by ``gpu-pool-served-by-gpu-stack``, with the other pools'; these are what only a NodePool has.
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy, Severity

from gpuready.policy.rules import elastic
from gpuready.policy.rules.elastic_pools import NODE_POOL_TYPES
from gpuready.policy.scoped import ScopedResourcePolicy

_KARPENTER_DOCS = "https://karpenter.sh/docs/concepts/disruption/"

POLICIES: list[Policy] = [
    ScopedResourcePolicy(
        name="gpu-nodepool-requires-gpu-limit",
        description="GPU NodePools (Karpenter, EKS Auto Mode, AKS NAP) bound their GPUs with an nvidia.com/gpu limit.",
        rules=[elastic.limit_problems],
        resource_types=NODE_POOL_TYPES,
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.HIGH,
        url="https://karpenter.sh/docs/concepts/nodepools/#speclimits",
        remediation_steps="Set spec.limits['nvidia.com/gpu'] to the most GPUs the pool may hold (nodes x GPUs per "
        "node).",
    ),
    ScopedResourcePolicy(
        name="gpu-nodepool-consolidation-spares-running-pods",
        description="GPU NodePools consolidate only empty nodes, so a running GPU job is never evicted to save money.",
        rules=[elastic.disruption_problems],
        resource_types=NODE_POOL_TYPES,
        enforcement_level=EnforcementLevel.ADVISORY,
        severity=Severity.MEDIUM,
        url=_KARPENTER_DOCS,
        remediation_steps="Set spec.disruption.consolidationPolicy: WhenEmpty with a consolidateAfter, or a budget "
        "{nodes: '0', reasons: [Underutilized]}, or annotate the GPU pods karpenter.sh/do-not-disrupt: 'true'.",
    ),
]
"""The elastic-pool policies, in the order ``PolicyPack`` lists them."""
