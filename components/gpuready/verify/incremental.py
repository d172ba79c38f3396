"""The audit kept up to date one node at a time, for watching: O(1) work per changed node. Pure: no I/O.

``audit`` checks every node each time it runs; a watch delivers one node per event, so re-auditing all of
them after each event costs O(nodes) per event and O(nodes^2) for a burst that relabels a whole pool (a GPU
Operator rollout does exactly that). ``AuditState`` keeps each GPU node's ``NodeResult``, how many nodes
have not converged, and how many nodes each stack pool has; a change re-checks only the node it names and
adjusts those counts. ``report()`` builds the same ``AuditReport`` as ``audit`` over the current nodes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from gpuready.core.conventions import DEFAULT as DEFAULT_CONVENTIONS
from gpuready.core.conventions import Conventions
from gpuready.verify.audit import (
    AuditReport,
    NodeResult,
    counted_pool,
    elastic_pool_nodes,
    missing_nodes,
    node_result,
    pool_shortfalls,
)
from gpuready.verify.expectations import Expectation
from gpuready.verify.health_watch import HealthMemory
from gpuready.verify.nodes import DecodedNode, NodeView, mapping_of, node_view


class AuditState:
    """Per-node results and per-pool counts under the pools' expectations, updated by ``put`` and ``remove``."""

    def __init__(
        self, expectations_by_pool: Mapping[str, Expectation], conventions: Conventions = DEFAULT_CONVENTIONS
    ) -> None:
        self._expectations = dict(expectations_by_pool)
        self._conventions = conventions
        self._results: dict[str, NodeResult] = {}
        """GPU nodes by name."""
        self._pool_of: dict[str, str] = {}
        """GPU node name -> the stack pool it counts towards."""
        self._other: set[str] = set()
        self._per_pool: Counter[str] = Counter()
        self._unconverged = 0
        self._missing = missing_nodes(self._per_pool, self._expectations)
        self._short_pools = sum(1 for e in self._expectations.values() if e.expected_nodes > 0)
        self.health = HealthMemory()
        """GPU health problems seen during the watch (a node that recovers from one has flapped)."""

    # ---------------------------------------------------------------- changes

    def put(self, view: NodeView) -> None:
        """A node appeared or changed: re-check it alone."""
        self.remove(view.name)
        result = node_result(view, self._expectations, self._conventions)
        if result is None:
            self._other.add(view.name)
            return
        result = self.health.observe(result)
        self._results[view.name] = result
        self._unconverged += not result.converged
        pool = counted_pool(result, self._expectations)
        if pool is not None:
            self._pool_of[view.name] = pool
            self._count(pool, +1)

    def remove(self, name: str) -> None:
        """A node is gone (a no-op for a node never seen)."""
        self._other.discard(name)
        result = self._results.pop(name, None)
        if result is None:
            return
        self._unconverged -= not result.converged
        pool = self._pool_of.pop(name, None)
        if pool is not None:
            self._count(pool, -1)

    def clear(self) -> None:
        """Forget every node (before a fresh LIST)."""
        for name in [*self._results, *self._other]:
            self.remove(name)

    def _count(self, pool: str, step: int) -> None:
        expected = self._expectations[pool].expected_nodes
        before = self._per_pool[pool]
        after = before + step
        self._per_pool[pool] = after
        self._missing += max(0, expected - after) - max(0, expected - before)
        self._short_pools += (after < expected) - (before < expected)

    # ---------------------------------------------------------------- the summary, without re-checking

    @property
    def gpu_nodes(self) -> int:
        return len(self._results)

    @property
    def converged(self) -> int:
        """GPU nodes without error findings."""
        return len(self._results) - self._unconverged

    @property
    def expected(self) -> int:
        """GPU nodes seen plus those the pools still miss."""
        return len(self._results) + self._missing

    @property
    def done(self) -> bool:
        """Every expected node is present and converged (``AuditReport.done``)."""
        return self._unconverged == 0 and self._short_pools == 0

    def pool_progress(self) -> list[tuple[str, int, int]]:
        """(pool, converged nodes, expected nodes) per stack pool, in name order: what a waiting line shows."""
        converged: Counter[str] = Counter(pool for name, pool in self._pool_of.items() if self._results[name].converged)
        return [
            (pool, converged[pool], max(expectation.expected_nodes, self._per_pool[pool]))
            for pool, expectation in sorted(self._expectations.items())
        ]

    def report(self) -> AuditReport:
        """The full report over the current nodes, as ``audit`` would build it."""
        results = tuple(self._results[name] for name in sorted(self._results))
        findings = tuple(pool_shortfalls(self._per_pool, self._expectations))
        elastic = elastic_pool_nodes(self._per_pool, self._expectations)
        return AuditReport(results, len(self._other), findings, self._missing, elastic)


class WatchedAudit:
    """An ``AuditState`` fed with the nodes of a LIST (compact records, ``DecodedNode``, or raw JSON objects) and
    then with those of watch events.

    A node whose ``resourceVersion`` did not change since it was last seen (a LIST after a 410, a repeated
    event) is not checked again.
    """

    def __init__(
        self, expectations_by_pool: Mapping[str, Expectation], conventions: Conventions = DEFAULT_CONVENTIONS
    ) -> None:
        self.state = AuditState(expectations_by_pool, conventions)
        self._versions: dict[str, str] = {}

    def reset(self, nodes: Mapping[str, Mapping[str, Any] | DecodedNode]) -> AuditState:
        """The nodes of a fresh LIST, by name: drop those gone, re-check those changed."""
        for gone in [name for name in self._versions if name not in nodes]:
            self.apply(gone, None)
        for name, raw in nodes.items():
            self.apply(name, raw)
        return self.state

    def apply(self, name: str, raw: Mapping[str, Any] | DecodedNode | None) -> AuditState:
        """One watch event: the node as it now is, or None when it was deleted."""
        if raw is None:
            self._versions.pop(name, None)
            self.state.remove(name)
            self.state.health.forget(name)
            return self.state
        if isinstance(raw, Mapping):
            version = str(mapping_of(raw.get("metadata")).get("resourceVersion", ""))
        else:
            version = raw.resource_version
        if version and self._versions.get(name) == version:
            return self.state
        self._versions[name] = version
        self.state.put(node_view(raw) if isinstance(raw, Mapping) else raw.view())
        return self.state
