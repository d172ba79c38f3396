"""How much the policy gate judged: the rules that ran and the resources they read (``gpuready plan``'s last line).

A rule runs unless its enforcement level is ``disabled`` (the pack's own, or the ``--policy-config``); a resource is
judged when some running resource rule reads its type, or a running stack rule reads it and the stack holds what
that rule needs (``policy_run.reads`` / ``may_report``: exactly what the gate evaluates).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pulumi.runtime.proto import analyzer_pb2
from pulumi_policy import Policy, StackValidationPolicy

from gpuready.offline.capture import CapturedRun
from gpuready.offline.policy_run import may_report, reads
from gpuready.record import record


@record(frozen=True, slots=True)
class GateSummary:
    """The rules that are on and the ones that ran, and how many resources they judged, of how many."""

    rules: Mapping[str, str]
    """Every rule that is on (not ``disabled``): name -> description."""
    applied: int
    """Rules that ran on this plan: a resource rule with a resource of its types, a stack rule whose needs are met."""
    judged: int
    resources: int

    def line(self) -> str:
        return (
            f"Policy gate: {self.applied} of the {len(self.rules)} rules of gpuready-gpu-conventions ran, over "
            f"{self.judged} of the plan's {self.resources} resources (the others are of types no rule reads)"
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "rules": self.applied,
            "rulesOn": len(self.rules),
            "resourcesJudged": self.judged,
            "resources": self.resources,
        }


def gate_summary(
    run: CapturedRun, policies: Sequence[Policy], request: analyzer_pb2.ConfigureAnalyzerRequest
) -> GateSummary:
    """What the gate (``analyzer.gate(run, config=...)``) ran over: its policies, configured by ``request``."""
    running = [p for p in policies if request.policyConfig[p.name].enforcementLevel != analyzer_pb2.DISABLED]
    present = {r.type for r in run.resources}
    applied = [
        p
        for p in running
        if (may_report(p, present) if isinstance(p, StackValidationPolicy) else any(reads(p, t) for t in present))
    ]
    judged_types = {t for t in present if any(reads(p, t) for p in applied)}  # asked once a type
    judged = sum(1 for r in run.resources if r.type in judged_types)
    return GateSummary(
        rules={p.name: _description(p) for p in running},
        applied=len(applied),
        judged=judged,
        resources=len(run.resources),
    )


def _description(policy: Policy) -> str:
    return str(getattr(policy, "description", "") or policy.name)
