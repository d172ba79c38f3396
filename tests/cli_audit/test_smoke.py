"""``gpuready verify --smoke`` against the API stand-in: a test thread plays the Job controller and the kubelet (or
nobody does, for a Job that never starts); every run leaves no Job and no Pod behind."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli_audit.conftest import GPU_TAINT, L4_POOL_LABELS, Cli
from tests.kube_standin import KubeStandin, make_node


def seed_pool(kube: KubeStandin) -> None:
    for name in ("l4-1", "l4-2"):
        kube.store.add(make_node(name, instance_type="g6.xlarge", labels=L4_POOL_LABELS, taints=[GPU_TAINT],
                                 capacity={"nvidia.com/gpu": "1"}))  # fmt: skip


def controller(kube: KubeStandin, phase: str, log: str, stop: threading.Event) -> None:
    """For each new Job: one pod on l4-1 in ``phase`` with ``log``, and the Job's status to match."""
    seen: set[str] = set()
    while not stop.is_set():
        for job in kube.store.objects("jobs"):
            name, namespace = job["metadata"]["name"], job["metadata"]["namespace"]
            if name in seen:
                continue
            seen.add(name)
            template = job["spec"]["template"]
            pod: dict[str, Any] = {"apiVersion": "v1", "kind": "Pod",
                   "metadata": {"name": f"{name}-abcde", "namespace": namespace,
                                "labels": {**template["metadata"]["labels"], "job-name": name}},
                   "spec": {**template["spec"], "nodeName": "l4-1"},
                   "status": {"phase": phase, "containerStatuses": [{"name": "nvidia-smi", "state": {
                       "terminated": {"reason": "Completed" if phase == "Succeeded" else "Error",
                                      "exitCode": 0 if phase == "Succeeded" else 9}}}]}}  # fmt: skip
            kube.store.add(pod)
            kube.store.logs[(namespace, pod["metadata"]["name"])] = log
            key = "succeeded" if phase == "Succeeded" else "failed"

            def finish(obj: dict[str, Any], key: str = key) -> None:
                obj["status"] = {key: 1}

            kube.store.modify("jobs", name, finish, namespace)
        time.sleep(0.02)


def smoke(gpuready: Cli, project: Path, kube: KubeStandin, play: Callable[[threading.Event], None] | None,
          timeout: str = "20") -> tuple[int, dict[str, Any], str]:  # fmt: skip
    stop = threading.Event()
    thread = threading.Thread(target=play, args=(stop,)) if play else None
    if thread:
        thread.start()
    try:
        result = gpuready("verify", "--stack", "test", "--project-dir", str(project), "--timeout", timeout, "--smoke",
                          "-o", "json")  # fmt: skip
    finally:
        stop.set()
        if thread:
            thread.join()
    assert kube.store.objects("jobs") == [] and kube.store.objects("pods") == []  # nothing left behind
    assert kube.internal_errors == []
    assert result.code != 2, result.out + result.err
    return result.code, json.loads(result.out), result.err


def test_a_passing_smoke_run_reports_the_log_and_cleans_up(
    kube_standin: KubeStandin, gpuready: Cli, project: Path
) -> None:
    seed_pool(kube_standin)
    log = "GPU 0: NVIDIA L4 (UUID: GPU-1234)\n"
    code, report, _ = smoke(gpuready, project, kube_standin,
                            lambda stop: controller(kube_standin, "Succeeded", log, stop))  # fmt: skip
    assert code == 0
    pool, spare = report["smoke"]["pools"]
    assert (pool["pool"], pool["status"], pool["node"]) == ("l4", "passed", "l4-1")
    assert (spare["pool"], spare["status"]) == ("spare", "no-nodes")  # nothing to run on: no Job
    assert pool["log"] == ["GPU 0: NVIDIA L4 (UUID: GPU-1234)"]
    assert report["smoke"]["passed"]
    [job_post] = kube_standin.requests.find("POST", "/apis/batch/v1/namespaces/default/jobs")
    sent = json.loads(job_post.body)
    assert sent["spec"]["activeDeadlineSeconds"] <= 20 and sent["spec"]["backoffLimit"] == 0
    assert sent["spec"]["template"]["spec"]["nodeSelector"] == {"gpuready.io/pool": "l4"}
    assert sent["spec"]["template"]["spec"]["containers"][0]["image"] == report["smoke"]["image"]


def test_a_failing_nvidia_smi_is_a_finding_with_its_log(
    kube_standin: KubeStandin, gpuready: Cli, project: Path
) -> None:
    seed_pool(kube_standin)
    log = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n"
    code, report, _ = smoke(gpuready, project, kube_standin,
                            lambda stop: controller(kube_standin, "Failed", log, stop))  # fmt: skip
    assert code == 1
    pool, _ = report["smoke"]["pools"]
    assert pool["status"] == "failed"
    assert "exit code 9" in pool["detail"]
    assert pool["log"] == [log.strip()]
    assert "nvidia-smi failed on the node" in pool["cause"]


def test_a_job_that_never_starts_ends_at_the_deadline_and_is_deleted(
    kube_standin: KubeStandin, gpuready: Cli, project: Path
) -> None:
    seed_pool(kube_standin)
    start = time.monotonic()
    code, report, _ = smoke(gpuready, project, kube_standin, None, timeout="8")
    assert time.monotonic() - start < 8 + 3
    assert code == 1
    pool, _ = report["smoke"]["pools"]
    assert pool["status"] == "not-started"
    assert "no pod was created" in pool["detail"]
    assert kube_standin.requests.find("DELETE", "/apis/batch/v1/namespaces/default/jobs/" + pool["job"])


def test_without_the_flag_no_job_is_created(kube_standin: KubeStandin, gpuready: Cli, project: Path) -> None:
    seed_pool(kube_standin)
    result = gpuready("verify", "--stack", "test", "--project-dir", str(project), "--timeout", "5")
    assert result.code == 0
    assert not kube_standin.requests.find("POST", "/apis/batch/v1/namespaces/default/jobs")


def test_smoke_needs_a_stack(gpuready: Cli) -> None:
    result = gpuready("verify", "-l", "gpuready.io/pool=l4", "--smoke", "--timeout", "5")
    assert result.code == 2
    assert "--smoke: needs the pools of a stack" in result.err
