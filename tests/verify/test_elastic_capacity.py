"""Verification asks the pool's provisioner how many nodes to wait for: a stand-in elastic provisioner (registered
here only) shows that an elastic pool with no nodes yet is waiting, not failing; the real Karpenter pool shows how
reports say so."""

from __future__ import annotations

from typing import ClassVar

import pytest

from gpuready.core.capacity import registry
from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.specs import GpuPoolSpec
from gpuready.eks.capacity import EksNodeGroup
from gpuready.verify.audit import audit, check_converged
from gpuready.verify.errors import NodesNotReadyError
from gpuready.verify.expectations import expectation_for
from gpuready.verify.report import render_report, report_json
from gpuready.verify_hook.wire import expectation_from_data, expectation_to_data
from tests.core.conftest import build_spec
from tests.verify.conftest import l4_node


class StandInElastic(EksNodeGroup):
    """Nodes on demand, as Karpenter would make them (test only)."""

    key: ClassVar[str] = "stand-in-elastic"
    elastic: ClassVar[bool] = True


PROVISIONER = StandInElastic()


@pytest.fixture
def elastic_spec(monkeypatch: pytest.MonkeyPatch) -> GpuPoolSpec:
    """A pool made while the stand-in is the cloud's default (a pool resolves its provisioner once, when made)."""
    profile = type(cloud_profile("eks"))
    monkeypatch.setattr(profile, "provisioners", {StandInElastic.key: PROVISIONER, **profile.provisioners})
    return build_spec("eks", min_size=0, max_size=3)


SPEC = build_spec("eks", min_size=1, desired_size=2, max_size=3)


def test_a_sized_pool_without_nodes_fails_its_count() -> None:
    pools = {"gpu": expectation_for(SPEC)}
    assert pools["gpu"].expected_nodes == 2
    report = audit([], pools)
    assert report.missing_nodes == 2
    assert [(f.code, f.severity) for f in report.pool_findings] == [("pool-nodes-missing", "error")]


def test_an_elastic_pool_without_nodes_is_waiting_not_failing(elastic_spec: GpuPoolSpec) -> None:
    assert registry.provisioner_for(elastic_spec) is PROVISIONER
    assert elastic_spec.resolved.provisioner is PROVISIONER
    assert SPEC.resolved.provisioner is not PROVISIONER
    pools = {"gpu": expectation_for(elastic_spec)}
    assert pools["gpu"].expected_nodes == 0
    report = audit([], pools)
    assert (report.missing_nodes, report.pool_findings, report.findings) == (0, (), [])
    with pytest.raises(NodesNotReadyError, match="0 of 0 nodes converged"):
        check_converged(report, "gpuready.io/pool=gpu")


def test_an_elastic_pool_converges_with_the_nodes_that_appeared(elastic_spec: GpuPoolSpec) -> None:
    report = audit([l4_node("gpu-a")], {"gpu": expectation_for(elastic_spec)})
    assert (report.converged, report.expected, report.pool_findings) == (1, 1, ())
    check_converged(report, "gpuready.io/pool=gpu")


KARPENTER = build_spec("eks", name="burst", provisioner="karpenter", min_size=0, max_size=2)


def test_a_karpenter_pool_without_nodes_is_reported_as_waiting_for_pods() -> None:
    expectation = expectation_for(KARPENTER)
    assert (expectation.elastic, expectation.provisioner, expectation.expected_nodes) == (True, "karpenter", 0)
    assert expectation_from_data(expectation_to_data(expectation)) == expectation  # across the provider's wire
    report = audit([], {"burst": expectation, "fixed": expectation_for(build_spec("eks", name="fixed"))})
    assert [(p.pool, p.provisioner, p.nodes, p.status) for p in report.elastic_pools] == [
        ("burst", "karpenter", 0, "no-nodes-yet")
    ]
    assert report.done and report.findings == []
    assert "pool burst: no nodes yet (elastic, karpenter: nodes are made when GPU pods are pending)" in render_report(
        report
    )
    assert report_json(report)["elasticPools"] == [
        {"pool": "burst", "provisioner": "karpenter", "nodes": 0, "status": "no-nodes-yet"}
    ]


def test_a_karpenter_pool_with_nodes_is_checked_and_not_idle() -> None:
    node = l4_node("burst-a", extra={"gpuready.io/pool": "burst", "karpenter.sh/nodepool": "burst"})
    report = audit([node], {"burst": expectation_for(KARPENTER)})
    assert [(p.nodes, p.status) for p in report.elastic_pools] == [(1, "has-nodes")] and report.idle_pools == []
    assert "no nodes yet" not in render_report(report)
    assert "elasticPools" not in report_json(audit([node], {}))  # no stack, no elastic pools: the JSON as before
