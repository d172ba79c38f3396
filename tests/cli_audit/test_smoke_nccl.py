"""``gpuready verify --smoke`` on a fabric pool, against the API stand-in: the two-node NCCL all-reduce (a test
thread plays the Job controller and the kubelets), judged by its logs; faults: pods that never schedule, NCCL on
TCP sockets. Every run leaves no Job, Pod or Service behind."""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from gpuready.core import pool_config
from gpuready.core.health.nccl_smoke import MARKER
from gpuready.core.scheduling import pool_labels
from gpuready.eks.fabric_facts import EFA_RESOURCE
from tests.cli_audit.conftest import GPU_TAINT, ROOT, Cli, eks_stack
from tests.kube_standin import KubeStandin, make_node

POOL = {"name": "train", "instanceType": "p5.48xlarge", "minSize": 2, "maxSize": 2, "fabric": "efa",
        "zones": ["us-east-1a"]}  # fmt: skip
STACK = eks_stack(f"""\
    - {json.dumps(POOL)}
""")
OK = f"{MARKER} of 256 MiB over 16 ranks: ok"
EFA_LOG = f"NCCL INFO NET/OFI Selected provider is efa\nNCCL INFO Using network Libfabric\n{OK}\n"
SOCKET_LOG = f"NCCL INFO NET/Socket : Using [0]eth0:10.0.0.5<0>\nNCCL INFO Using network Socket\n{OK}\n"


@pytest.fixture
def efa_project(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    (tmp_path / "stacks" / "Pulumi.efa.yaml").write_text(STACK)
    return tmp_path


def seed_nodes(kube: KubeStandin) -> None:
    (spec,) = pool_config.parse_pools([POOL], "eks")
    for name in ("p5-a", "p5-b"):
        kube.store.add(make_node(name, instance_type="p5.48xlarge", labels=pool_labels(spec), taints=[GPU_TAINT],
                                 capacity={"nvidia.com/gpu": "8", EFA_RESOURCE: "32"}))  # fmt: skip


def controller(kube: KubeStandin, logs: tuple[str, str], stop: threading.Event, failed: bool = False) -> None:
    """For each new Indexed Job: its two pods (one per node) with ``logs``, and the Job's status from them (failed,
    its second pod with exit code 1, when ``failed``)."""
    seen: set[str] = set()
    while not stop.is_set():
        for job in kube.store.objects("jobs"):
            name, namespace = job["metadata"]["name"], job["metadata"]["namespace"]
            if name in seen:
                continue
            seen.add(name)
            template = job["spec"]["template"]
            for index, (node, log) in enumerate(zip(("p5-a", "p5-b"), logs, strict=True)):
                pod: dict[str, Any] = {"apiVersion": "v1", "kind": "Pod",
                       "metadata": {"name": f"{name}-{index}-abcde", "namespace": namespace,
                                    "labels": {**template["metadata"]["labels"], "job-name": name}},
                       "spec": {**template["spec"], "nodeName": node, "hostname": f"{name}-{index}"},
                       "status": {"phase": "Failed" if failed and index else "Succeeded"}}  # fmt: skip
                kube.store.add(pod)
                kube.store.logs[(namespace, pod["metadata"]["name"])] = log

            def finish(obj: dict[str, Any]) -> None:
                obj["status"] = {"failed": 1} if failed else {"succeeded": 2}

            kube.store.modify("jobs", name, finish, namespace)
        time.sleep(0.02)


def smoke(gpuready: Cli, project: Path, kube: KubeStandin, logs: tuple[str, str] | None,
          *, timeout: str = "20", failed: bool = False) -> tuple[int, dict[str, Any]]:  # fmt: skip
    stop = threading.Event()
    thread = threading.Thread(target=controller, args=(kube, logs, stop, failed)) if logs else None
    if thread:
        thread.start()
    try:
        result = gpuready("verify", "--stack", "efa", "--project-dir", str(project), "--timeout", timeout, "--smoke",
                          "--smoke-nccl-image", "registry.example/ml/nccl:1.0", "-o", "json")  # fmt: skip
    finally:
        stop.set()
        if thread:
            thread.join()
    for kind in ("jobs", "pods", "services"):
        assert kube.store.objects(kind) == [], kind  # nothing left behind
    assert kube.internal_errors == []
    assert result.code != 2, result.out + result.err
    return result.code, json.loads(result.out)


def test_an_all_reduce_over_efa_passes(kube_standin: KubeStandin, gpuready: Cli, efa_project: Path) -> None:
    seed_nodes(kube_standin)
    code, report = smoke(gpuready, efa_project, kube_standin, (EFA_LOG, EFA_LOG))
    assert code == 0, report
    (pool,) = report["smoke"]["pools"]
    assert (pool["pool"], pool["status"], pool["node"]) == ("train", "passed", "p5-a,p5-b")
    assert pool["detail"] == "all-reduce over 2 nodes on NCCL network Libfabric"
    assert f"{pool['job']}-0-abcde: NCCL INFO Using network Libfabric" in pool["log"]
    [service] = kube_standin.requests.find("POST", "/api/v1/namespaces/default/services")
    [job_post] = kube_standin.requests.find("POST", "/apis/batch/v1/namespaces/default/jobs")
    sent = json.loads(job_post.body)
    assert json.loads(service.body)["metadata"]["name"] == sent["metadata"]["name"] == pool["job"]
    container = sent["spec"]["template"]["spec"]["containers"][0]
    assert container["image"] == "registry.example/ml/nccl:1.0"
    assert container["resources"]["limits"][EFA_RESOURCE] == 32
    assert sent["spec"]["completions"] == 2 and sent["spec"]["activeDeadlineSeconds"] <= 20


def test_nccl_on_tcp_sockets_fails_the_run(kube_standin: KubeStandin, gpuready: Cli, efa_project: Path) -> None:
    seed_nodes(kube_standin)
    code, report = smoke(gpuready, efa_project, kube_standin, (EFA_LOG, SOCKET_LOG))
    assert code == 1
    (pool,) = report["smoke"]["pools"]
    assert pool["status"] == "failed"
    assert pool["detail"].startswith("NCCL fell back to TCP sockets (Using network Socket); expected Libfabric")
    assert "security group" in pool["cause"]
    assert "kubectl logs -n default -l gpuready.io/smoke-pool=train,gpuready.io/smoke-run=" in pool["fix"]
    assert f"{pool['job']}-1-abcde: NCCL INFO Using network Socket" in pool["log"]


def test_pods_that_never_schedule_end_at_the_deadline_and_are_deleted(
    kube_standin: KubeStandin, gpuready: Cli, efa_project: Path
) -> None:
    seed_nodes(kube_standin)
    start = time.monotonic()
    code, report = smoke(gpuready, efa_project, kube_standin, None, timeout="8")
    assert time.monotonic() - start < 8 + 3
    assert code == 1
    (pool,) = report["smoke"]["pools"]
    assert pool["status"] == "not-started"
    assert "no pod was created" in pool["detail"]
    assert "the pool needs two nodes" in pool["cause"] and pool["fix"].startswith("look at why the pods")
    assert kube_standin.requests.find("DELETE", "/api/v1/namespaces/default/services/" + pool["job"])


def test_a_job_that_fails_after_nccl_ran_on_the_fabric_says_so(
    kube_standin: KubeStandin, gpuready: Cli, efa_project: Path
) -> None:
    seed_nodes(kube_standin)
    code, report = smoke(gpuready, efa_project, kube_standin, (EFA_LOG, EFA_LOG), failed=True)
    assert code == 1
    (pool,) = report["smoke"]["pools"]
    assert pool["status"] == "failed" and "pod phase Failed" in pool["detail"]
    assert pool["cause"] == "the Job failed although NCCL ran on the fabric (see the log)"
    assert pool["fix"].startswith("read the pods' logs: kubectl logs -n default -l ")
