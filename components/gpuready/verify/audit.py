"""Audit a cluster's GPU nodes: match each to its pool, check it, and count what has converged. Pure: no I/O.

Nodes are matched to pools by the ``gpuready.io/pool`` label; a GPU node of no known pool gets an inferred
expectation. Non-GPU nodes are only counted. A pool with fewer nodes than its provisioner's bounds expect (a sized
group's initial size; none for an elastic pool) gets a pool-level finding, so waiting for new nodes to join is part
of convergence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import field
from typing import Literal

from gpuready.core.conventions import DEFAULT as DEFAULT_CONVENTIONS
from gpuready.core.conventions import Conventions
from gpuready.core.scheduling import LABEL_ACCELERATOR, LABEL_GPU_PRESENT, LABEL_POOL
from gpuready.record import record
from gpuready.verify import findings as f
from gpuready.verify.checks import check_node
from gpuready.verify.errors import GpuHealthError, LabelMismatchError, NodesNotReadyError
from gpuready.verify.expectations import Expectation, infer_expectation
from gpuready.verify.findings import Finding
from gpuready.verify.inference import Inference, infer_accelerator, is_gpu_node
from gpuready.verify.nodes import NodeView
from gpuready.verify.provisioned import NodeOrigin, node_origin

NodeStatus = Literal["ok", "warnings", "errors"]
ElasticStatus = Literal["no-nodes-yet", "has-nodes"]
NO_NODES_YET: ElasticStatus = "no-nodes-yet"


@record(frozen=True, slots=True)
class ElasticPoolNodes:
    """An elastic pool of the stack and how many of its nodes are there: none is a state of its own (its nodes come
    when GPU pods are pending), not a failure."""

    pool: str
    provisioner: str
    nodes: int

    @property
    def status(self) -> ElasticStatus:
        """``no-nodes-yet`` without nodes, else ``has-nodes`` (they are checked as any pool's)."""
        return NO_NODES_YET if self.nodes == 0 else "has-nodes"


@record(frozen=True, slots=True)
class NodeResult:
    """One GPU node, what it should be, and what is wrong with it."""

    view: NodeView
    expectation: Expectation
    inference: Inference | None
    findings: tuple[Finding, ...]
    origin: NodeOrigin | None = None
    """The elastic provisioner that made the node, and its NodePool / ComputeClass; None for other nodes."""

    @property
    def converged(self) -> bool:
        """No error findings (warnings do not block)."""
        return not any(x.severity == "error" for x in self.findings)

    @property
    def status(self) -> NodeStatus:
        """``ok`` without findings, ``warnings`` with warnings only, else ``errors``."""
        if not self.findings:
            return "ok"
        return "warnings" if self.converged else "errors"

    @property
    def pool(self) -> str | None:
        """The pool the node belongs to: its expectation's, else its own ``gpuready.io/pool`` label (a pool of
        another stack, or ``check`` without a stack)."""
        return self.expectation.pool or self.view.labels.get(LABEL_POOL) or None


@record(frozen=True, slots=True)
class AuditReport:
    """The result of one audit."""

    results: tuple[NodeResult, ...]
    """GPU nodes, sorted by name."""
    other_nodes: int = 0
    """Nodes without GPUs (never checked, never labeled)."""
    pool_findings: tuple[Finding, ...] = field(default=())
    """Pools with fewer nodes than expected."""
    missing_nodes: int = 0
    """Nodes the pools expect that have not joined yet."""
    elastic_pools: tuple[ElasticPoolNodes, ...] = ()
    """The stack's elastic pools, by name, with the nodes each has."""
    slices_unchecked: str = ""
    """Why the DRA nodes' ResourceSlices could not be checked (deadline, 403, ...); "" when they were or none
    were needed. The node report stands; the DRA nodes are not converged as far as anyone can tell."""

    @property
    def idle_pools(self) -> list[ElasticPoolNodes]:
        """Elastic pools with no nodes yet."""
        return [p for p in self.elastic_pools if p.status == NO_NODES_YET]

    @property
    def findings(self) -> list[Finding]:
        """Pool findings first, then each node's, by node name."""
        return [*self.pool_findings, *(x for r in self.results for x in r.findings)]

    @property
    def converged(self) -> int:
        """GPU nodes without error findings."""
        return sum(1 for r in self.results if r.converged)

    def node_counts(self) -> Counter[str]:
        """GPU nodes by worst finding: ``ok`` (none), ``warnings`` (warnings only), ``errors``."""
        return Counter(r.status for r in self.results)

    @property
    def expected(self) -> int:
        """GPU nodes seen plus those still missing: the M of "converged N/M"."""
        return len(self.results) + self.missing_nodes

    @property
    def done(self) -> bool:
        """Every expected node is present and converged."""
        return self.converged == self.expected and not self.pool_findings and not self.slices_unchecked

    def severity_counts(self) -> Counter[str]:
        """Findings per severity."""
        return Counter(x.severity for x in self.findings)


def audit(
    nodes: Iterable[NodeView],
    expectations_by_pool: Mapping[str, Expectation],
    conventions: Conventions = DEFAULT_CONVENTIONS,
) -> AuditReport:
    """Check every GPU node in ``nodes`` against its pool's expectation (or one inferred with ``conventions``)."""
    results: list[NodeResult] = []
    other = 0
    per_pool: Counter[str] = Counter()
    for view in sorted(nodes, key=lambda v: v.name):
        result = node_result(view, expectations_by_pool, conventions)
        if result is None:
            other += 1
            continue
        if (pool := counted_pool(result, expectations_by_pool)) is not None:
            per_pool[pool] += 1
        results.append(result)
    pool_findings = tuple(pool_shortfalls(per_pool, expectations_by_pool))
    missing = missing_nodes(per_pool, expectations_by_pool)
    return AuditReport(
        tuple(results), other, pool_findings, missing, elastic_pool_nodes(per_pool, expectations_by_pool)
    )


def node_result(
    view: NodeView, expectations_by_pool: Mapping[str, Expectation], conventions: Conventions = DEFAULT_CONVENTIONS
) -> NodeResult | None:
    """One node checked against its pool's expectation (or an inferred one); None for a node without GPUs."""
    if not is_gpu_node(view):
        return None
    pool = view.labels.get(LABEL_POOL, "")
    inference = infer_accelerator(view)
    expectation = expectations_by_pool.get(pool) if pool else None
    if expectation is None:
        expectation = infer_expectation(view, inference, conventions)
    origin = node_origin(view.labels)
    return NodeResult(view, expectation, inference, tuple(check_node(view, expectation, origin)), origin)


def counted_pool(result: NodeResult, expectations_by_pool: Mapping[str, Expectation]) -> str | None:
    """The stack pool a checked node counts towards (None for nodes with an inferred expectation)."""
    pool = result.expectation.pool
    return pool if pool is not None and expectations_by_pool.get(pool) is result.expectation else None


def missing_nodes(per_pool: Mapping[str, int], expectations_by_pool: Mapping[str, Expectation]) -> int:
    """Nodes the pools expect beyond those seen (``per_pool``: GPU nodes seen per pool)."""
    return sum(max(0, exp.expected_nodes - per_pool.get(name, 0)) for name, exp in expectations_by_pool.items())


def elastic_pool_nodes(
    per_pool: Mapping[str, int], expectations_by_pool: Mapping[str, Expectation]
) -> tuple[ElasticPoolNodes, ...]:
    """The elastic pools among ``expectations_by_pool`` with the GPU nodes seen of each, by pool name."""
    return tuple(
        ElasticPoolNodes(name, exp.provisioner, per_pool.get(name, 0))
        for name, exp in sorted(expectations_by_pool.items())
        if exp.elastic
    )


def pool_shortfalls(per_pool: Mapping[str, int], expectations_by_pool: Mapping[str, Expectation]) -> list[Finding]:
    """A finding per pool with fewer nodes than it expects, by pool name."""
    return [
        _missing_nodes(name, exp, exp.expected_nodes - per_pool.get(name, 0))
        for name, exp in sorted(expectations_by_pool.items())
        if per_pool.get(name, 0) < exp.expected_nodes
    ]


def _missing_nodes(pool: str, expectation: Expectation, missing: int) -> Finding:
    have = expectation.expected_nodes - missing
    return Finding(
        node=f"pool/{pool}",
        severity="error",
        code=f.POOL_NODES_MISSING,
        message=f"pool {pool}: too few nodes; got {have}, expected {expectation.expected_nodes}",
        cause="nodes are still being created, or cannot join (capacity or quota for the instance type, "
        "bootstrap or network failure)",
        fix=f"watch them join, and check the cloud node group's events: kubectl get nodes -l {LABEL_POOL}={pool} -w",
        reproduce=f"kubectl get nodes -l {LABEL_POOL}={pool}",
    )


def check_converged(report: AuditReport, selector: str) -> None:
    """Raise unless every expected node converged: ``GpuHealthError`` when nodes report broken GPUs (``verify``
    fails their pool), ``NodesNotReadyError`` when only transient findings remain (waiting may help),
    ``LabelMismatchError`` otherwise. Messages end with a kubectl command."""
    if report.done and report.expected:
        return
    errors = [x for x in report.findings if x.severity == "error"]
    names = sorted({x.node for x in errors})
    codes = ", ".join(sorted({x.code for x in errors})) or "no nodes matched"
    command = f"kubectl get nodes -l '{selector}' -L {LABEL_POOL} -L {LABEL_GPU_PRESENT} -L {LABEL_ACCELERATOR}"
    message = f"{report.converged} of {report.expected} nodes converged; failing: {', '.join(names) or '-'} ({codes})"
    broken = sorted({x.node for x in errors if x.code in f.HEALTH_CODES})
    if broken:
        raise GpuHealthError(f"{message}; broken GPUs on {', '.join(broken)}", names, command)
    if all(x.transient for x in errors):  # also when no node matched yet
        raise NodesNotReadyError(message, names, command)
    raise LabelMismatchError(message, names, command)
