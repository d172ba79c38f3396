"""Verification asks the pool's provisioner how many nodes to wait for: a stand-in elastic provisioner (registered
here only, no real one exists yet) shows that an elastic pool with no nodes yet is waiting, not failing."""

from __future__ import annotations

from typing import ClassVar

import pytest

from components.core.capacity import registry
from components.core.clouds.registry import cloud_profile
from components.eks.capacity import EksNodeGroup
from components.verify.audit import audit, check_converged
from components.verify.errors import NodesNotReadyError
from components.verify.expectations import expectation_for
from tests.core.conftest import build_spec
from tests.verify.conftest import l4_node


class StandInElastic(EksNodeGroup):
    """Nodes on demand, as Karpenter would make them (test only)."""

    key: ClassVar[str] = "stand-in-elastic"
    elastic: ClassVar[bool] = True


PROVISIONER = StandInElastic()


@pytest.fixture
def elastic_default(monkeypatch: pytest.MonkeyPatch) -> None:
    profile = type(cloud_profile("eks"))
    monkeypatch.setattr(profile, "provisioners", {StandInElastic.key: __name__, **profile.provisioners})


SPEC = build_spec("eks", min_size=1, desired_size=2, max_size=3)


def test_a_sized_pool_without_nodes_fails_its_count() -> None:
    pools = {"gpu": expectation_for(SPEC)}
    assert pools["gpu"].expected_nodes == 2
    report = audit([], pools)
    assert report.missing_nodes == 2
    assert [(f.code, f.severity) for f in report.pool_findings] == [("pool-nodes-missing", "error")]


@pytest.mark.usefixtures("elastic_default")
def test_an_elastic_pool_without_nodes_is_waiting_not_failing() -> None:
    assert registry.provisioner_for(SPEC) is PROVISIONER
    pools = {"gpu": expectation_for(SPEC)}
    assert pools["gpu"].expected_nodes == 0
    report = audit([], pools)
    assert (report.missing_nodes, report.pool_findings, report.findings) == (0, (), [])
    with pytest.raises(NodesNotReadyError, match="0 of 0 nodes converged"):
        check_converged(report, "gpuready.io/pool=gpu")


@pytest.mark.usefixtures("elastic_default")
def test_an_elastic_pool_converges_with_the_nodes_that_appeared() -> None:
    report = audit([l4_node("gpu-a")], {"gpu": expectation_for(SPEC)})
    assert (report.converged, report.expected, report.pool_findings) == (1, 1, ())
    check_converged(report, "gpuready.io/pool=gpu")
