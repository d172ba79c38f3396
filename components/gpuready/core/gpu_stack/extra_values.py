"""``gpuStack.values``: extra Helm values deep-merged into the release gpuready plans, with guard rails. Pure.

Three checks, every problem at once, each with the path under ``gpuStack.values``:

1. every key is one the chart reads: a key of its ``values.yaml`` (or of a bundled subchart's, under the
   dependency's alias), anything below a map the chart leaves free (an empty or null default, one of
   ``Chart.free_form``, or a map of labels, annotations, resources or security context), or a
   dependency ``condition``; otherwise "unknown key" with a did-you-mean.
   Neither pinned chart has a ``values.schema.json`` (the bundled NFD subchart has one, which Helm applies at
   install), so Helm itself would ignore a misspelt key without a word. Checked against the pinned version's
   facts (``chart_facts``, read from its archive); with another ``chartVersion`` the keys are that chart's business;
2. no value overrides what gpuready decides (``owned_values``), neither below an owned path nor by replacing a
   map above one; the owner is named so the user knows which gpuready key to set instead;
3. then ``merge`` deep-merges them into gpuready's values as Helm does (maps key by key; lists and scalars
   replace).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.gpu_stack import chart_facts
from gpuready.core.gpu_stack.charts import Chart
from gpuready.core.gpu_stack.owned_values import inert_reason, leaves, owned_paths
from gpuready.core.mappings import deep_merge
from gpuready.core.suggest import did_you_mean
from gpuready.errors import Problem

FREE_FORM_NAMES = frozenset(
    {"annotations", "labels", "additionalLabels", "podAnnotations", "podLabels", "daemonsetAnnotations",
     "nodeSelector", "resources", "securityContext", "podSecurityContext", "selectorLabelsOverride"}
)  # fmt: skip
"""Maps of the user's own keys (label and annotation keys, Kubernetes objects) wherever they are in a chart, even
where the chart's default has entries (``operator.annotations`` defaults to ``openshift.io/scc``)."""
MAX_LISTED_KEYS = 40
"""Beyond this many keys a problem names no allowed set (the hint suggests the close one)."""


def key_problems(chart: Chart, version: str, values: Mapping[str, Any], prefix: str) -> list[Problem]:
    """Every key of ``values`` the chart does not read (empty when gpuready has no facts of ``version``)."""
    if not chart_facts.has_facts(chart.name, version):
        return []
    known = chart_facts.chart_values(chart.name, version)
    problems: list[Problem] = []
    _walk(chart, known, values, defaults=known.tree, at="", prefix=prefix, problems=problems)
    return problems


def override_problems(
    chart: Chart, values: Mapping[str, Any], gpuready_values: Mapping[str, Any] | None, prefix: str
) -> list[Problem]:
    """Every value of ``values`` that would override a path gpuready decides (``owned_values.owned_paths``)."""
    owned = owned_paths(chart, gpuready_values)
    problems: list[Problem] = []
    for path, value in leaves(values):
        why = inert_reason(chart, path)
        if why is not None:
            problems.append(Problem(f"{prefix}.{path}", f"does nothing: {why}", value, (), "remove it"))
            continue
        for owned_path, owner in owned.items():
            below = path == owned_path or path.startswith(owned_path + ".")
            replaces = owned_path.startswith(path + ".") and not isinstance(value, Mapping)
            if below or replaces:
                problems.append(
                    Problem(
                        f"{prefix}.{path}",
                        f"gpuready decides {owned_path!r} of the {chart.name} chart: {owner}",
                        value,
                        (),
                        "remove it from gpuStack.values and change the gpuready setting that owns it",
                    )
                )
                break
    return problems


def merge(gpuready_values: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """gpuready's values with the user's merged in (as Helm merges a values file over another)."""
    return deep_merge(gpuready_values, values)


def _walk(
    chart: Chart,
    known: chart_facts.ChartValues,
    values: Mapping[str, Any],
    *,
    defaults: Mapping[str, Any],
    at: str,
    prefix: str,
    problems: list[Problem],
) -> None:
    free = set(chart.free_form)
    for key, value in values.items():
        path = f"{at}{key}"
        where = f"{prefix}.{path}"
        if not isinstance(key, str):
            problems.append(Problem(where, "values keys are strings", key))
            continue
        if key not in defaults:
            if path in known.conditions and isinstance(value, bool):
                continue
            choices = sorted(str(k) for k in defaults)
            allowed = tuple(choices) if len(choices) <= MAX_LISTED_KEYS else ()
            problems.append(
                Problem(
                    where,
                    f"unknown key: the {chart.name} chart has no value {path!r} (Helm would ignore it)",
                    None,
                    allowed,
                    did_you_mean(key, choices) or f"see the chart's values.yaml under {at.rstrip('.') or 'the top'}",
                )
            )
            continue
        default = defaults[key]
        if path in free or key in FREE_FORM_NAMES or default is None or (isinstance(default, Mapping) and not default):
            if isinstance(default, Mapping) and value is not None and not isinstance(value, Mapping):
                problems.append(Problem(where, "is a map in the chart", value, (), "e.g. {key: value}"))
            continue  # a map the chart leaves to the user, or a slot without a default
        if isinstance(value, Mapping):
            if isinstance(default, Mapping):
                _walk(chart, known, value, defaults=default, at=path + ".", prefix=prefix, problems=problems)
            else:
                problems.append(
                    Problem(
                        where, f"is a {_kind(default)} in the chart, not a map", dict(value), (), f"e.g. {default!r}"
                    )
                )
        elif isinstance(default, Mapping) and value is not None:
            problems.append(
                Problem(where, "is a map of keys in the chart", value, tuple(sorted(str(k) for k in default)))
            )


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, list):
        return "list"
    if isinstance(value, (int, float)):
        return "number"
    return "string"
