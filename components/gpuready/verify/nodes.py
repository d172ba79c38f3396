"""A slim, typed view of a Kubernetes Node, built from the raw API object. Pure: no I/O.

Only what verification reads is kept: labels, taints, extended resources (integers, as the API server
requires for them), the Ready condition and the health conditions of ``gpuready.core.health.conditions``.
Anything malformed degrades to "absent" instead of raising, because a node is evidence to report on, not input to
reject.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any, Protocol, cast

from gpuready.core.health.conditions import HEALTH_CONDITIONS
from gpuready.core.k8s_syntax import TAINT_EFFECTS, TaintEffect
from gpuready.core.quantities import whole_count
from gpuready.core.taints import Taint
from gpuready.record import record


@record(frozen=True, slots=True)
class ReportedCondition:
    """A health condition as the node reports it (only the types gpuready's health table knows are kept)."""

    type: str
    status: str
    reason: str = ""
    message: str = ""


@record(frozen=True, kw_only=True, slots=True)
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
    health: tuple[ReportedCondition, ...] = ()
    """The node's health conditions (EKS node monitoring agent, AKS NPD, NVSentinel), whatever their status."""


class DecodedNode(Protocol):
    """A node decoded into a compact record rather than dicts (``gpuready.kube.node_record.NodeRecord``): what a
    LIST of many nodes hands on, so no node is kept whole."""

    @property
    def resource_version(self) -> str: ...

    def view(self) -> NodeView:
        """The same ``NodeView`` as ``node_view`` of the node's JSON."""
        ...


def node_view(raw: Mapping[str, Any]) -> NodeView:
    """Build a ``NodeView`` from a Node as the API returns it (a decoded JSON object)."""
    metadata = mapping_of(raw.get("metadata"))
    spec = mapping_of(raw.get("spec"))
    status = mapping_of(raw.get("status"))
    return view_of(
        name=metadata.get("name", ""),
        labels=metadata.get("labels"),
        taints=spec.get("taints"),
        unschedulable=spec.get("unschedulable", False),
        capacity=status.get("capacity"),
        allocatable=status.get("allocatable"),
        conditions=status.get("conditions"),
    )


def view_of(
    *,
    name: object,
    labels: object,
    taints: object,
    unschedulable: object,
    capacity: object,
    allocatable: object,
    conditions: object,
) -> NodeView:
    """A ``NodeView`` from the Node fields verification reads, each as decoded JSON (whatever its shape):
    ``metadata.name``, ``metadata.labels``, ``spec.taints``, ``spec.unschedulable``, ``status.capacity``,
    ``status.allocatable`` and ``status.conditions`` (mappings with ``type``, ``status``, ``reason``, ``message``).
    """
    ready, reason = _readiness(conditions)
    return NodeView(
        name=str(name),
        labels=_labels(labels),
        taints=tuple(t for t in map(_taint, _list(taints)) if t is not None),
        capacity=_extended(capacity),
        allocatable=_extended(allocatable),
        ready=ready,
        unschedulable=bool(unschedulable),
        not_ready_reason=reason,
        health=_health(conditions),
    )


def mapping_of(value: object) -> Mapping[str, Any]:
    """``value`` when it is a mapping (a JSON object), else an empty one."""
    return cast("Mapping[str, Any]", value) if isinstance(value, Mapping) else {}


def _labels(raw: object) -> dict[str, str]:
    labels = dict(mapping_of(raw))
    if all(type(v) is str for v in labels.values()):  # always so from the API server; skip the copy
        return labels
    return {str(k): str(v) for k, v in labels.items()}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _taint(raw: object) -> Taint | None:
    item = mapping_of(raw)
    key, effect = item.get("key"), item.get("effect")
    if not isinstance(key, str) or effect not in TAINT_EFFECTS:
        return None
    return Taint(key=key, value=str(item.get("value") or ""), effect=cast("TaintEffect", effect))


def _extended(raw: object) -> dict[str, int]:
    resources: dict[str, int] = {}
    for name, quantity in mapping_of(raw).items():
        if "/" in name:  # cpu, memory, pods... are not extended resources
            count = whole_count(quantity)
            if count is not None:
                resources[name] = count
    return resources


def _readiness(conditions: object) -> tuple[bool, str]:
    for condition in _list(conditions):
        item = mapping_of(condition)
        if item.get("type") == "Ready":
            if item.get("status") == "True":
                return True, ""
            reason = str(item.get("reason") or f"Ready={item.get('status')}")
            message = str(item.get("message") or "")
            return False, f"{reason}: {message}" if message else reason
    return False, "no Ready condition reported yet"


def _health(conditions: object) -> tuple[ReportedCondition, ...]:
    found: list[ReportedCondition] = []
    for condition in _list(conditions):
        item = mapping_of(condition)
        kind = item.get("type")
        if isinstance(kind, str) and kind in HEALTH_CONDITIONS:
            found.append(ReportedCondition(
                kind, str(item.get("status") or ""), str(item.get("reason") or ""), str(item.get("message") or "")
            ))  # fmt: skip
    return tuple(found)
