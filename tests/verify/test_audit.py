"""audit: nodes matched to pools by label, foreign GPU nodes inferred, CPU nodes counted, convergence."""

from __future__ import annotations

import pytest

from gpuready.verify.audit import audit, check_converged
from gpuready.verify.errors import LabelMismatchError, NodesNotReadyError, VerificationError
from gpuready.verify.expectations import expectation_for
from tests.core.conftest import build_spec
from tests.verify.conftest import l4_node, view

POOLS = {"gpu": expectation_for(build_spec("eks", desired_size=2, max_size=3))}
CPU = view("cpu-1", labels={"node.kubernetes.io/instance-type": "m5.large"})
FOREIGN = view("other-1", labels={"node.kubernetes.io/instance-type": "g5.xlarge"}, capacity={"nvidia.com/gpu": 1})


def test_audit_matches_pool_nodes_infers_foreign_ones_and_skips_cpu_nodes() -> None:
    report = audit([l4_node("gpu-b"), CPU, FOREIGN, l4_node("gpu-a", taints=())], POOLS)
    assert [r.view.name for r in report.results] == ["gpu-a", "gpu-b", "other-1"]
    assert [r.expectation.pool for r in report.results] == ["gpu", "gpu", None]
    assert report.results[2].expectation.accelerator == "a10g"
    assert report.other_nodes == 1
    assert (report.converged, report.expected, report.missing_nodes) == (2, 3, 0)
    assert not report.done
    assert [(f.node, f.code) for f in report.findings if f.severity == "error"] == [("gpu-a", "gpu-taint-missing")]


def test_audit_without_pools_infers_every_gpu_node() -> None:
    report = audit([l4_node("gpu-a")], {})
    (result,) = report.results
    assert result.expectation.inferred and result.expectation.accelerator == "l4"
    assert result.findings == ()  # the pool's labels already carry every convention


def test_pool_with_too_few_nodes_gets_a_transient_pool_finding() -> None:
    report = audit([l4_node("gpu-a")], POOLS)
    assert report.missing_nodes == 1 and report.expected == 2
    (finding,) = report.pool_findings
    assert (finding.node, finding.code, finding.transient) == ("pool/gpu", "pool-nodes-missing", True)
    assert finding.message == "pool gpu: too few nodes; got 1, expected 2"
    with pytest.raises(NodesNotReadyError) as raised:
        check_converged(report, "gpuready.io/pool in (gpu)")
    assert str(raised.value).endswith(
        "Reproduce: kubectl get nodes -l 'gpuready.io/pool in (gpu)' -L gpuready.io/pool -L nvidia.com/gpu.present "
        "-L gpuready.io/accelerator"
    )


def test_converged_report_raises_nothing() -> None:
    report = audit([l4_node("gpu-a"), l4_node("gpu-b"), CPU], POOLS)
    assert report.done and report.converged == 2
    check_converged(report, "gpuready.io/pool=gpu")


@pytest.mark.parametrize(
    ("nodes", "error", "failing"),
    [
        ([l4_node("gpu-a", ready=False), l4_node("gpu-b", capacity={})], NodesNotReadyError, ("gpu-a", "gpu-b")),
        ([l4_node("gpu-a", taints=()), l4_node("gpu-b", ready=False)], LabelMismatchError, ("gpu-a", "gpu-b")),
        ([], NodesNotReadyError, ("pool/gpu",)),
    ],
    ids=["transient-only", "permanent-wins", "no-nodes-yet"],
)
def test_check_converged_tells_transient_from_permanent(
    nodes: list[object], error: type[VerificationError], failing: tuple[str, ...]
) -> None:
    report = audit(nodes, POOLS)  # type: ignore[arg-type]
    with pytest.raises(error) as raised:
        check_converged(report, "gpuready.io/pool=gpu")
    assert raised.value.node_names == failing
    assert raised.value.command.startswith("kubectl get nodes -l 'gpuready.io/pool=gpu'")


def test_selector_with_no_nodes_at_all_is_not_converged() -> None:
    report = audit([CPU], {})
    assert report.expected == 0
    with pytest.raises(NodesNotReadyError, match="0 of 0 nodes converged"):
        check_converged(report, "x=y")
