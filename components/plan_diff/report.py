"""How ``gpuready diff`` prints a ``PlanDiff``: a table for people, JSON for CI. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from components.plan_diff.diff import ChangeAction, PlanDiff

ACTIONS: tuple[ChangeAction, ...] = ("create", "update", "replace", "delete")


def to_json(diff: PlanDiff, *, allowed: bool) -> dict[str, Any]:
    """``{"changes": [...], "gpuCapacityAtRisk": [...], "deleteOrder": [...], "summary": {...}}``."""
    return {
        "changes": [
            {"type": c.type, "name": c.name, "urn": c.urn, "action": c.action, "fields": list(c.fields)}
            | ({"note": c.note} if c.note else {})
            for c in diff.changes
        ],
        "gpuCapacityAtRisk": [
            {
                "pool": r.pool,
                "type": r.type,
                "urn": r.urn,
                "action": r.action,
                "accelerator": r.accelerator,
                "maxGpusBefore": r.gpus_before,
                "maxGpusAfter": r.gpus_after,
                "meanwhile": r.meanwhile,
            }
            for r in diff.at_risk
        ],
        "deleteOrder": list(diff.delete_order),
        "summary": {action: diff.count(action) for action in ACTIONS} | {"gpuPoolsAtRisk": len(diff.at_risk)},
        "allowReplace": allowed,
    }


def to_text(diff: PlanDiff, *, allowed: bool) -> str:
    counts = ", ".join(f"{diff.count(a)} to {a}" for a in ACTIONS)
    lines = [f"gpuready diff: {counts}"]
    if diff.changes:
        rows = [(c.action, c.type, c.name, ", ".join(c.fields)) for c in diff.changes]
        lines += ["", *_table(("ACTION", "TYPE", "NAME", "FIELDS"), rows)]
        notes = [f"  {c.name}: {c.note}" for c in diff.changes if c.note]
        if notes:
            lines += ["", "replacements:", *notes]
    if diff.at_risk:
        risks = [
            (r.pool, r.action, r.accelerator or "?", _gpus(r.gpus_before), _gpus(r.gpus_after), r.meanwhile)
            for r in diff.at_risk
        ]
        header = ("POOL", "ACTION", "GPU", "MAX GPUS BEFORE", "AFTER", "MEANWHILE")
        lines += ["", "GPU capacity at risk:", *_table(header, risks)]
    if diff.delete_order:
        lines += ["", "delete order (dependents first):", *(f"  {urn}" for urn in diff.delete_order)]
    if diff.at_risk:
        lines += [
            "",
            "GPU pools would be replaced or deleted (accepted with --allow-replace)"
            if allowed
            else "exit 1: GPU pools would be replaced or deleted; pass --allow-replace to accept",
        ]
    return "\n".join(lines)


def _gpus(value: int | None) -> str:
    return "?" if value is None else str(value)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in (header, *rows)]
