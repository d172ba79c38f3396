"""Watches: newline-delimited {type, object} events, filtered by a label selector, from a resourceVersion."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from . import errors
from .errors import StatusError
from .params import Query, first, int_param, label_selector
from .resources import Obj, Target
from .selectors import LabelSelector
from .store import Event, Store

DEFAULT_WATCH_SECONDS = 1800.0


@dataclass
class WatchPlan:
    """Everything decided before the 200 goes out (so bad parameters can still get a Status response)."""

    target: Target
    labels: LabelSelector
    after: int
    initial: list[Obj]
    deadline: float


def plan_watch(store: Store, target: Target, query: Query) -> WatchPlan:
    labels = label_selector(query)
    timeout = int_param(query, "timeoutSeconds")
    deadline = time.monotonic() + float(timeout or DEFAULT_WATCH_SECONDS)  # 0 means the default, as upstream
    raw_rv = first(query, "resourceVersion") or ""
    initial: list[Obj] = []
    if raw_rv in ("", "0"):
        # Start from a consistent list: ADDED for what exists now, then changes after that list's resourceVersion.
        page = store.page(target.rt, target.namespace, labels)
        after, initial = int(page.resource_version), page.items
    else:
        try:
            after = int(raw_rv)
        except ValueError as exc:
            raise errors.bad_request(f'invalid resource version "{raw_rv}"') from exc
    return WatchPlan(target, labels, after, initial, deadline)


def stream_events(plan: WatchPlan, store: Store, write: Callable[[bytes], object]) -> None:
    """Write events as HTTP chunks until the deadline or until the store closes; then the last chunk."""

    def emit(kind: str, obj: Obj) -> None:
        line = json.dumps({"type": kind, "object": obj}, separators=(",", ":")).encode() + b"\n"
        write(b"%x\r\n%s\r\n" % (len(line), line))

    for obj in plan.initial:
        emit("ADDED", obj)
    after, deadline = plan.after, plan.deadline
    try:
        store.check_watch_start(after)
    except StatusError as exc:  # a real apiserver also answers 200 and then an ERROR event with 410
        emit("ERROR", exc.status())
        deadline = 0.0
    while (remaining := deadline - time.monotonic()) > 0:
        try:
            events = store.wait_events(after, remaining)
        except StatusError as exc:  # fell behind the kept history mid-stream: 410 in-band, then end
            emit("ERROR", exc.status())
            break
        if events is None:
            break
        for event in events:
            after = max(after, event.rv)
            shown = visible(event, plan.target, plan.labels)
            if shown is not None:
                emit(shown, event.obj)
    write(b"0\r\n\r\n")


def visible(event: Event, target: Target, labels: LabelSelector) -> str | None:
    """The event type a selector-filtered watch shows: objects entering the selection are ADDED,
    objects leaving it are DELETED, as on a real apiserver; None when the watch does not see it."""
    if event.rt != target.rt:
        return None
    if target.namespace and event.obj["metadata"].get("namespace") != target.namespace:
        return None

    def match(obj: Obj | None) -> bool:
        return obj is not None and labels.matches(obj["metadata"].get("labels"))

    now, before = match(event.obj), match(event.old)
    if event.type == "ADDED":
        return "ADDED" if now else None
    if event.type == "DELETED":
        return "DELETED" if before or now else None
    if now and before:
        return "MODIFIED"
    if now:
        return "ADDED"
    return "DELETED" if before else None
