"""Health seen over a watch: a node whose GPU health reported a problem earlier in this ``verify`` and now reads
healthy has flapped, and stays failed for the rest of the watch. Pure.

A health condition that flaps (an XID storm clearing and coming back, an InfiniBand link going down and up) would
otherwise let ``verify`` declare a pool converged in the moment between two failures.
"""

from __future__ import annotations

from dataclasses import replace

from gpuready.record import record
from gpuready.verify import findings as f
from gpuready.verify.audit import NodeResult
from gpuready.verify.findings import Finding, show_node

_BROKEN = frozenset({f.GPU_UNHEALTHY, f.NODE_UNHEALTHY, f.GPU_DEVICES_UNHEALTHY, f.DRIVER_UPGRADE_FAILED})


@record(slots=True)
class _Seen:
    problem: str
    """The last problem's message."""
    times: int
    """How many times the node turned unhealthy during the watch."""
    healthy: bool = False


class HealthMemory:
    """Per node: whether its GPU health reported a problem during this watch, and how often it turned bad."""

    def __init__(self) -> None:
        self._seen: dict[str, _Seen] = {}

    def observe(self, result: NodeResult) -> NodeResult:
        """``result`` as checked now, with a ``gpu-health-flapped`` finding when it reads healthy after a problem
        seen earlier in the watch."""
        name = result.view.name
        broken = [x for x in result.findings if x.code in _BROKEN and x.severity == "error"]
        seen = self._seen.get(name)
        if broken:
            if seen is None:
                self._seen[name] = _Seen(broken[0].message, 1)
            else:
                seen.times += seen.healthy
                seen.problem, seen.healthy = broken[0].message, False
            return result
        if seen is None:
            return result
        seen.healthy = True
        return replace(result, findings=(*result.findings, _flapped(name, seen)))

    def forget(self, name: str) -> None:
        """The node is gone (deleted, or replaced by auto repair under another name)."""
        self._seen.pop(name, None)


def _flapped(node: str, seen: _Seen) -> Finding:
    turns = "once" if seen.times == 1 else f"{seen.times} times"
    return Finding(
        node=node, severity="error", code=f.GPU_HEALTH_FLAPPED,
        message=f"GPU health: reported a problem during this verify ({turns}) and reads healthy now; last: "
        f"{seen.problem}",
        cause="a health condition that clears and comes back (repeated XIDs, a flapping NVLink or InfiniBand link, "
        "a device plugin re-registering) means the hardware is failing intermittently; the node is not healthy",
        fix=f"read the node's events and the reporter's log, then repair it: kubectl describe node {node}",
        reproduce=show_node(node, "{.status.conditions}"),
    )  # fmt: skip
