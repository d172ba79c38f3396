"""GPU health in ``check`` and ``verify`` against the API stand-in: a broken GPU fails its pool, ``check`` sums healthy
GPUs per pool, and a health condition flapping while ``verify`` watches keeps the pool failed."""

from __future__ import annotations

import copy
import json
import threading
import time
from pathlib import Path
from typing import Any

from tests.cli_audit.conftest import GPU_TAINT, L4_POOL_LABELS, Cli
from tests.golden.health_nodes import condition
from tests.kube_standin import KubeStandin, make_node


def l4_node(name: str, *conditions: dict[str, Any]) -> dict[str, Any]:
    node = make_node(name, instance_type="g6.xlarge", labels=L4_POOL_LABELS, taints=[GPU_TAINT],
                     capacity={"nvidia.com/gpu": "1"})  # fmt: skip
    node["status"]["conditions"].extend(conditions)
    return node


def xid79(status: str) -> dict[str, Any]:
    return condition("AcceleratedHardwareReady", status, "NvidiaXID79Error" if status == "False" else "NoProblem")


def verify(gpuready: Cli, project: Path, timeout: str) -> tuple[int, dict[str, Any], str]:
    result = gpuready("verify", "--stack", "test", "--project-dir", str(project), "--timeout", timeout, "-o", "json")
    return result.code, json.loads(result.out), result.err


def test_verify_fails_a_pool_whose_node_reports_a_gpu_off_the_bus(
    kube_standin: KubeStandin, gpuready: Cli, project: Path
) -> None:
    kube_standin.store.add(l4_node("l4-1", xid79("True")))
    kube_standin.store.add(l4_node("l4-2", xid79("False")))
    code, report, err = verify(gpuready, project, "2")
    assert code == 1
    assert not report["converged"]
    [finding] = [x for x in report["findings"] if x["node"] == "l4-2"]
    assert finding["code"] == "gpu-unhealthy"
    assert "XID 79 (GPU has fallen off the bus" in finding["cause"]
    assert "broken GPUs on l4-2" in err


def test_check_sums_healthy_gpus_per_pool(kube_standin: KubeStandin, gpuready: Cli) -> None:
    kube_standin.store.add(l4_node("l4-1", xid79("True")))
    kube_standin.store.add(l4_node("l4-2", xid79("False")))
    unhealthy = l4_node("l4-3")
    unhealthy["status"]["allocatable"]["nvidia.com/gpu"] = "0"
    kube_standin.store.add(unhealthy)
    text = gpuready("check")
    assert "  l4: 1/3 GPUs healthy on 3 nodes; GPUs not usable on l4-2, l4-3" in text.out.splitlines()
    document = json.loads(gpuready("check", "-o", "json").out)
    assert document["gpuHealth"] == [
        {"pool": "l4", "nodes": 3, "gpus": 3, "healthyGpus": 1, "brokenNodes": ["l4-2", "l4-3"]}
    ]


def test_a_health_condition_flapping_while_verify_watches_keeps_the_pool_failed(
    kube_standin: KubeStandin, gpuready: Cli, project: Path
) -> None:
    kube_standin.store.add(l4_node("l4-1", xid79("True")))
    broken = l4_node("l4-2", xid79("False"))
    kube_standin.store.add(broken)

    def flap() -> None:
        deadline = time.monotonic() + 5
        while not kube_standin.requests.find("GET", "/api/v1/nodes", watch=True) and time.monotonic() < deadline:
            time.sleep(0.01)
        for status in ("True", "False", "True"):  # healthy, broken again, healthy at the end
            node = copy.deepcopy(broken)
            node["status"]["conditions"][-1] = xid79(status)
            kube_standin.store.put(node)
            time.sleep(0.05)

    thread = threading.Thread(target=flap)
    thread.start()
    try:
        code, report, err = verify(gpuready, project, "3")
    finally:
        thread.join()
    assert code == 1, err
    codes = {(x["node"], x["code"]) for x in report["findings"]}
    assert codes == {("l4-2", "gpu-health-flapped")}  # healthy now, but not trusted
    [finding] = report["findings"]
    assert "(2 times)" in finding["message"]
    assert "NvidiaXID79Error" in finding["message"]
    assert "broken GPUs on l4-2" in err
