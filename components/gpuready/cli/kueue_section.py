"""Render the Kueue part of a plan: the ClusterQueue with each flavor's quota and admission check, and the
LocalQueues onto it (``gpuready:kueue``; ``core.kueue.queues``). Pure (reads the planned resources' inputs)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.offline.plan import PlannedResource

KUEUE = "kubernetes:kueue.x-k8s.io/v1beta2:"


def render_kueue(resources: Sequence[PlannedResource]) -> str:
    """One block per ClusterQueue, then a line per LocalQueue; empty when the plan has none."""
    lines: list[str] = []
    for resource in resources:
        if resource.type == KUEUE + "ClusterQueue":
            lines += _cluster_queue(resource.inputs)
    for resource in resources:
        if resource.type == KUEUE + "LocalQueue":
            metadata = _mapping(resource.inputs.get("metadata"))
            queue = _mapping(resource.inputs.get("spec")).get("clusterQueue")
            lines.append(f"Kueue LocalQueue {metadata.get('namespace')}/{metadata.get('name')} -> {queue}")
    return "\n".join(lines)


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _cluster_queue(inputs: Mapping[str, Any]) -> list[str]:
    spec = inputs.get("spec") or {}
    selector = spec.get("namespaceSelector") or {}
    namespaces = "every namespace" if not selector else f"namespaces {_selector(selector)}"
    cohort = f", cohort {spec['cohortName']}" if spec.get("cohortName") else ""
    head = f"Kueue ClusterQueue {(inputs.get('metadata') or {}).get('name')!r} ({namespaces}{cohort}):"
    checks = {
        flavor: check["name"]
        for check in (spec.get("admissionChecksStrategy") or {}).get("admissionChecks", [])
        for flavor in check.get("onFlavors") or ()
    }
    lines = [head]
    for group in spec.get("resourceGroups") or []:
        for flavor in group.get("flavors") or []:
            quota = ", ".join(f"{r['name']} {r['nominalQuota']}" for r in flavor.get("resources") or [])
            check = f"; admission check {checks[flavor['name']]}" if flavor["name"] in checks else ""
            lines.append(f"  flavor {flavor['name']}: {quota}{check}")
    return lines


def _selector(selector: Mapping[str, Any]) -> str:
    """A label selector as ``key=value`` and ``key In [a, b]`` terms, comma-separated."""
    terms = [f"{key}={value}" for key, value in (selector.get("matchLabels") or {}).items()]
    for expression in selector.get("matchExpressions") or []:
        values = f" [{', '.join(expression.get('values') or [])}]" if expression.get("values") else ""
        terms.append(f"{expression.get('key')} {expression.get('operator')}{values}")
    return ", ".join(terms)
