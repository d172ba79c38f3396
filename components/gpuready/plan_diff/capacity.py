"""What a change does to each GPU pool's schedulable capacity, in the units workloads request. Pure.

A pool of gpuready's components is read from the plan's ``pools`` (its advertiser's units per node, its node
bounds, labels and model: ``gpuready.core.pool_capacity``); a GPU pool any other program plans is read from its
cloud resource (whole GPUs at its maximum, ``registry.GPU_POOL_TYPES``). Every loss is named in words a person acts
on: a GPU model that changes (pods selecting the old one stop scheduling), a resource name that goes (workloads
requesting it stop scheduling), a label that stops matching, fewer units at the pool's largest size, fewer warm.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

from gpuready.core.capacity.capacity_view import bound_to_reservation, capacity_text
from gpuready.core.node_names import GPU_RESOURCE
from gpuready.core.scheduling import LABEL_ACCELERATOR, LABEL_SKYPILOT_ACCELERATOR
from gpuready.plan_diff import registry
from gpuready.record import record

MODEL_LABELS = (LABEL_ACCELERATOR, LABEL_SKYPILOT_ACCELERATOR)
"""Labels whose value is the GPU model: a model change is said once, naming them."""


@record(frozen=True, slots=True)
class PoolView:
    """One GPU pool of a plan as the diff compares it."""

    name: str
    accelerator: str | None
    at_min: Mapping[str, int] | None
    """Units per resource name on the pool's warm nodes (None: not known, e.g. another program's pool)."""
    at_max: Mapping[str, int] | None
    """Units per resource name at the pool's largest size (None: no bound known)."""
    min_nodes: int | None = None
    max_nodes: int | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    fabric: Mapping[str, Any] | None = None
    """The pool's node fabric as the plan gives it (``kind``, ``devices``, ``placementGroup``), None without one."""
    capacity: Mapping[str, Any] | None = None
    """How the pool gets capacity (the plan's ``capacity``: ``core.capacity.capacity_view``), None when unknown."""


@record(frozen=True, slots=True)
class CapacityChange:
    """A pool whose capacity differs between the plans, and the losses a person must act on."""

    pool: str
    before: PoolView | None
    after: PoolView | None
    losses: tuple[str, ...]


def pool_views(document: Mapping[str, Any], pool_of: Mapping[str, str], which: str) -> dict[str, PoolView]:
    """Pool name -> view: gpuready's pools from ``pools``, other programs' GPU pools from their cloud resources
    (``pool_of``: URN -> the pool name the resource belongs to)."""
    views: dict[str, PoolView] = {}
    for pool in document.get("pools") or ():
        per_node = pool.get("schedulablePerNode")
        views[pool["name"]] = PoolView(
            name=pool["name"],
            accelerator=pool.get("accelerator"),
            at_min=pool.get("schedulableAtMinSize") if per_node is not None else None,
            at_max=pool.get("schedulableAtMaxSize") if per_node is not None else None,
            min_nodes=pool.get("minNodes"),
            max_nodes=pool.get("maxNodes"),
            labels=pool.get("nodeLabels") or {},
            fabric=pool.get("fabric") or None,
            capacity=pool.get("capacity"),
        )
    for resource in document["resources"]:
        name = pool_of[resource["urn"]]
        if name in views:
            continue
        capacity = registry.read_capacity(resource, which)
        if capacity is None:
            continue
        gpus = capacity.max_gpus
        views[name] = PoolView(
            name=name,
            accelerator=capacity.accelerator,
            at_min=None,
            at_max=None if gpus is None else {GPU_RESOURCE: gpus},
            max_nodes=capacity.max_nodes,
            labels={LABEL_ACCELERATOR: capacity.accelerator} if capacity.accelerator else {},
        )
    return views


def compare(before: Mapping[str, PoolView], after: Mapping[str, PoolView]) -> list[CapacityChange]:
    """Every pool whose view changed, with its losses (none for a pure gain), sorted by pool name."""
    changes: list[CapacityChange] = []
    for name in sorted(before.keys() | after.keys()):
        was, now = before.get(name), after.get(name)
        if was == now:
            continue
        losses = tuple(_losses(was, now)) if was is not None else ()
        changes.append(CapacityChange(name, was, now, losses))
    return changes


def _losses(was: PoolView, now: PoolView | None) -> list[str]:
    if now is None:
        return ["the pool is deleted: every GPU it holds goes, and pods scheduled on it are evicted"]
    found: list[str] = []
    model_keys: tuple[str, ...] = ()
    if was.accelerator != now.accelerator and was.accelerator is not None:
        model_keys = tuple(k for k in MODEL_LABELS if k in was.labels and was.labels[k] != now.labels.get(k))
        selecting = " or ".join(f"{k}={was.labels[k]}" for k in model_keys) or f"{LABEL_ACCELERATOR}={was.accelerator}"
        found.append(
            f"GPU model changes from {was.accelerator} to {now.accelerator}: pods that select {selecting} stop "
            f"scheduling on this pool; retarget them to {now.accelerator}, or keep a pool of {was.accelerator} for them"
        )
    gone = sorted(set(was.at_max or {}) - set(now.at_max or {})) if now.at_max is not None else []
    if gone:
        offered = ", ".join(sorted(now.at_max or {})) or "nothing"
        total = f"{sum((was.at_max or {}).values())} -> {sum((now.at_max or {}).values())} units at maxSize in all"
        found.append(
            f"resource name{'s' if len(gone) > 1 else ''} {', '.join(gone)} no longer offered (now {offered}; "
            f"{total}): workloads that request {'them' if len(gone) > 1 else 'it'} stop scheduling here; change "
            "their requests"
        )
    found += _label_losses(was.labels, now.labels, skip=model_keys)
    found += _unit_losses("at maxSize", was.at_max, now.at_max, gone)
    warm = _unit_losses("warm (at minSize)", was.at_min, now.at_min, gone)
    if warm and now.min_nodes == 0:
        warm = [
            f"no warm node any more (minSize {was.min_nodes} -> 0): {_units(was.at_min)} stop being ready ahead of "
            "demand, so the first pod waits for a GPU node to scale up (minutes)"
        ]
    found += warm
    return found + fabric_losses(was.fabric, now.fabric) + reservation_losses(was.capacity, now.capacity)


def reservation_losses(was: Mapping[str, Any] | None, now: Mapping[str, Any] | None) -> list[str]:
    """A pool that leaves its reservation, or moves to another: said with what its nodes launch as instead."""
    if not bound_to_reservation(was) or was is None:
        return []
    if not bound_to_reservation(now):
        after = capacity_text(now) if now else "on-demand"
        return [
            f"moves off its reservation ({capacity_text(was)}): new nodes launch as {after}, which large GPU types "
            "often cannot get (InsufficientInstanceCapacity); keep capacity and reservation unless the reservation "
            "has ended"
        ]
    if list(was.get("reservation") or ()) != list((now or {}).get("reservation") or ()):
        assert now is not None
        return [
            f"moves from reservation {','.join(was['reservation'])} to {','.join(now['reservation'])}: nodes in the "
            "old one are replaced as the pool rolls, and the new one must have room for them"
        ]
    return []


def fabric_losses(was: Mapping[str, Any] | None, now: Mapping[str, Any] | None) -> list[str]:
    """What a pool loses of its node fabric: the fabric itself, its kind, or its placement group."""
    if not was:
        return []
    kind = was.get("kind")
    if not now:
        return [
            f"the node fabric {kind} goes: NCCL collectives across the pool's nodes fall back to TCP sockets, an "
            "order of magnitude slower; keep fabric on the pool"
        ]
    if now.get("kind") != kind:
        return [f"the node fabric changes from {kind} to {now.get('kind')}: multi-node jobs must be set up anew"]
    group, after = was.get("placementGroup"), now.get("placementGroup")
    if group and not after:
        return [
            f"the placement group ({group}) is dropped: new nodes land anywhere in the zone, with longer and uneven "
            "latency between them"
        ]
    if group and after != group:
        return [
            f"the placement group changes ({group} -> {after}): nodes made from then on land in the new one, the "
            "running ones stay where they are until replaced, so a job spanning both sees uneven latency"
        ]
    return []


FABRIC_REPLACED = (
    "a fabric pool is replaced: its new nodes are made in a new node group with the fabric set up anew (a new "
    "placement group where gpuready makes it), and multi-node jobs running on the old nodes are drained with them"
)
"""The loss ``gpuready diff`` names when a pool with a node fabric is replaced."""


def replacing_reserved(was: PoolView | None) -> str:
    """What a replacement means for a pool bound to a reservation ("" when it is not)."""
    if was is None or not bound_to_reservation(was.capacity):
        return ""
    assert was.capacity is not None
    return (
        f"bound to a reservation ({capacity_text(was.capacity)}): the replacement is created while the old pool "
        "still holds the reserved nodes, so its nodes find the reservation full until the old ones are drained"
    )


def _label_losses(was: Mapping[str, str], now: Mapping[str, str], skip: Sequence[str]) -> list[str]:
    lost = [f"{k}={v}" for k, v in sorted(was.items()) if now.get(k) != v and k not in skip]
    if not lost:
        return []
    many = len(lost) > 1
    return [
        f"node label{'s' if many else ''} {', '.join(lost)} {'stop' if many else 'stops'} matching this pool's "
        f"nodes: pods selecting on {'them' if many else 'it'} stop scheduling here"
    ]


def _unit_losses(
    where: str, was: Mapping[str, int] | None, now: Mapping[str, int] | None, gone: Sequence[str]
) -> list[str]:
    if was is None or now is None:
        return []
    smaller = [f"{name} {units} -> {now.get(name, 0)}" for name, units in sorted(was.items())
               if now.get(name, 0) < units and name not in gone]  # fmt: skip
    if not smaller:
        return []
    return [f"fewer schedulable units {where}: {', '.join(smaller)}"]


def _units(units: Mapping[str, int] | None) -> str:
    return ", ".join(f"{name} {count}" for name, count in sorted((units or {}).items())) or "none"


def units_text(units: Mapping[str, int] | None) -> str:
    """``nvidia.com/gpu 8, nvidia.com/mig-1g.10gb 16``, ``-`` when unknown."""
    return "-" if units is None else _units(units)
