"""Compare two offline plans (``gpuready plan -o json``): what each resource's change does, what GPUs it risks. Pure.

Resources match by URN. A changed input is classified with the resource type's replacement table
(``registry.table_for``), after dropping what the new plan's ``ignoreChanges`` keeps and adding what its
``replaceOnChanges`` replaces, the way the engine decides. Pools of GPU nodes that are replaced or deleted are
reported with their maximum GPUs before and after, and with what happens to their GPUs meanwhile.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

from gpuready.core.lifecycle import PoolCapacity, ResourceTable
from gpuready.plan_diff import registry
from gpuready.plan_diff.capacity import (
    FABRIC_REPLACED,
    CapacityChange,
    PoolView,
    compare,
    pool_views,
    replacing_reserved,
)
from gpuready.plan_diff.plan_file import PlanFormatError
from gpuready.record import record

ChangeAction = Literal["create", "update", "replace", "delete"]
POOL_COMPONENT = "gpuready:index:"


@record(frozen=True, slots=True)
class Change:
    """One resource that differs between the plans."""

    type: str
    name: str
    urn: str
    action: ChangeAction
    fields: tuple[str, ...] = ()
    """Changed input paths (for update and replace), sorted."""
    note: str = ""


@record(frozen=True, slots=True)
class CapacityAtRisk:
    """A GPU pool that a change replaces or deletes, or leaves with less schedulable capacity."""

    pool: str
    type: str
    urn: str
    action: ChangeAction
    accelerator: str | None
    gpus_before: int | None
    gpus_after: int | None
    meanwhile: str
    """What happens to the pool's GPUs while the change runs."""
    accelerator_after: str | None = None
    before: PoolView | None = None
    after: PoolView | None = None
    losses: tuple[str, ...] = ()
    """Each loss in words a person acts on (model change, resource renamed, selector lost, fewer units)."""


@record(frozen=True, slots=True)
class PlanDiff:
    changes: tuple[Change, ...]
    at_risk: tuple[CapacityAtRisk, ...]
    delete_order: tuple[str, ...]
    """URNs of deleted resources in the order the engine deletes them: dependents and children first."""
    capacity: tuple[CapacityChange, ...] = ()
    """Every GPU pool whose schedulable capacity, model or labels differ, gains included."""

    def count(self, action: ChangeAction) -> int:
        return sum(1 for c in self.changes if c.action == action)


__all__ = ["CapacityAtRisk", "Change", "PlanDiff", "PlanFormatError", "changed_paths", "delete_order", "diff_plans"]


def diff_plans(old: Mapping[str, Any], new: Mapping[str, Any]) -> PlanDiff:
    """The changes from ``old`` to ``new`` (both ``gpuready plan -o json`` documents)."""
    before, after = _resources(old, "old"), _resources(new, "new")
    changes: list[Change] = []
    risks: dict[str, CapacityAtRisk] = {}
    for urn in sorted(before.keys() | after.keys()):
        was, now = before.get(urn), after.get(urn)
        if was is None and now is not None:
            changes.append(Change(now["type"], now["name"], urn, "create"))
        elif now is None and was is not None:
            changes.append(Change(was["type"], was["name"], urn, "delete"))
            risk = _risk(was, None, "delete", "")
            if risk is not None:
                risks.setdefault(risk.pool, risk)
        elif was is not None and now is not None:
            change = _compare(urn, was, now)
            if change is not None:
                changes.append(change)
                if change.action == "replace":
                    risk = _risk(was, now, "replace", change.note)
                    if risk is not None:
                        risks.setdefault(risk.pool, risk)
    views = (
        pool_views(old, {u: _pool_name(r) for u, r in before.items()}, "old"),
        pool_views(new, {u: _pool_name(r) for u, r in after.items()}, "new"),
    )
    capacity = compare(*views)
    for name, risk in list(risks.items()):
        reserved = replacing_reserved(views[0].get(name)) if risk.action == "replace" else ""
        if reserved:
            risks[name] = replace(risk, meanwhile=f"{risk.meanwhile}; {reserved}")
    for moved in capacity:
        risk = risks.get(moved.pool)
        if risk is None and not moved.losses:
            continue
        risks[moved.pool] = _with_losses(risk, moved, views[0].get(moved.pool), views[1].get(moved.pool))
    for name, risk in list(risks.items()):
        view = views[0].get(name)
        if risk.action == "replace" and view is not None and view.fabric:
            risks[name] = replace(risk, losses=(FABRIC_REPLACED, *risk.losses))
    deleted = {c.urn for c in changes if c.action == "delete"}
    at_risk = tuple(risks[name] for name in sorted(risks))
    return PlanDiff(tuple(changes), at_risk, delete_order(before, deleted), tuple(capacity))


def _with_losses(
    risk: CapacityAtRisk | None, change: CapacityChange, was: PoolView | None, now: PoolView | None
) -> CapacityAtRisk:
    """The pool's entry with what its capacity loses; an update's own entry when no replace or delete made one."""
    if risk is None:
        risk = CapacityAtRisk(
            pool=change.pool,
            type="",
            urn="",
            action="update" if now is not None else "delete",
            accelerator=was.accelerator if was else None,
            gpus_before=None,
            gpus_after=None,
            meanwhile="updated in place: the pool keeps serving, with less capacity once the update lands",
        )
    return replace(
        risk,
        accelerator_after=now.accelerator if now else None,
        before=was,
        after=now,
        losses=change.losses or risk.losses,
    )


def _resources(plan: Mapping[str, Any], which: str) -> dict[str, Mapping[str, Any]]:
    """URN -> resource of a plan (``plan_file.check_document`` checked its shape when it came from a file)."""
    resources = plan.get("resources") if isinstance(plan, Mapping) else None
    if not isinstance(resources, list):
        raise PlanFormatError(f"the {which} plan has no 'resources' list; make it with gpuready plan -o json")
    found: dict[str, Mapping[str, Any]] = {}
    for index, resource in enumerate(resources):
        if not isinstance(resource, Mapping) or not all(
            isinstance(resource.get(k), str) for k in ("urn", "type", "name")
        ):
            raise PlanFormatError(
                f"the {which} plan's resources[{index}] has no urn, type and name; make both plans with this "
                "gpuready version"
            )
        found[resource["urn"]] = resource
    return found


def _compare(urn: str, was: Mapping[str, Any], now: Mapping[str, Any]) -> Change | None:
    options = now.get("options") or {}
    ignored = tuple(options.get("ignoreChanges") or ())
    replacing = tuple(options.get("replaceOnChanges") or ())
    fields = sorted(
        path
        for path in changed_paths(was.get("inputs") or {}, now.get("inputs") or {})
        if not any(_covers(i, path) for i in ignored)
    )
    if not fields:
        return None
    table = registry.table_for(now["type"])
    replaced = any(table.action(f) == "replace" or any(_covers(r, f) for r in replacing) for f in fields)
    if not replaced:
        return Change(now["type"], now["name"], urn, "update", tuple(fields), table.update_note)
    return Change(now["type"], now["name"], urn, "replace", tuple(fields), _replace_note(table, fields, options))


def _replace_note(table: ResourceTable, fields: Sequence[str], options: Mapping[str, Any]) -> str:
    if options.get("deleteBeforeReplace") is True:
        return "deleted before its replacement is created"
    if not table.name_field:
        return ""
    if table.name_field not in fields:
        return "keeps its name, so the replacement cannot be created beside it: the update fails, nothing is deleted"
    return "the replacement is created first, under a new name"


def _risk(
    was: Mapping[str, Any], now: Mapping[str, Any] | None, action: ChangeAction, note: str
) -> CapacityAtRisk | None:
    if was["type"] not in registry.GPU_POOL_TYPES:
        return None
    old = registry.read_capacity(was, "old") or PoolCapacity(None, None, None)
    new = registry.read_capacity(now, "new") if now is not None else None
    if action == "delete":
        meanwhile = "every GPU of the pool is removed"
    elif note.startswith("deleted before"):
        meanwhile = "no GPUs from the pool until the replacement is ready"
    elif note.startswith("keeps its name"):
        meanwhile = "blocked: the old pool keeps serving; rename it or move workloads to a new pool"
    else:
        meanwhile = "the old pool serves until the new one is ready, then its nodes are drained and deleted"
    return CapacityAtRisk(
        pool=_pool_name(was),
        type=was["type"],
        urn=was["urn"],
        action=action,
        accelerator=old.accelerator,
        gpus_before=old.max_gpus,
        gpus_after=0 if new is None else new.max_gpus,
        meanwhile=meanwhile,
    )


def _pool_name(resource: Mapping[str, Any]) -> str:
    parent = str(resource.get("parent") or "")
    chain = parent.split("::")
    if len(chain) == 4 and chain[2].split("$")[-1].startswith(POOL_COMPONENT):
        return chain[3]
    return str(resource["name"])


def changed_paths(old: object, new: object, path: str = "") -> Iterator[str]:
    """Every leaf path where ``old`` and ``new`` differ (maps by key, lists of maps by index, other lists whole)."""
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        for key in sorted(old.keys() | new.keys(), key=str):
            child = f"{path}.{key}" if path else str(key)
            if key not in old or key not in new:
                yield child
            else:
                yield from changed_paths(old[key], new[key], child)
    elif _maps(old) and _maps(new) and len(old) == len(new):  # type: ignore[arg-type]
        for index, (a, b) in enumerate(zip(old, new, strict=True)):  # type: ignore[call-overload]
            yield from changed_paths(a, b, f"{path}[{index}]")
    elif old != new:
        yield path


def _maps(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _covers(option_path: str, field: str) -> bool:
    """Whether an ignoreChanges / replaceOnChanges path covers a changed field path (itself or a parent)."""
    return field == option_path or field.startswith((f"{option_path}.", f"{option_path}["))


def delete_order(resources: Mapping[str, Mapping[str, Any]], deleted: set[str]) -> tuple[str, ...]:
    """``deleted`` URNs ordered as the engine deletes them: a resource after everything that depends on it or is
    its child (``dependencies`` and ``parent`` of the old plan); ties by URN."""
    blockers: dict[str, set[str]] = {urn: set() for urn in deleted}
    for urn in deleted:
        resource = resources[urn]
        for needed in (*resource.get("dependencies", ()), resource.get("parent", "")):
            if needed in blockers and needed != urn:
                blockers[needed].add(urn)
    waiting = {urn: len(users) for urn, users in blockers.items()}
    users_of: dict[str, list[str]] = {urn: [] for urn in deleted}
    for needed, users in blockers.items():
        for user in users:
            users_of[user].append(needed)
    ready = [urn for urn, count in waiting.items() if count == 0]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        urn = heapq.heappop(ready)
        order.append(urn)
        for needed in users_of[urn]:
            waiting[needed] -= 1
            if waiting[needed] == 0:
                heapq.heappush(ready, needed)
    return tuple(order)
