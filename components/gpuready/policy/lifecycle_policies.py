"""The pack's lifecycle policies: rules that read a GPU pool's resource options (docs/day2.md "Day 2")."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy, Severity

from gpuready.policy.rules import lifecycle
from gpuready.policy.scoped import ScopedResourcePolicy

_DAY_2 = "https://github.com/pulumi/pulumi/blob/master/pkg/resource/deploy/step_generator.go"

POLICIES: list[Policy] = [
    ScopedResourcePolicy(
        name="gpu-node-pool-count-owned-by-autoscaler",
        description="Autoscaled GPU pools read their initial node count at creation only (ignoreChanges).",
        rules=[],
        option_rules=[lifecycle.autoscaled_count_problems],
        resource_types=lifecycle.LIFECYCLE_TYPES,
        enforcement_level=EnforcementLevel.ADVISORY,
        severity=Severity.MEDIUM,
        url="https://www.pulumi.com/docs/iac/concepts/options/ignorechanges/",
        remediation_steps="Add ignoreChanges for scalingConfig.desiredSize (EKS), count (AKS with autoscaling) or "
        "initialNodeCount (GKE); gpuready's pool components do.",
    ),
    ScopedResourcePolicy(
        name="gpu-node-pool-never-deleted-first",
        description="GPU pools are not replaced delete-first, which removes every GPU before the new pool exists.",
        rules=[],
        option_rules=[lifecycle.delete_first_problems],
        resource_types=lifecycle.LIFECYCLE_TYPES,
        enforcement_level=EnforcementLevel.ADVISORY,
        severity=Severity.MEDIUM,
        url=_DAY_2,
        remediation_steps="Drop deleteBeforeReplace (or set it to false) and let the pool's name change with the "
        "inputs that force replacement, so the new pool is created while the old one serves.",
    ),
]
