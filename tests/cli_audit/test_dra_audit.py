"""``gpuready check`` and ``verify`` on DRA nodes against the stand-in: ResourceSlices decide their convergence,
a node without slices is reported with its likely cause, and a cluster without resource.k8s.io is no error."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from gpuready.core.scheduling import pool_labels
from tests.cli_audit.conftest import GPU_TAINT, STACK, Cli
from tests.core.conftest import build_spec
from tests.kube_standin import KubeStandin, make_node, make_resource_slice

SLICES = "/apis/resource.k8s.io/v1/resourceslices"
DRA_LABELS = {**pool_labels(build_spec("eks", name="dra", instance_type="g6.12xlarge", advertise="dra")),
              "feature.node.kubernetes.io/pci-10de.present": "true"}  # fmt: skip
DRA_STACK = STACK.replace(
    "    - name: spare\n      instanceType: g6e.xlarge\n      minSize: 0\n      maxSize: 2\n",
    "    - name: dra\n      instanceType: g6.12xlarge\n      minSize: 1\n      maxSize: 2\n      desiredSize: 1\n"
    "      advertise: dra\n",
).replace("desiredSize: 2", "desiredSize: 0")


def dra_node(name: str = "dra-a") -> dict[str, object]:
    return make_node(name, instance_type="g6.12xlarge", labels={**DRA_LABELS, "gpuready.io/pool": "dra"},
                     taints=[GPU_TAINT])  # fmt: skip


@pytest.mark.parametrize(
    ("slices", "fault", "expected", "absent"),
    [
        ([make_resource_slice("dra-a", 4)], None, "1 GPU node (1 ok", "dra-slices-missing"),
        ([], None, "dra-a: error dra-slices-missing", None),
        ([make_resource_slice("dra-a", 2)], None, "1 GPU node (1 ok", "dra-devices-missing"),  # no pool: any
        ([], 404, "Kubernetes older than 1.34", None),
    ],
)
def test_check_reports_a_dra_node_by_its_slices(  # noqa: PLR0917  # one parameter per table column
    kube_standin: KubeStandin, gpuready: Cli, slices: list[dict[str, object]], fault: int | None, expected: str,
    absent: str | None,
) -> None:  # fmt: skip
    kube_standin.store.add(dra_node())
    for item in slices:
        kube_standin.store.add(item)
    if fault is not None:
        kube_standin.faults.fail(fault, path=SLICES)
    result = gpuready("check")
    assert result.code == 0, result.err
    assert kube_standin.requests.count("GET", SLICES) == 1
    assert expected in result.out, result.out
    if absent is not None:
        assert absent not in result.out


def test_check_lists_no_slices_without_dra_nodes(kube_standin: KubeStandin, gpuready: Cli) -> None:
    kube_standin.store.add(make_node("l4", instance_type="g6.xlarge", capacity={"nvidia.com/gpu": "1"}))
    assert gpuready("check").code == 0
    assert kube_standin.requests.count("GET", SLICES) == 0


def test_check_without_list_resourceslices_reports_the_nodes_and_says_why_slices_were_not_checked(
    kube_standin: KubeStandin, gpuready: Cli
) -> None:
    kube_standin.store.add(dra_node())
    kube_standin.store.add(make_node("l4", instance_type="g6.xlarge", capacity={"nvidia.com/gpu": "1"}))
    kube_standin.faults.fail(403, path=SLICES, times=100)
    result = gpuready("check")
    assert result.code == 0, result.err  # was 2 and nothing printed
    assert "2 GPU nodes" in result.out and "dra-a" in result.out and "l4" in result.out
    assert "slices not checked: list resourceslices: 403" in result.out
    assert "'list' on 'resourceslices'" in result.out
    assert kube_standin.requests.count("GET", SLICES) == 1  # a 403 is never retried
    strict = gpuready("check", "--strict")
    assert strict.code == 1


def test_check_retries_failing_slices_like_nodes_then_reports_the_nodes(
    kube_standin: KubeStandin, gpuready: Cli
) -> None:
    kube_standin.store.add(dra_node())
    kube_standin.faults.fail(500, path=SLICES, times=1000)
    result = gpuready("check", "--timeout", "4", "-o", "json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["summary"]["gpuNodes"] == 1
    assert report["slicesNotChecked"].startswith("list resourceslices: ")  # not "list nodes"
    assert "500" in report["slicesNotChecked"]
    assert kube_standin.requests.count("GET", SLICES) > 5  # more than one round of the transport's 5 attempts
    assert "list nodes" not in result.err


def test_verify_of_a_dra_stack_that_misses_its_deadline_reports_its_findings(
    kube_standin: KubeStandin, gpuready: Cli, dra_stack: Path
) -> None:
    kube_standin.store.add(dra_node())  # never publishes slices: the node watch would use the whole deadline
    result = gpuready("verify", "--config", str(dra_stack), "--timeout", "2.5")
    assert result.code == 1, result.err  # was 2: "list nodes: the 4s deadline passed; last error: none"
    assert "dra-slices-missing" in result.out
    assert "deadline passed" not in result.err
    assert kube_standin.requests.count("GET", SLICES) >= 1


def test_verify_whose_slices_are_forbidden_reports_the_nodes_unconverged(
    kube_standin: KubeStandin, gpuready: Cli, dra_stack: Path
) -> None:
    kube_standin.store.add(dra_node())
    kube_standin.store.add(make_resource_slice("dra-a", 4))
    kube_standin.faults.fail(403, path=SLICES, times=100)
    result = gpuready("verify", "--config", str(dra_stack), "--timeout", "5")
    assert result.code == 1, result.err
    assert "slices not checked: list resourceslices: 403" in result.out


@pytest.fixture
def dra_stack(tmp_path: Path) -> Path:
    path = tmp_path / "Pulumi.dra.yaml"
    (tmp_path / "Pulumi.yaml").write_text("name: own\nruntime: python\n")
    path.write_text(DRA_STACK)
    return path


def test_verify_waits_for_the_slices_of_a_dra_pool(kube_standin: KubeStandin, gpuready: Cli, dra_stack: Path) -> None:
    kube_standin.store.add(dra_node())
    stop = threading.Event()

    def publish_after_the_first_list() -> None:  # the kubelet plugin comes up while verify waits
        while not stop.wait(0.05):
            if kube_standin.requests.count("GET", SLICES):
                kube_standin.store.add(make_resource_slice("dra-a", 4))
                return

    later = threading.Thread(target=publish_after_the_first_list)
    later.start()
    try:
        result = gpuready("verify", "--config", str(dra_stack), "--timeout", "20")
    finally:
        stop.set()
        later.join()
    assert result.code == 0, result.out + result.err
    assert result.out.startswith("all 1 nodes converged in ")
    assert kube_standin.requests.count("GET", SLICES) >= 2


@pytest.mark.parametrize(
    ("slices", "code"),
    [([], "dra-slices-missing"), ([make_resource_slice("dra-a", 3)], "dra-devices-missing")],
)
def test_verify_does_not_converge_without_the_expected_devices(
    kube_standin: KubeStandin, gpuready: Cli, dra_stack: Path, slices: list[dict[str, object]], code: str
) -> None:
    kube_standin.store.add(dra_node())
    for item in slices:
        kube_standin.store.add(item)
    result = gpuready("verify", "--config", str(dra_stack), "--timeout", "3")
    assert result.code == 1
    assert code in result.out
