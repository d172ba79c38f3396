"""A slim, typed view of a Kubernetes Node, built from the raw API object. Pure: no I/O.

Only what verification reads is kept: labels, taints, extended resources (integers, as the API server
requires for them) and the Ready condition. Anything malformed degrades to "absent" instead of raising,
because a node is evidence to report on, not input to reject.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from components.core.k8s_syntax import TAINT_EFFECTS, TaintEffect
from components.core.specs import Taint


@dataclass(frozen=True, kw_only=True, slots=True)
class NodeView:
    """What verification needs to know about one node."""

    name: str
    labels: Mapping[str, str] = field(default_factory=dict)
    taints: tuple[Taint, ...] = ()
    capacity: Mapping[str, int] = field(default_factory=dict)
    """Extended resources (``<domain>/<name>``) from ``status.capacity``."""
    allocatable: Mapping[str, int] = field(default_factory=dict)
    """Extended resources from ``status.allocatable``."""
    ready: bool = True
    """The Ready condition is True."""
    unschedulable: bool = False
    """The node is cordoned (``spec.unschedulable``)."""
    not_ready_reason: str = ""
    """Reason and message of a Ready condition that is not True."""


def node_view(raw: Mapping[str, Any]) -> NodeView:
    """Build a ``NodeView`` from a Node as the API returns it (a decoded JSON object)."""
    metadata = _mapping(raw.get("metadata"))
    spec = _mapping(raw.get("spec"))
    status = _mapping(raw.get("status"))
    ready, reason = _readiness(status.get("conditions"))
    return NodeView(
        name=str(metadata.get("name", "")),
        labels=_labels(metadata.get("labels")),
        taints=tuple(t for t in map(_taint, _list(spec.get("taints"))) if t is not None),
        capacity=_extended(status.get("capacity")),
        allocatable=_extended(status.get("allocatable")),
        ready=ready,
        unschedulable=bool(spec.get("unschedulable", False)),
        not_ready_reason=reason,
    )


def _mapping(value: object) -> Mapping[str, Any]:
    return cast("Mapping[str, Any]", value) if isinstance(value, Mapping) else {}


def _labels(raw: object) -> dict[str, str]:
    labels = dict(_mapping(raw))
    if all(type(v) is str for v in labels.values()):  # always so from the API server; skip the copy
        return labels
    return {str(k): str(v) for k, v in labels.items()}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _taint(raw: object) -> Taint | None:
    item = _mapping(raw)
    key, effect = item.get("key"), item.get("effect")
    if not isinstance(key, str) or effect not in TAINT_EFFECTS:
        return None
    return Taint(key=key, value=str(item.get("value") or ""), effect=cast("TaintEffect", effect))


def _extended(raw: object) -> dict[str, int]:
    resources: dict[str, int] = {}
    for name, quantity in _mapping(raw).items():
        if "/" in name:  # cpu, memory, pods... are not extended resources
            count = parse_count(quantity)
            if count is not None:
                resources[name] = count
    return resources


_SUFFIXES = {"k": 10**3, "M": 10**6, "G": 10**9, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30}


def parse_count(quantity: object) -> int | None:
    """An integer quantity (``8``, ``2k``) as an int; None for anything fractional or malformed."""
    text = str(quantity).strip()
    if text.isdigit():  # the common case: extended resources are plain integers
        return int(text)
    for suffix in sorted(_SUFFIXES, key=len, reverse=True):
        if text.endswith(suffix) and text[: -len(suffix)].isdigit():
            return int(text[: -len(suffix)]) * _SUFFIXES[suffix]
    return None


def _readiness(conditions: object) -> tuple[bool, str]:
    for condition in _list(conditions):
        item = _mapping(condition)
        if item.get("type") == "Ready":
            if item.get("status") == "True":
                return True, ""
            reason = str(item.get("reason") or f"Ready={item.get('status')}")
            message = str(item.get("message") or "")
            return False, f"{reason}: {message}" if message else reason
    return False, "no Ready condition reported yet"
