"""Healthy GPUs per pool, for ``gpuready check``. Pure.

A node's GPUs count as healthy unless its health says otherwise: none on a node that is not Ready, whose health
conditions report a problem, whose driver upgrade failed or is under way; those its device plugin withdrew on a node
with unhealthy devices. Nodes without a known GPU count add nothing to either number.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from gpuready.core.advertisers.registry import is_gpu_resource
from gpuready.record import record
from gpuready.verify import findings as f
from gpuready.verify.audit import AuditReport, NodeResult

_NODE_DOWN = frozenset(
    {f.GPU_UNHEALTHY, f.NODE_UNHEALTHY, f.GPU_HEALTH_FLAPPED, f.DRIVER_UPGRADE_FAILED, f.DRIVER_UPGRADE_ACTIVE}
)
"""Error findings that leave none of the node's GPUs usable."""
NO_POOL = "<none>"


@record(frozen=True, slots=True)
class PoolHealth:
    """One pool's GPUs and how many of them are healthy."""

    pool: str
    nodes: int
    gpus: int
    healthy_gpus: int
    broken_nodes: tuple[str, ...]
    """Nodes with at least one unhealthy GPU, by name."""

    def to_json(self) -> dict[str, Any]:
        return {"pool": self.pool, "nodes": self.nodes, "gpus": self.gpus, "healthyGpus": self.healthy_gpus,
                "brokenNodes": list(self.broken_nodes)}  # fmt: skip


def node_gpus(result: NodeResult) -> tuple[int, int]:
    """(GPUs, healthy GPUs) of one node."""
    view = result.view
    gpus = result.expectation.gpus_per_node or 0
    if not gpus:
        return 0, 0
    errors = {x.code for x in result.findings if x.severity == "error"}
    if not view.ready or errors & _NODE_DOWN:
        return gpus, 0
    if f.GPU_DEVICES_UNHEALTHY not in errors:
        return gpus, gpus
    withdrawn = 0.0
    for name, capacity in view.capacity.items():
        if is_gpu_resource(name) and capacity > view.allocatable.get(name, 0):
            units_per_gpu = max(1, capacity // gpus)
            withdrawn += (capacity - view.allocatable.get(name, 0)) / units_per_gpu
    return gpus, max(0, gpus - math.ceil(withdrawn))


def pool_health(results: Iterable[NodeResult]) -> tuple[PoolHealth, ...]:
    """Per pool (nodes of no pool together under ``<none>``), by pool name."""
    totals: dict[str, tuple[int, int, int, list[str]]] = {}
    for result in results:
        pool = result.pool or NO_POOL
        nodes, gpus, healthy, broken = totals.get(pool, (0, 0, 0, []))
        have, good = node_gpus(result)
        if good < have:
            broken.append(result.view.name)
        totals[pool] = (nodes + 1, gpus + have, healthy + good, broken)
    return tuple(
        PoolHealth(pool, nodes, gpus, healthy, tuple(sorted(broken)))
        for pool, (nodes, gpus, healthy, broken) in sorted(totals.items())
    )


def health_text(report: AuditReport) -> str:
    """``GPU health by pool`` with one line per pool."""
    lines = ["GPU health by pool:"]
    for item in pool_health(report.results):
        broken = f"; GPUs not usable on {', '.join(item.broken_nodes)}" if item.broken_nodes else ""
        lines.append(f"  {item.pool}: {item.healthy_gpus}/{item.gpus} GPUs healthy on {item.nodes} "
                     f"node{'' if item.nodes == 1 else 's'}{broken}")  # fmt: skip
    return "\n".join(lines)
