"""How ``gpuready diff`` prints a ``PlanDiff``: a table for people, JSON for CI. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpuready.plan_diff.capacity import PoolView
from gpuready.plan_diff.diff import ChangeAction, PlanDiff

ACTIONS: tuple[ChangeAction, ...] = ("create", "update", "replace", "delete")
ACCEPT_FLAG = "--allow-capacity-loss"


def _view(view: PoolView | None) -> dict[str, Any] | None:
    if view is None:
        return None
    return {
        "accelerator": view.accelerator,
        "minNodes": view.min_nodes,
        "maxNodes": view.max_nodes,
        "atMinSize": None if view.at_min is None else dict(view.at_min),
        "atMaxSize": None if view.at_max is None else dict(view.at_max),
    }


def to_json(diff: PlanDiff, *, allowed: bool, warnings: Sequence[str] = ()) -> dict[str, Any]:
    """``{"changes", "gpuCapacity", "gpuCapacityAtRisk", "deleteOrder", "summary", "allowReplace", "warnings"}``."""
    return {
        "changes": [
            {"type": c.type, "name": c.name, "urn": c.urn, "action": c.action, "fields": list(c.fields)}
            | ({"note": c.note} if c.note else {})
            for c in diff.changes
        ],
        "gpuCapacity": [
            {"pool": c.pool, "before": _view(c.before), "after": _view(c.after), "losses": list(c.losses)}
            for c in diff.capacity
        ],
        "gpuCapacityAtRisk": [
            {
                "pool": r.pool,
                "type": r.type,
                "urn": r.urn,
                "action": r.action,
                "accelerator": r.accelerator,
                "acceleratorAfter": r.accelerator_after,
                "maxGpusBefore": r.gpus_before,
                "maxGpusAfter": r.gpus_after,
                "before": _view(r.before),
                "after": _view(r.after),
                "losses": list(r.losses),
                "meanwhile": r.meanwhile,
            }
            for r in diff.at_risk
        ],
        "deleteOrder": list(diff.delete_order),
        "summary": {action: diff.count(action) for action in ACTIONS} | {"gpuPoolsAtRisk": len(diff.at_risk)},
        "allowReplace": allowed,
        "warnings": list(warnings),
    }


def to_text(
    diff: PlanDiff, *, allowed: bool, warnings: Sequence[str] = (), wide: bool = False, headers: bool = True
) -> str:
    """The diff for people: the changes, the GPU capacity before -> after, what is at risk. ``wide`` (``-o wide``)
    adds each change's URN, each pool's node counts and its largest GPU count; ``headers=False`` (``--no-headers``)
    drops the tables' header rows."""
    counts = ", ".join(f"{diff.count(a)} to {a}" for a in ACTIONS)
    lines = [*(f"warning: {w}" for w in warnings), f"gpuready diff: {counts}"]
    if diff.changes:
        rows: list[tuple[str, ...]] = [
            (c.action, c.type, c.name, ", ".join(c.fields) or ("-" if wide else "")) + ((c.urn,) if wide else ())
            for c in diff.changes
        ]
        header: tuple[str, ...] = ("ACTION", "TYPE", "NAME", "FIELDS") + (("URN",) if wide else ())
        lines += ["", *_table(header, rows, headers)]
        for action, title in (("replace", "replacements:"), ("update", "updates in place:")):
            notes = [f"  {c.name}: {c.note}" for c in diff.changes if c.note and c.action == action]
            if notes:
                lines += ["", title, *notes]
    if diff.capacity:
        rows = [
            row + ((_nodes(c.before, c.after),) if wide else ())
            for c in diff.capacity
            for row in _capacity_rows(c.pool, c.before, c.after)
        ]
        header = ("POOL", "GPU", "RESOURCE", "WARM (minSize)", "AT maxSize") + (("NODES",) if wide else ())
        lines += ["", "GPU capacity, in the units workloads request (before -> after):", *_table(header, rows, headers)]
    if diff.at_risk:
        risks = [
            (r.pool, r.action, _model(r.accelerator, r.accelerator_after), r.meanwhile)
            + ((_gpus(r.gpus_before, r.gpus_after),) if wide else ())
            for r in diff.at_risk
        ]
        header = ("POOL", "ACTION", "GPU", "MEANWHILE") + (("MAX GPUS",) if wide else ())
        lines += ["", "GPU capacity at risk:", *_table(header, risks, headers)]
        for r in diff.at_risk:
            lines += [f"  {r.pool}: {loss}" for loss in r.losses]
    if diff.delete_order:
        lines += ["", "delete order (dependents first):", *(f"  {urn}" for urn in diff.delete_order)]
    if diff.at_risk:
        lines += [
            "",
            "GPU capacity at risk (accepted with --allow-capacity-loss)"
            if allowed
            else f"exit 1: GPU capacity at risk; pass {ACCEPT_FLAG} (or --allow-replace) to accept",
        ]
    return "\n".join(lines)


def _capacity_rows(pool: str, was: PoolView | None, now: PoolView | None) -> list[tuple[str, ...]]:
    """One row per resource name the pool offers before or after."""
    names = sorted(set(_units(was, "at_max")) | set(_units(now, "at_max")) | set(_units(was, "at_min")))
    model = (
        _model(was.accelerator if was else None, now.accelerator if now else None)
        if was
        else (now.accelerator or "?" if now else "?")
    )
    return [
        (pool, model, name, _arrow(was, now, "at_min", name), _arrow(was, now, "at_max", name)) for name in names
    ] or [(pool, model, "-", "-", "-")]


def _units(view: PoolView | None, side: str) -> dict[str, int]:
    units = getattr(view, side) if view is not None else None
    return dict(units or {})


def _arrow(was: PoolView | None, now: PoolView | None, side: str, name: str) -> str:
    def one(view: PoolView | None) -> str:
        if view is None:
            return "0"
        units = getattr(view, side)
        return "?" if units is None else str(units.get(name, 0))

    before, after = one(was), one(now)
    return before if before == after else f"{before} -> {after}"


def _model(before: str | None, after: str | None) -> str:
    if after is None or before == after:
        return before or "?"
    return f"{before or '?'} -> {after}"


def _nodes(was: PoolView | None, now: PoolView | None) -> str:
    """``min..max`` node counts, before -> after (``-o wide``)."""

    def one(view: PoolView | None) -> str:
        if view is None:
            return "0"
        return f"{_known(view.min_nodes)}..{_known(view.max_nodes)}"

    before, after = one(was), one(now)
    return before if before == after else f"{before} -> {after}"


def _gpus(before: int | None, after: int | None) -> str:
    """The pool's largest GPU count, before -> after (``-o wide``)."""
    return _known(before) if before == after else f"{_known(before)} -> {_known(after)}"


def _known(value: int | None) -> str:
    return "?" if value is None else str(value)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], headers: bool = True) -> list[str]:
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    shown = [header, *rows] if headers else list(rows)
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in shown]
