"""A pool's scale path, shape by shape: the answer ``gpuready plan`` shows (``SCALES``) and refuses on. Pure.

For each shape the pool advertises (``shapes``), the pool's autoscaler (``Provisioner.scale_decider``) and then the
scheduler (``scheduler_fit``) decide on the workload helper's pod; the pool scales when every shape makes nodes up
to the pool's bound (``maxSize``, or fewer nodes where the pool's ``gpuLimit`` says so) and lands on them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuready.core.scale_path import scheduler_fit
from gpuready.core.scale_path.model import DEFAULT_CLUSTER, ClusterFacts, Decision, Shape
from gpuready.core.scale_path.shapes import new_node, pending_pod, shapes
from gpuready.errors import Problem
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec


@record(frozen=True, kw_only=True, slots=True)
class ShapeVerdict:
    """One shape's answer: the autoscaler's, then the scheduler's."""

    shape: Shape
    autoscaler: Decision
    scheduler: Decision

    @property
    def failed(self) -> Decision | None:
        """The first refusal, None when a pod of the shape gets a node and runs on it."""
        if not self.autoscaler.ok:
            return self.autoscaler
        return None if self.scheduler.ok else self.scheduler


@record(frozen=True, kw_only=True, slots=True)
class PoolVerdict:
    """Every shape of one pool, and what the plan says of it."""

    pool: str
    decider: str
    min_nodes: int
    shapes: tuple[ShapeVerdict, ...]
    reserved: int | None = None
    """Nodes the pool's reservation holds (``reservation.nodes``), None when it draws on none or its size is not
    given: the autoscaler makes at most so many from the reservation."""
    fallback: str | None = None
    """What the pool launches beyond the reservation (``reservation.fallback``), None: nothing."""

    @property
    def scales(self) -> bool:
        return all(v.failed is None for v in self.shapes)

    @property
    def max_nodes(self) -> int:
        """The fewest nodes any shape scales to (0 when one does not)."""
        most = min((v.autoscaler.max_nodes or 0 for v in self.shapes), default=0) if self.scales else 0
        if self.reserved is not None and self.fallback is None:
            most = min(most, self.reserved)
        return most

    @property
    def text(self) -> str:
        """``yes 0->4 nodes`` or ``no: <shape>: <reason>`` (the plan's SCALES column)."""
        if self.scales:
            via = next((v.autoscaler.via for v in self.shapes if v.autoscaler.via), "")
            return f"yes {self.min_nodes}->{self.max_nodes} nodes" + (f" {via}" if via else "")
        verdict = next(v for v in self.shapes if v.failed is not None)
        failed = verdict.failed
        assert failed is not None
        return f"no: {verdict.shape.text}: {failed.reason}"

    def problems(self) -> list[Problem]:
        """One problem per shape that never becomes a running pod, at the pool key whose change fixes it."""
        found: list[Problem] = []
        for verdict in self.shapes:
            failed = verdict.failed
            if failed is None:
                continue
            problem = (
                f"a pending pod requesting {verdict.shape.text} never runs on this pool: {failed.reason} "
                f"({failed.cite})"
            )
            found.append(Problem(failed.key or "provisioner", problem, None, (), failed.fix))
        return found


_DECIDED: dict[tuple[int, ClusterFacts], tuple[GpuPoolSpec, PoolVerdict]] = {}
_DECIDED_LIMIT = 4096


def pool_verdict(spec: GpuPoolSpec, cluster: ClusterFacts = DEFAULT_CLUSTER) -> PoolVerdict:
    """The scale path of every shape ``spec``'s pool advertises, on a cluster as ``cluster`` declares it; decided
    once per spec object (the stack settings decide it, the pool's outputs show it)."""
    seen = _DECIDED.get((id(spec), cluster))
    if seen is not None and seen[0] is spec:
        return seen[1]
    verdict = _decide(spec, cluster)
    if len(_DECIDED) >= _DECIDED_LIMIT:
        _DECIDED.clear()
    _DECIDED[(id(spec), cluster)] = (spec, verdict)
    return verdict


def _decide(spec: GpuPoolSpec, cluster: ClusterFacts) -> PoolVerdict:
    decider = spec.resolved.provisioner.scale_decider
    node = new_node(spec, decider)
    verdicts = []
    for shape in shapes(spec):
        pod = pending_pod(spec, shape)
        verdicts.append(
            ShapeVerdict(
                shape=shape, autoscaler=decider.decide(spec, pod, node, cluster), scheduler=scheduler_fit.fit(pod, node)
            )
        )
    reservation = spec.reservation
    fallback = reservation.fallback if reservation is not None and reservation.fallback != "none" else None
    return PoolVerdict(
        pool=spec.name, decider=decider.title, min_nodes=spec.min_size, shapes=tuple(verdicts),
        reserved=reservation.nodes if reservation is not None else None, fallback=fallback,
    )  # fmt: skip


def scale_problems(spec: GpuPoolSpec, cluster: ClusterFacts = DEFAULT_CLUSTER) -> list[Problem]:
    """Why pending pods of some shape of the pool never run there (empty when every shape scales)."""
    return pool_verdict(spec, cluster).problems()
