"""Wait for nodes to converge: LIST once, then WATCH from the list's resourceVersion. No polling.

``follow_nodes`` hands the caller's tracker the listed nodes (``reset``, by name: raw dicts, or the compact
records of ``listed_as``) and then each watch event's node (``apply``, a dict; None when deleted), so a tracker
can do work in proportion to what changed; ``wait_for_nodes`` is the same for an ``evaluate`` that sees every
matching node each time. Waiting ends when ``done(state)`` or when the deadline passes (the watch's
``timeoutSeconds`` is the time left, so the server closes the stream at the deadline). One ``Deadline`` bounds it
all: the client's requests, their retries and ``Retry-After`` waits, and the waits between watches.

A broken server never gets more than a few requests a second from here:

* a watch that ends early is resumed from the last resourceVersion seen, after a backoff when it brought no news;
* a 410 Gone (over HTTP or as an in-band ``ERROR`` event) lists again, after a jittered exponential backoff;
* a transient failure (an in-band or HTTP 429/5xx, a malformed response, a dropped or refused connection after
  the client's own retries) is retried with the same backoff until the deadline;
* at most ``MAX_REQUESTS_PER_MINUTE`` LISTs and WATCHes are opened in any minute.

The backoff resets after a watch that brought events. Any other error (401/403, a bad selector, a kubeconfig
problem, a refused connection before the first LIST succeeded) ends the wait at once. When the deadline passes,
the outcome holds the last state (the findings so far) and ``problem`` says what was being retried.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, Generic, Protocol, TypeVar

from gpuready.kube.deadline import Deadline
from gpuready.kube.errors import DeadlineError, ExpiredError, KubeError, KubeUnreachableError
from gpuready.kube.node_resource import Node
from gpuready.kube.nodes_api import NodeClient
from gpuready.kube.retry import RetryPolicy
from gpuready.record import record

State = TypeVar("State")
State_co = TypeVar("State_co", covariant=True)
Nodes = Mapping[str, Mapping[str, Any]]

RELIST_BACKOFF = RetryPolicy(base=0.5, cap=8.0)
"""Backoff between LIST/WATCH rounds after a failure: 0.25-0.5 s, then doubling up to 4-8 s (equal jitter)."""
MAX_REQUESTS_PER_MINUTE = 30
"""LISTs plus WATCHes opened in any 60 s, whatever the server answers (the client's own retries come on top)."""


class NodeTracker(Protocol[State_co]):
    """What ``follow_nodes`` feeds: the nodes of each LIST, then one changed node per event."""

    def reset(self, nodes: Mapping[str, Any]) -> State_co: ...
    def apply(self, name: str, node: Mapping[str, Any] | None) -> State_co: ...


@record(frozen=True, slots=True)
class Outcome(Generic[State]):
    """How waiting ended."""

    state: State
    converged: bool
    waited: float
    """Seconds spent."""
    problem: str = ""
    """What was failing when the deadline passed (empty when the cluster answered normally)."""


def wait_for_nodes(
    client: NodeClient,
    selector: str,
    evaluate: Callable[[Nodes], State],
    done: Callable[[State], bool],
    *,
    timeout: float | Deadline,
    on_change: Callable[[State], None] | None = None,
    on_retry: Callable[[str], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Outcome[State]:
    """``follow_nodes`` with an ``evaluate`` that sees every matching node (raw dicts by name) each time."""
    return follow_nodes(
        client,
        selector,
        _EveryNode(evaluate),
        done,
        timeout=timeout,
        on_change=on_change,
        on_retry=on_retry,
        clock=clock,
    )


def follow_nodes(
    client: NodeClient,
    selector: str,
    tracker: NodeTracker[State],
    done: Callable[[State], bool],
    *,
    timeout: float | Deadline,
    on_change: Callable[[State], None] | None = None,
    on_retry: Callable[[str], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    listed_as: type[Any] = Node,
) -> Outcome[State]:
    """Watch the nodes matching ``selector``, feeding ``tracker``, until ``done`` holds or ``timeout`` seconds (or
    the given deadline) pass.

    ``on_retry`` hears each failed round: what failed, the wait before the next one and the time left.
    ``listed_as``: what a LIST decodes each node into (``NodeClient.list_nodes``): dicts, or a compact record such
    as ``node_record.NodeRecord`` (with a ``name``), so a LIST of many nodes never holds them all whole."""
    start = clock()
    deadline = timeout if isinstance(timeout, Deadline) else Deadline(timeout, clock)
    client.deadline = deadline
    pacer = _Pacer(client.policy.sleep, deadline, clock, on_retry)
    state = tracker.reset({})  # the findings so far, should the first LIST never succeed
    current = False
    """A LIST succeeded since the last 410: the tracker holds the nodes, the watch may resume from ``version``."""
    version = ""
    problem = ""
    listed = False
    while not (current and done(state)) and not deadline.expired:
        try:
            if not current:
                pacer.request()
                state, version = _relist(client, selector, tracker, on_change, listed_as)
                current = listed = True
                problem = ""
                continue
            pacer.request()
            events, version, state = _watch(
                client, selector, version, tracker=tracker, state=state, callbacks=(done, on_change)
            )
        except ExpiredError as error:
            current, problem = False, str(error)
            pacer.failed(f"{error}; listing again")
            continue
        except DeadlineError as error:
            problem = str(error) if error.last else problem or str(error)
            break
        except KubeError as error:
            if not error.transient or (not listed and isinstance(error, KubeUnreachableError) and error.refused):
                raise  # waiting cannot help; a server that refuses the very first LIST is the wrong address
            problem = str(error)
            pacer.failed(problem)
            continue
        problem = ""
        if events:
            pacer.succeeded()
        elif not done(state) and deadline.remaining() > 1:  # the stream ended early without news
            pacer.failed("")
    converged = current and done(state)
    return Outcome(state, converged, clock() - start, "" if converged else problem)


def _watch(
    client: NodeClient,
    selector: str,
    version: str,
    *,
    tracker: NodeTracker[State],
    state: State,
    callbacks: tuple[Callable[[State], bool], Callable[[State], None] | None],
) -> tuple[int, str, State]:
    """One watch stream: hand its events to ``tracker``; (events seen, last resourceVersion, last state)."""
    done, on_change = callbacks
    deadline = client.deadline
    events = 0
    for event in client.watch_nodes(selector, version, deadline.remaining()):
        version = event.resource_version or version
        if event.type == "BOOKMARK":
            continue
        events += 1
        name = str(event.object.get("metadata", {}).get("name", ""))
        node = None if event.type == "DELETED" else event.object
        state = _report(tracker.apply(name, node), on_change)
        if done(state) or deadline.expired:
            break
    return events, version, state


class _EveryNode(Generic[State]):
    """A tracker that keeps every node and evaluates them all after each change."""

    def __init__(self, evaluate: Callable[[Nodes], State]) -> None:
        self._evaluate = evaluate
        self._nodes: dict[str, Mapping[str, Any]] = {}

    def reset(self, nodes: Nodes) -> State:
        self._nodes = dict(nodes)
        return self._evaluate(self._nodes)

    def apply(self, name: str, node: Mapping[str, Any] | None) -> State:
        if node is None:
            self._nodes.pop(name, None)
        else:
            self._nodes[name] = node
        return self._evaluate(self._nodes)


class _Pacer:
    """Backoff after failed rounds and a per-minute bound on opened requests, all within the deadline."""

    def __init__(
        self,
        sleep: Callable[[float], None],
        deadline: Deadline,
        clock: Callable[[], float],
        on_retry: Callable[[str], None] | None,
    ) -> None:
        self._sleep = sleep
        self._deadline = deadline
        self._clock = clock
        self._on_retry = on_retry
        self._failures = 0
        self._opened: deque[float] = deque()

    def request(self) -> None:
        """Called before each LIST or WATCH: waits while the last minute already saw the maximum."""
        now = self._clock()
        while self._opened and now - self._opened[0] >= 60.0:
            self._opened.popleft()
        if len(self._opened) >= MAX_REQUESTS_PER_MINUTE:
            self._pause(self._opened[0] + 60.0 - now)
            if self._deadline.expired:
                raise DeadlineError(f"{self._deadline.describe()} passed", "")
        self._opened.append(self._clock())

    def failed(self, reason: str) -> None:
        """A round failed (or a watch ended without news): back off, jittered and doubling."""
        wait = RELIST_BACKOFF.delay(self._failures)
        self._failures += 1
        left = self._deadline.remaining()
        if reason and self._on_retry is not None:
            self._on_retry(f"{reason}; next try in {min(wait, left):.1f}s, {left:.0f}s left")
        self._pause(wait)

    def succeeded(self) -> None:
        self._failures = 0

    def _pause(self, seconds: float) -> None:
        seconds = min(seconds, self._deadline.remaining())
        if seconds > 0:
            self._sleep(seconds)


def _relist(
    client: NodeClient,
    selector: str,
    tracker: NodeTracker[State],
    on_change: Callable[[State], None] | None,
    listed_as: type[Any],
) -> tuple[State, str]:
    """LIST and hand the nodes to ``tracker``; the listed objects are not kept here (only the tracker decides)."""
    listing = client.list_nodes(selector, listed_as)
    if listed_as is Node:
        nodes: dict[str, Any] = {str(n.get("metadata", {}).get("name", "")): n for n in listing.items}
    else:
        nodes = {n.name: n for n in listing.items}
    return _report(tracker.reset(nodes), on_change), listing.resource_version


def _report(state: State, on_change: Callable[[State], None] | None) -> State:
    if on_change is not None:
        on_change(state)
    return state
