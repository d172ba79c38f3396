"""How long a GPU node of a Karpenter NodePool lives, and when Karpenter may take it away. Pure.

Facts (the NodePool CRD, kubernetes-sigs/karpenter v1.14.1 ``pkg/apis/crds/karpenter.sh_nodepools.yaml`` as vendored
from aws/karpenter-provider-aws v1.14.1; the same in Azure/karpenter-provider-azure v1.14.2):

- ``spec.template.spec.expireAfter`` defaults to ``720h`` (L239-246): every node is then terminated 30 days after it
  was made, running GPU jobs included (expiration is forceful: no budget or ``do-not-disrupt`` holds it).
  gpuready sets ``Never`` unless the pool asks for a lifetime, or the longest a provisioner allows where it caps
  the lifetime (EKS Auto Mode: 21 days, ``Provisioner.max_node_lifetime_hours``).
- ``spec.template.spec.terminationGracePeriod`` (L425-440) has no default: a node being removed waits forever for
  pods that block eviction. When set, it "bypasses any blocked PDBs or the karpenter.sh/do-not-disrupt annotation"
  once it runs out, and drifted nodes start draining even with blocking pods. gpuready sets a week: a training run
  reaches a checkpoint within it, and a drifted node does not keep an outdated configuration for good.
- ``spec.disruption.budgets`` (L76-134) default to ``nodes: 10%`` for every reason; a budget may name
  ``reasons`` (``Underutilized``, ``Empty``, ``Drifted``) and ``nodes`` as a count or a percentage
  (``^((100|[0-9]{1,2})%|[0-9]+)$``). gpuready sets one budget per reason: Drifted 1 node at a time (a drifted node
  is replaced: its pods are evicted), Underutilized 0 (a running job is never moved to save money), Empty 1.
  Budgets never hold an expired node back.

What each change does to running nodes (aws/karpenter-provider-aws v1.14.1
``website/content/en/docs/concepts/disruption.md``): a change of the NodePool template or of its node class
(image, disks, ...) drifts the nodes made before it, and Karpenter replaces drifted nodes within the Drifted budget
(L133-134); that includes ``expireAfter`` (L176-177) and ``terminationGracePeriod`` (L263-267), which existing
nodes keep until they are replaced, so setting them on a NodePool made before gpuready set them replaces its nodes
once. The budgets are behavioral fields: changing them replaces no node (L151-152; ``hash:"ignore"`` on
``Budgets`` in kubernetes-sigs/karpenter v1.14.1 ``pkg/apis/v1/nodepool.go`` L114).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

NEVER = "Never"
DEFAULT_EXPIRE_AFTER = NEVER
"""GPU nodes are not expired: a long job is never killed for the node's age."""
UPSTREAM_EXPIRE_AFTER = "720h"
"""The CRD's default that ``DEFAULT_EXPIRE_AFTER`` replaces."""
DEFAULT_TERMINATION_GRACE_PERIOD = "168h"
REASONS = ("Drifted", "Underutilized", "Empty")
"""The CRD's budget reasons (``disruption.budgets[].reasons`` enum), in the order gpuready writes them."""
DEFAULT_BUDGETS: Mapping[str, str] = {"Drifted": "1", "Underutilized": "0", "Empty": "1"}
DURATION = re.compile(r"^([0-9]+(s|m|h))+\Z")
"""``terminationGracePeriod`` (the CRD's pattern)."""
LIFETIME = re.compile(r"^(([0-9]+(s|m|h))+|Never)\Z")
"""``expireAfter`` (the CRD's pattern)."""
NODES = re.compile(r"^((100|[0-9]{1,2})%|[0-9]+)\Z")
"""``disruption.budgets[].nodes`` (the CRD's pattern)."""
KEYS = ("expireAfter", "terminationGracePeriod", "disruptionBudgets")
"""The pool keys of this module, as the config spells them."""


def given(spec: GpuPoolSpec) -> dict[str, object]:
    """The pool's keys of this module as given (None when left out)."""
    return {
        "expireAfter": spec.expire_after,
        "terminationGracePeriod": spec.termination_grace_period,
        "disruptionBudgets": spec.disruption_budgets,
    }


def expire_after(spec: GpuPoolSpec, cap_hours: int | None = None) -> str:
    """``expireAfter``: the pool's, else ``Never``, else (a provisioner that caps lifetimes) the cap."""
    if spec.expire_after is not None:
        return spec.expire_after
    return DEFAULT_EXPIRE_AFTER if cap_hours is None else f"{cap_hours}h"


def hours(duration: str) -> float:
    """A Karpenter duration (``1h30m``) in hours."""
    scale = {"h": 1.0, "m": 1 / 60, "s": 1 / 3600}
    return sum(int(n) * scale[unit] for n, unit in re.findall(r"([0-9]+)([smh])", duration))


def termination_grace_period(spec: GpuPoolSpec) -> str:
    given_value = spec.termination_grace_period
    return given_value if given_value is not None else DEFAULT_TERMINATION_GRACE_PERIOD


def budgets(spec: GpuPoolSpec) -> dict[str, str]:
    """Reason -> nodes Karpenter may disrupt at once for it: the pool's, else gpuready's default (call on a validated
    spec)."""
    return {**DEFAULT_BUDGETS, **(spec.disruption_budgets or {})}


def template_fields(spec: GpuPoolSpec, cap_hours: int | None = None) -> dict[str, str]:
    """``spec.template.spec`` fields of the NodePool: ``expireAfter`` and ``terminationGracePeriod``."""
    return {"expireAfter": expire_after(spec, cap_hours), "terminationGracePeriod": termination_grace_period(spec)}


def budget_list(spec: GpuPoolSpec) -> list[dict[str, Any]]:
    """``spec.disruption.budgets``: one budget per reason."""
    chosen = budgets(spec)
    return [{"nodes": chosen[reason], "reasons": [reason]} for reason in REASONS]


def summary(spec: GpuPoolSpec, cap_hours: int | None = None) -> str:
    """The lifetime and disruption settings in a few words, for the plan's lifecycle line."""
    lifetime = expire_after(spec, cap_hours)
    life = "nodes never expire" if lifetime == NEVER else f"nodes replaced {lifetime} after creation (jobs too)"
    chosen = budgets(spec)
    return (
        f"{life}; drain at most {termination_grace_period(spec)}; at a time at most {chosen['Drifted']} drifted "
        f"node replaced, {chosen['Empty']} empty removed, {chosen['Underutilized']} underutilized moved; a change "
        "of the NodePool template (expireAfter and terminationGracePeriod included) or of the node class drifts the "
        "nodes made before it: they are replaced"
    )


def problems(spec: GpuPoolSpec, cap_hours: int | None = None) -> list[Problem]:
    """What is wrong with the pool's lifetime and disruption keys (for a provisioner that has them; ``cap_hours``:
    the longest lifetime it allows)."""
    found: list[Problem] = []
    life = spec.expire_after
    if life is not None and not (isinstance(life, str) and LIFETIME.match(life)):
        found.append(Problem("expireAfter", "is not a Karpenter lifetime (a duration in h, m, s, or Never)", life, (),
                             "e.g. expireAfter: Never (the default) or 720h"))  # fmt: skip
    elif isinstance(life, str) and cap_hours is not None and (life == NEVER or hours(life) > cap_hours):
        found.append(Problem("expireAfter", f"is longer than this provisioner lets a node live ({cap_hours}h)", life,
                             (), f"leave it out for {cap_hours}h, or set a shorter lifetime"))  # fmt: skip
    grace = spec.termination_grace_period
    if grace is not None and not (isinstance(grace, str) and DURATION.match(grace)):
        found.append(Problem("terminationGracePeriod", "is not a duration in h, m, s", grace, (),
                             f"e.g. terminationGracePeriod: {DEFAULT_TERMINATION_GRACE_PERIOD}"))  # fmt: skip
    chosen = spec.disruption_budgets
    if chosen is not None and not isinstance(chosen, Mapping):
        found.append(Problem("disruptionBudgets", "must be a mapping of disruption reason to nodes", chosen, REASONS,
                             "e.g. disruptionBudgets: {Drifted: 1, Empty: '10%'}"))  # fmt: skip
        chosen = None
    for reason, nodes in (chosen or {}).items():
        if reason not in REASONS:
            found.append(Problem(f"disruptionBudgets[{reason!r}]", "is not a Karpenter disruption reason", reason,
                                 REASONS, "budgets are per reason: Drifted, Underutilized or Empty"))  # fmt: skip
        elif not (isinstance(nodes, str) and NODES.match(nodes)):
            found.append(Problem(f"disruptionBudgets[{reason!r}]", "is not a node count or a percentage (0-100%)",
                                 nodes, (), f"e.g. {reason}: 1 or {reason}: '10%'"))  # fmt: skip
    return found


def refusals(spec: GpuPoolSpec, provisioner: str, instead: str) -> list[Problem]:
    """A problem for each key of this module set on a pool whose ``provisioner`` makes no Karpenter NodePool."""
    return [
        Problem(key, f"is not supported by the {provisioner} provisioner (it sets a Karpenter NodePool's field)",
                value, (), instead)
        for key, value in given(spec).items()
        if value is not None
    ]  # fmt: skip
