"""Kubernetes semantics the rules need: taints, toleration matching, resource quantities. Pure.

Toleration matching follows ``k8s.io/api/core/v1`` ``Toleration.ToleratesTaint``: an empty effect
matches every effect, an empty key with ``Exists`` matches every taint, ``Equal`` (the default
operator) compares values. Quantities are read by ``gpuready.core.quantities`` (apimachinery's grammar).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

from gpuready.core import quantities, scheduling
from gpuready.core.k8s_syntax import TaintEffect
from gpuready.core.props import as_list, as_mapping, as_number, as_text, dig, text_map
from gpuready.core.taints import Taint

GPU_TAINT = scheduling.GPU_TAINT
"""The taint gpuready puts on every GPU pool: ``nvidia.com/gpu=present:NoSchedule``."""


def tolerates(toleration: object, taint: Taint) -> bool:
    """Whether one toleration (a mapping) tolerates ``taint``."""
    mapping = as_mapping(toleration)
    if mapping is None:
        return False
    effect = as_text(mapping.get("effect")) or ""
    if effect and effect != taint.effect:
        return False
    key = as_text(mapping.get("key")) or ""
    operator = as_text(mapping.get("operator")) or "Equal"
    if not key:
        return operator == "Exists"
    if key != taint.key:
        return False
    return operator == "Exists" or (operator == "Equal" and (as_text(mapping.get("value")) or "") == taint.value)


def any_tolerates(tolerations: Sequence[Any], taint: Taint) -> bool:
    """Whether some toleration in the list tolerates ``taint``."""
    return any(tolerates(t, taint) for t in tolerations)


def schedules_past(taint: Taint) -> bool:
    """Whether the taint keeps pods off the node (``NoSchedule`` / ``NoExecute``); ``PreferNoSchedule`` does not."""
    return taint.effect in ("NoSchedule", "NoExecute")


def parse_quantity(value: object) -> Fraction | None:
    """A resource quantity (``"1"``, ``"500m"``, ``2.0``) as an exact fraction, or None when unparsable."""
    number = as_number(value)
    if number is not None:
        return Fraction(number)
    text = as_text(value)
    return quantities.parse_quantity(text.strip()) if text is not None else None


def selector_matches(selector: Mapping[str, str], labels: Mapping[str, str]) -> bool:
    """Whether a ``nodeSelector`` picks a node with ``labels``."""
    return all(labels.get(k) == v for k, v in selector.items())


def tolerates_every_value(tolerations: Sequence[Any], key: str, effect: str = "NoSchedule") -> bool:
    """Whether some toleration tolerates the taint ``key`` with ``effect`` whatever its value (``Exists``)."""
    return any_tolerates(tolerations, Taint(key, "\x00any value\x00", cast("TaintEffect", effect)))


# kubernetes/component-helpers v0.34.10 scheduling/corev1/nodeaffinity/nodeaffinity.go: GetRequiredNodeAffinity and
# RequiredNodeAffinity.Match (L306-334: the nodeSelector, then the required terms), LazyErrorNodeSelector.Match (terms
# ORed; an empty term, or none, matches no node), nodeSelectorTerm.match (matchFields skipped for a node without a
# name, as a pool's future node is here) and nodeSelectorRequirementsAsSelector (In, NotIn, Exists, DoesNotExist, Gt,
# Lt; any other operator is a parse error: the term matches nothing).
REQUIRED_TERMS_PATH = ("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")


def pod_lands_on(pod_spec: Mapping[str, Any], labels: Mapping[str, str]) -> bool:
    """Whether a pod spec's ``nodeSelector`` and required node affinity both pick a node with ``labels``."""
    if not selector_matches(text_map(pod_spec.get("nodeSelector")), labels):
        return False
    required = as_mapping(dig(pod_spec, *REQUIRED_TERMS_PATH))
    if required is None:
        return True
    return any(node_selector_term_matches(term, labels) for term in as_list(required.get("nodeSelectorTerms")))


def node_selector_term_matches(term: object, labels: Mapping[str, str]) -> bool:
    """Whether one ``nodeSelectorTerms`` entry matches a node with ``labels`` (its expressions ANDed)."""
    given = as_mapping(term) or {}
    expressions = as_list(given.get("matchExpressions"))
    if not expressions:  # an empty term matches nothing; matchFields alone name nodes a pool's labels cannot tell
        return bool(as_list(given.get("matchFields")))
    return all(_requirement_matches(e, labels) for e in expressions)


def _requirement_matches(expression: object, labels: Mapping[str, str]) -> bool:
    given = as_mapping(expression) or {}
    key, operator = as_text(given.get("key")) or "", as_text(given.get("operator"))
    values = [str(v) for v in as_list(given.get("values"))]
    have = labels.get(key)
    if operator in ("Gt", "Lt"):
        number, bound = _integer(have), _integer(values[0]) if len(values) == 1 else None
        if number is None or bound is None:
            return False
        return number > bound if operator == "Gt" else number < bound
    return {
        "In": have is not None and have in values,
        "NotIn": have is None or have not in values,
        "Exists": have is not None,
        "DoesNotExist": have is None,
    }.get(operator or "", False)


def _integer(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None
