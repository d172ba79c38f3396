"""AuditState / WatchedAudit: the audit kept current one node at a time equals a full audit, at O(1) per change."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from gpuready.cli.verify_stack import stack_expectations
from gpuready.verify import audit as audit_module
from gpuready.verify.audit import audit
from gpuready.verify.checks import check_node
from gpuready.verify.expectations import Expectation, expectation_for
from gpuready.verify.findings import Finding
from gpuready.verify.incremental import AuditState, WatchedAudit
from gpuready.verify.nodes import NodeView, node_view
from gpuready.verify.provisioned import NodeOrigin
from tests.core.conftest import build_spec
from tests.golden import node_sets
from tests.verify.conftest import l4_node, view

ROOT = Path(__file__).resolve().parents[2]
POOLS = {"gpu": expectation_for(build_spec("eks", desired_size=2, max_size=3))}
CPU = view("cpu-1", labels={"node.kubernetes.io/instance-type": "m5.large"})


def _stack_views() -> tuple[dict[str, Expectation], list[NodeView]]:
    """The golden node sets as views, and the eks-dev pools with ``l4-shared`` expecting 16 nodes."""
    expectations = stack_expectations("eks-dev", str(ROOT))
    raw = [*node_sets.stack_nodes(expectations), *node_sets.foreign_nodes()]
    expectations["l4-shared"] = replace(expectations["l4-shared"], expected_nodes=16)
    return expectations, [node_view(n) for n in raw]


def _same(state: AuditState, views: dict[str, NodeView], expectations: dict[str, Expectation]) -> None:
    full = audit(views.values(), expectations)
    assert state.report() == full
    assert (state.converged, state.expected, state.done, state.gpu_nodes) == (
        full.converged, full.expected, full.done, len(full.results),
    )  # fmt: skip


@pytest.mark.parametrize("seed", range(5))
def test_any_sequence_of_changes_reports_what_a_full_audit_reports(seed: int) -> None:
    expectations, pool = _stack_views()
    rng = random.Random(seed)
    state, current = AuditState(expectations), dict[str, NodeView]()
    _same(state, current, expectations)
    for _ in range(200):
        candidate = rng.choice(pool)
        if candidate.name in current and rng.random() < 0.4:
            del current[candidate.name]
            state.remove(candidate.name)
        else:
            current[candidate.name] = candidate
            state.put(candidate)
        _same(state, current, expectations)
    state.clear()
    _same(state, {}, expectations)


def test_pool_shortfall_comes_and_goes_with_its_nodes() -> None:
    state = AuditState(POOLS)
    assert (state.expected, state.done) == (2, False)
    state.put(l4_node("gpu-a"))
    state.put(l4_node("gpu-b"))
    state.put(CPU)
    assert (state.converged, state.expected, state.done) == (2, 2, True)
    state.remove("gpu-b")
    assert (state.converged, state.expected, state.done) == (1, 2, False)
    assert [f.node for f in state.report().pool_findings] == ["pool/gpu"]
    state.put(l4_node("gpu-a", taints=()))
    assert (state.converged, state.done) == (0, False)
    state.remove("never-seen")
    assert state.report().other_nodes == 1


def test_one_change_checks_one_node_whatever_the_pool_size(monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[str] = []

    def counting(view: NodeView, expectation: Expectation, origin: NodeOrigin | None = None) -> list[Finding]:
        checked.append(view.name)
        return check_node(view, expectation, origin)

    monkeypatch.setattr(audit_module, "check_node", counting)
    for size in (10, 1_000):
        watched = WatchedAudit({"gpu": expectation_for(build_spec("eks", desired_size=size, max_size=size))})
        nodes = {f"n{i}": _raw(f"n{i}", version="1") for i in range(size)}
        watched.reset(nodes)
        checked.clear()
        watched.apply("n3", _raw("n3", version="2", labels={"example.com/x": "y"}))
        watched.apply("n4", None)
        watched.reset({**nodes, "n3": _raw("n3", version="2")})  # a LIST after a 410: only n4 is new
        assert checked == ["n3", "n4"]
        assert watched.state.done and watched.state.expected == size


def _raw(name: str, *, version: str, labels: dict[str, str] | None = None) -> dict[str, Any]:
    node = l4_node(name)
    return {
        "metadata": {"name": name, "resourceVersion": version, "labels": {**node.labels, **(labels or {})}},
        "spec": {"taints": [{"key": t.key, "value": t.value, "effect": t.effect} for t in node.taints]},
        "status": {
            "capacity": {k: str(v) for k, v in node.capacity.items()},
            "allocatable": {k: str(v) for k, v in node.allocatable.items()},
            "conditions": [{"type": "Ready", "status": "True"}],
        },
    }
