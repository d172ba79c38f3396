"""Server-side printing of nodes: the meta.k8s.io/v1 Table that `kubectl get nodes` asks for (`Accept: ...;as=Table`).

Kept for the product test that reads gpuready's labels back through `kubectl get nodes -L` (tests/cli_audit).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from .resources import Obj, ResourceType

Column = tuple[str, str, int]  # name, type, priority
Cells = Callable[[Obj], list[Any]]


def wants_table(rt: ResourceType, accept: str | None) -> bool:
    """Only nodes print as a table; other kinds answer the plain object, which kubectl also prints."""
    return rt.plural in _PRINTERS and any("as=Table" in part.replace(" ", "") for part in (accept or "").split(","))


def human_duration(seconds: float) -> str:
    """k8s.io/apimachinery/pkg/util/duration.HumanDuration, which kubectl's AGE column uses."""
    s = int(seconds)
    if s < -1:
        return "<invalid>"
    if s < 0:
        return "0s"
    if s < 120:
        return f"{s}s"
    minutes = s // 60
    if minutes < 10:
        return f"{minutes}m" if s % 60 == 0 else f"{minutes}m{s % 60}s"
    if minutes < 180:
        return f"{minutes}m"
    hours = s // 3600
    if hours < 8:
        return f"{hours}h" if minutes % 60 == 0 else f"{hours}h{minutes % 60}m"
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        return f"{hours // 24}d" if hours % 24 == 0 else f"{hours // 24}d{hours % 24}h"
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    if hours < 24 * 365 * 8:
        days = (hours // 24) % 365
        return f"{hours // 24 // 365}y" if days == 0 else f"{hours // 24 // 365}y{days}d"
    return f"{hours // 24 // 365}y"


def _age(obj: Obj) -> str:
    stamp = obj.get("metadata", {}).get("creationTimestamp")
    if not stamp:
        return "<unknown>"
    created = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    return human_duration((datetime.now(UTC) - created).total_seconds())


def _get(obj: Any, *keys: str) -> Any:
    for key in keys:
        obj = obj.get(key) if isinstance(obj, dict) else None
    return obj


def _node_cells(node: Obj) -> list[Any]:
    ready = next((c for c in _get(node, "status", "conditions") or [] if c.get("type") == "Ready"), None)
    status = {"True": "Ready", "False": "NotReady"}.get(ready.get("status") if ready else "", "Unknown")
    if _get(node, "spec", "unschedulable"):
        status += ",SchedulingDisabled"
    labels = _get(node, "metadata", "labels") or {}
    roles = sorted(
        {k.split("/", 1)[1] for k in labels if k.startswith("node-role.kubernetes.io/") and k.split("/", 1)[1]}
        | ({labels["kubernetes.io/role"]} if labels.get("kubernetes.io/role") else set())
    )
    addresses = _get(node, "status", "addresses") or []

    def address(kind: str) -> str:
        return next((a.get("address", "") for a in addresses if a.get("type") == kind), "<none>")

    info = _get(node, "status", "nodeInfo") or {}
    return [
        node["metadata"]["name"],
        status,
        ",".join(roles) or "<none>",
        _age(node),
        info.get("kubeletVersion", ""),
        address("InternalIP"),
        address("ExternalIP"),
        info.get("osImage", "<unknown>"),
        info.get("kernelVersion", "<unknown>"),
        info.get("containerRuntimeVersion", "<unknown>"),
    ]


_PRINTERS: dict[str, tuple[list[Column], Cells]] = {
    "nodes": (
        [
            ("Name", "string", 0),
            ("Status", "string", 0),
            ("Roles", "string", 0),
            ("Age", "string", 0),
            ("Version", "string", 0),
            ("Internal-IP", "string", 1),
            ("External-IP", "string", 1),
            ("OS-Image", "string", 1),
            ("Kernel-Version", "string", 1),
            ("Container-Runtime", "string", 1),
        ],
        _node_cells,
    ),
}


def _row_object(obj: Obj, include: str) -> Obj | None:
    if include == "None":
        return None
    if include == "Object":
        return obj
    return {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": obj.get("metadata", {})}


def table(rt: ResourceType, objects: list[Obj], list_meta: Obj, include_object: str | None = None) -> Obj:
    columns, cells = _PRINTERS[rt.plural]
    include = include_object or "Metadata"
    rows: list[Obj] = []
    for obj in objects:
        row: Obj = {"cells": cells(obj)}
        embedded = _row_object(obj, include)
        if embedded is not None:
            row["object"] = embedded
        rows.append(row)
    return {
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": list_meta,
        "columnDefinitions": [
            {
                "name": name,
                "type": kind,
                "format": "name" if name == "Name" else "",
                "description": "",
                "priority": prio,
            }
            for name, kind, prio in columns
        ],
        "rows": rows,
    }
