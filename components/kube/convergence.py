"""Wait for nodes to converge: LIST once, then WATCH from the list's resourceVersion. No polling.

After each event the caller's ``evaluate`` sees every matching node (raw dicts by name) and returns a state;
waiting ends when ``done(state)`` or when the deadline passes (the watch's ``timeoutSeconds`` is the time
left, so the server closes the stream at the deadline). A watch that ends early is resumed from the last
resourceVersion seen; a 410 Gone lists again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from components.kube.errors import ExpiredError
from components.kube.nodes_api import NodeClient

State = TypeVar("State")
Nodes = Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True, slots=True)
class Outcome(Generic[State]):
    """How waiting ended."""

    state: State
    converged: bool
    waited: float
    """Seconds spent."""


def wait_for_nodes(
    client: NodeClient,
    selector: str,
    evaluate: Callable[[Nodes], State],
    done: Callable[[State], bool],
    *,
    timeout: float,
    on_change: Callable[[State], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Outcome[State]:
    """Watch the nodes matching ``selector`` until ``done`` holds or ``timeout`` seconds pass."""
    start = clock()
    deadline = start + timeout
    nodes, version = _relist(client, selector)
    state = _report(evaluate, nodes, on_change)
    quiet_ends = 0
    while not done(state) and (remaining := deadline - clock()) > 0:
        events = 0
        try:
            for event in client.watch_nodes(selector, version, remaining):
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
                if done(state) or clock() >= deadline:
                    break
        except ExpiredError:
            nodes, version = _relist(client, selector)
            state = _report(evaluate, nodes, on_change)
            continue
        quiet_ends = 0 if events else quiet_ends + 1
        if quiet_ends and deadline - clock() > 1:  # the stream ended early without news: back off a little
            client.policy.sleep(min(client.policy.delay(quiet_ends - 1), max(0.0, deadline - clock())))
    return Outcome(state, done(state), clock() - start)


def _relist(client: NodeClient, selector: str) -> tuple[dict[str, Mapping[str, Any]], str]:
    listing = client.list_nodes(selector)
    nodes: dict[str, Mapping[str, Any]] = {str(n.get("metadata", {}).get("name", "")): n for n in listing.items}
    return nodes, listing.resource_version


def _report(evaluate: Callable[[Nodes], State], nodes: Nodes, on_change: Callable[[State], None] | None) -> State:
    state = evaluate(nodes)
    if on_change is not None:
        on_change(state)
    return state
