"""The pack's node fabric policy: multi-node GPU pools set their fabric up, and pods ask for it only where it is."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy, Severity

from gpuready.policy.rules import fabric
from gpuready.policy.scoped import ScopedStackPolicy

POLICIES: list[Policy] = [
    ScopedStackPolicy(
        name="gpu-fabric-pools",
        description="Multi-node GPU pools of fabric-capable types set up their fabric (EFA interfaces, a placement "
        "group, one zone), and pods request fabric devices only on pools that have them.",
        rules=[fabric.fabric_findings],
        resource_types=fabric.fabric_types(),
        enforcement_level=EnforcementLevel.ADVISORY,
        severity=Severity.MEDIUM,
        url="https://docs.aws.amazon.com/eks/latest/userguide/node-efa.html",
        remediation_steps="Set fabric: efa on the gpuready pool (docs/fabric.md), or give the node group a launch "
        "template with EFA interfaces and a cluster placement group in one zone; point pods that request "
        "vpc.amazonaws.com/efa at such a pool.",
    ),
]
"""The fabric policies."""
