"""Workload rules, pass and fail, on raw pulumi-kubernetes Pods, Deployments, StatefulSets, Jobs and CronJobs."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy.harness import messages

EXISTS = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
LIMITS = "gpu-workload-gpu-limits-whole"
TOLERATES = "gpu-workload-tolerates-gpu-taint"
MIG = "gpu-workload-mig-resource-exists"
NON_GPU = "non-gpu-workload-avoids-gpu-taint"


def pod_spec(
    limits: dict[str, Any] | None = None,
    requests: dict[str, Any] | None = None,
    tolerations: list[dict[str, Any]] | None = None,
    init: bool = False,
) -> dict[str, Any]:
    resources: dict[str, Any] = {}
    if limits is not None:
        resources["limits"] = limits
    if requests is not None:
        resources["requests"] = requests
    container = {"name": "main", "image": "nvcr.io/nvidia/cuda:12.8.0-base-ubuntu24.04", "resources": resources}
    spec: dict[str, Any] = {"initContainers" if init else "containers": [container]}
    if init:
        spec["containers"] = [{"name": "idle", "image": "busybox"}]
    if tolerations is not None:
        spec["tolerations"] = tolerations
    return spec


def workload(kind: str, spec: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    template = {"metadata": {"labels": {"app": "x"}}, "spec": spec}
    if kind == "Pod":
        return "kubernetes:core/v1:Pod", {"apiVersion": "v1", "kind": "Pod", "spec": spec}
    if kind == "CronJob":
        props = {"spec": {"schedule": "@daily", "jobTemplate": {"spec": {"template": template}}}}
        return "kubernetes:batch/v1:CronJob", props
    group = "batch/v1" if kind == "Job" else "apps/v1"
    return f"kubernetes:{group}:{kind}", {"spec": {"selector": {"matchLabels": {"app": "x"}}, "template": template}}


KINDS = ("Pod", "Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("policy", "spec", "expected"),
    [
        (LIMITS, pod_spec({"nvidia.com/gpu": "1"}, tolerations=[EXISTS]), None),
        (LIMITS, pod_spec({"nvidia.com/gpu": 2}, {"nvidia.com/gpu": 2}, [EXISTS]), None),
        (LIMITS, pod_spec({"nvidia.com/gpu": "2000m"}, tolerations=[EXISTS]), None),
        (LIMITS, pod_spec({"nvidia.com/gpu": "0.5"}, tolerations=[EXISTS]), "GPUs are whole devices"),
        (LIMITS, pod_spec({"nvidia.com/gpu": "500m"}, tolerations=[EXISTS]), "got '500m'"),
        (LIMITS, pod_spec({"nvidia.com/gpu": 0.25}, tolerations=[EXISTS]), "got 0.25"),
        (LIMITS, pod_spec({"nvidia.com/gpu": 1}, {"nvidia.com/gpu": 2}, [EXISTS]), "requests must equal limits"),
        (LIMITS, pod_spec(None, {"nvidia.com/gpu": 1}, [EXISTS]), "a GPU request without a limit"),
        (LIMITS, pod_spec({"nvidia.com/gpu.shared": "1.5"}, tolerations=[EXISTS]), "nvidia.com/gpu.shared"),
        (LIMITS, pod_spec({"nvidia.com/gpu": "0.5"}, tolerations=[EXISTS], init=True), "initContainers[0]"),
        (LIMITS, pod_spec({"cpu": "500m"}), None),
        (TOLERATES, pod_spec({"nvidia.com/gpu": 1}, tolerations=[EXISTS]), None),
        (TOLERATES, pod_spec({"nvidia.com/gpu": 1}, tolerations=[{"operator": "Exists"}]), None),
        (
            TOLERATES,
            pod_spec(
                {"nvidia.com/gpu": 1},
                tolerations=[
                    {"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"}
                ],
            ),
            None,
        ),
        (TOLERATES, pod_spec({"nvidia.com/gpu": 1}), "does not tolerate the GPU taint"),
        (
            TOLERATES,
            pod_spec(
                {"nvidia.com/gpu": 1}, tolerations=[{"key": "nvidia.com/gpu", "operator": "Equal", "value": "true"}]
            ),
            "Azure/AKS#1449",
        ),
        (TOLERATES, pod_spec({"nvidia.com/mig-1g.10gb": 1}), "does not tolerate"),
        (TOLERATES, pod_spec({"nvidia.com/gpu": 0}), None),
        (TOLERATES, pod_spec({"cpu": 1}), None),
        (MIG, pod_spec({"nvidia.com/mig-1g.10gb": 1}, tolerations=[EXISTS]), None),
        (MIG, pod_spec({"nvidia.com/mig-1g.10gb.me": 1}, tolerations=[EXISTS]), None),
        (MIG, pod_spec({"nvidia.com/mig-1g.7gb": 1}, tolerations=[EXISTS]), "no MIG GPU has a profile '1g.7gb'"),
        (NON_GPU, pod_spec({"cpu": 1}), None),
        (NON_GPU, pod_spec({"nvidia.com/gpu": 1}, tolerations=[EXISTS]), None),
    ],
)
def test_workload_rule(kind: str, policy: str, spec: dict[str, Any], expected: str | None) -> None:
    type_, props = workload(kind, spec)
    found = messages(policy, [(type_, props)])
    if expected is None:
        assert found == []
    else:
        assert found, f"{policy} found nothing"
        assert any(expected in m for m in found), found


@pytest.mark.parametrize("kind", KINDS)
def test_non_gpu_pods_should_not_tolerate_the_gpu_taint(kind: str) -> None:
    type_, props = workload(kind, pod_spec({"cpu": "1"}, tolerations=[EXISTS]))
    found = messages(NON_GPU, [(type_, props)])
    if kind == "DaemonSet":  # node agents legitimately run everywhere
        assert found == []
    else:
        assert len(found) == 1
        assert "requests no GPU but tolerates the GPU taint" in found[0]


def test_cronjob_messages_point_into_the_job_template() -> None:
    type_, props = workload("CronJob", pod_spec({"nvidia.com/gpu": "0.5"}))
    (message,) = messages(LIMITS, [(type_, props)])
    assert "spec.jobTemplate.spec.template.spec.containers[0].resources.limits['nvidia.com/gpu']" in message
