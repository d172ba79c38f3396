"""The workload helper's Kueue queue (issue #28): the label Kueue reads on the job object, checked against the
LocalQueues the stack declares (its name, then the namespace the objects go to)."""

from __future__ import annotations

from typing import Any

import kubernetes_validate
import pytest

from gpuready.core.config_model.parsers import parse_kueue
from gpuready.core.health.repair import RepairPolicy
from gpuready.core.kueue.spec import LocalQueueSpec
from gpuready.core.workload import gpu_workload
from gpuready.errors import SpecError
from tests.core.conftest import build_spec

K8S = "1.32.0"  # as tests/core/test_workload.py
QUEUED = build_spec("gke", name="train", instance_type="a3-highgpu-8g", capacity="queued",
                    repair=RepairPolicy(enabled=False))  # fmt: skip
DECLARED = parse_kueue(
    {"clusterQueue": {"name": "ml"}, "localQueues": [{"namespace": "team-a", "name": "ml"},
                                                     {"namespace": "team-b", "name": "ml"}]}, (QUEUED,),
).local_queues  # fmt: skip


def test_the_queue_label_goes_on_the_job_which_stays_valid_kubernetes() -> None:
    workload = gpu_workload(QUEUED, 8, queue="ml", local_queues=DECLARED)
    assert workload.queue_labels() == {"kueue.x-k8s.io/queue-name": "ml"}
    assert workload.objects("team-b") == []
    job: dict[str, Any] = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "train", "namespace": "team-a", "labels": workload.queue_labels()},
        "spec": {"suspend": True, "template": {"spec": {
            **workload.pod_spec(), "restartPolicy": "Never",
            "containers": [workload.container({"name": "c", "image": "busybox"})]}}},
    }  # fmt: skip
    kubernetes_validate.validate(job, K8S, strict=True)
    assert {"key": "cloud.google.com/gke-queued", "operator": "Exists", "effect": "NoSchedule"} in job["spec"][
        "template"
    ]["spec"]["tolerations"]


def test_without_a_queue_there_is_no_label_and_without_declared_queues_any_name_is_taken() -> None:
    assert gpu_workload(QUEUED, 8).queue_labels() == {}
    assert gpu_workload(QUEUED, 8, queue="someone-elses").queue_labels() == {
        "kueue.x-k8s.io/queue-name": "someone-elses"
    }


@pytest.mark.parametrize(
    ("given", "path", "allowed", "hint"),
    [
        (("trainig", DECLARED, None), "queue", ("ml",), "add {namespace: <the workload's>, name: trainig}"),
        (("Team_Q", (), None), "queue", (), "e.g. training"),
        (("q" * 64, (), None), "queue", (), "e.g. training"),
        (("ml", DECLARED, "team-c"), "namespace", ("team-a", "team-b"), "add {namespace: team-c, name: ml}"),
    ],
    ids=["undeclared-queue", "not-a-label-value", "too-long", "namespace-without-the-queue"],
)
def test_a_queue_the_stack_does_not_have_is_refused(
    given: tuple[str, tuple[LocalQueueSpec, ...], str | None], path: str, allowed: tuple[str, ...], hint: str
) -> None:
    queue, declared, namespace = given
    with pytest.raises(SpecError) as raised:
        workload = gpu_workload(QUEUED, 8, queue=queue, local_queues=declared)
        workload.objects(namespace or "team-a")
    (problem,) = raised.value.problems
    assert (problem.path, problem.allowed) == (path, allowed)
    assert hint in problem.hint
