"""Wait for nodes to converge: LIST once, then WATCH from the list's resourceVersion. No polling.

After each event the caller's ``evaluate`` sees every matching node (raw dicts by name) and returns a state;
waiting ends when ``done(state)`` or when the deadline passes (the watch's ``timeoutSeconds`` is the time
left, so the server closes the stream at the deadline). One ``Deadline`` bounds it all: the client's requests,
their retries and ``Retry-After`` waits, and the waits between watches.

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
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from components.kube.deadline import Deadline
from components.kube.errors import DeadlineError, ExpiredError, KubeError, KubeUnreachableError
from components.kube.nodes_api import NodeClient
from components.kube.retry import RetryPolicy

State = TypeVar("State")
Nodes = Mapping[str, Mapping[str, Any]]

RELIST_BACKOFF = RetryPolicy(base=0.5, cap=8.0)
"""Backoff between LIST/WATCH rounds after a failure: 0.25-0.5 s, then doubling up to 4-8 s (equal jitter)."""
MAX_REQUESTS_PER_MINUTE = 30
"""LISTs plus WATCHes opened in any 60 s, whatever the server answers (the client's own retries come on top)."""


@dataclass(frozen=True, slots=True)
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
    """Watch the nodes matching ``selector`` until ``done`` holds or ``timeout`` seconds (or the given deadline) pass.

    ``on_retry`` hears each failed round: what failed, the wait before the next one and the time left."""
    start = clock()
    deadline = timeout if isinstance(timeout, Deadline) else Deadline(timeout, clock)
    client.deadline = deadline
    pacer = _Pacer(client.policy.sleep, deadline, clock, on_retry)
    state = evaluate({})  # the findings so far, should the first LIST never succeed
    nodes: dict[str, Mapping[str, Any]] | None = None
    version = ""
    problem = ""
    listed = False
    while not (nodes is not None and done(state)) and not deadline.expired:
        try:
            if nodes is None:
                pacer.request()
                nodes, version = _relist(client, selector)
                listed = True
                state = _report(evaluate, nodes, on_change)
                problem = ""
                continue
            pacer.request()
            events, version, state = _watch(
                client, selector, version, nodes=nodes, state=state, callbacks=(evaluate, done, on_change)
            )
        except ExpiredError as error:
            nodes, problem = None, str(error)
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
    converged = nodes is not None and done(state)
    return Outcome(state, converged, clock() - start, "" if converged else problem)


def _watch(
    client: NodeClient,
    selector: str,
    version: str,
    *,
    nodes: dict[str, Mapping[str, Any]],
    state: State,
    callbacks: tuple[Callable[[Nodes], State], Callable[[State], bool], Callable[[State], None] | None],
) -> tuple[int, str, State]:
    """One watch stream: apply its events to ``nodes``; (events seen, last resourceVersion, last state)."""
    evaluate, done, on_change = callbacks
    deadline = client.deadline
    events = 0
    for event in client.watch_nodes(selector, version, deadline.remaining()):
        version = event.resource_version or version
        if event.type == "BOOKMARK":
            continue
        events += 1
        name = str(event.object.get("metadata", {}).get("name", ""))
        if event.type == "DELETED":
            nodes.pop(name, None)
        else:
            nodes[name] = event.object
        state = _report(evaluate, nodes, on_change)
        if done(state) or deadline.expired:
            break
    return events, version, state


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


def _relist(client: NodeClient, selector: str) -> tuple[dict[str, Mapping[str, Any]], str]:
    listing = client.list_nodes(selector)
    nodes: dict[str, Mapping[str, Any]] = {str(n.get("metadata", {}).get("name", "")): n for n in listing.items}
    return nodes, listing.resource_version


def _report(evaluate: Callable[[Nodes], State], nodes: Nodes, on_change: Callable[[State], None] | None) -> State:
    state = evaluate(nodes)
    if on_change is not None:
        on_change(state)
    return state
