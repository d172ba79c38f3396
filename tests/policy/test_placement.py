"""Placement rules through the pack (engine-style props): named schedulers exist, GPU replicas pack or spread."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy.harness import messages

SCHEDULER = "gpu-workload-scheduler-exists"
SPREAD = "gpu-replicas-spread-or-pack"
DEPLOYMENT = "kubernetes:apps/v1:Deployment"
JOB = "kubernetes:batch/v1:Job"
CONFIG_MAP = "kubernetes:core/v1:ConfigMap"
GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
BINPACK_CONFIG = {
    "metadata": {"name": "gpu-binpack-config", "namespace": "gpu-scheduling"},
    "data": {
        "config.yaml": "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
        "profiles:\n- schedulerName: gpu-binpack\n"
    },
}


def pod_spec(gpus: int = 1, **extra: Any) -> dict[str, Any]:
    container = {"name": "c", "image": "busybox", "resources": {"limits": {"nvidia.com/gpu": gpus}}}
    return {"containers": [container], "tolerations": [GPU_TOLERATION], **extra}


def deployment(replicas: int = 2, gpus: int = 1, **extra: Any) -> dict[str, Any]:
    labels = {"app": "w"}
    return {
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": labels},
            "template": {"metadata": {"labels": labels}, "spec": pod_spec(gpus, **extra)},
        }
    }


def job(**extra: Any) -> dict[str, Any]:
    return {"spec": {"template": {"spec": {"restartPolicy": "Never", **pod_spec(**extra)}}}}


@pytest.mark.parametrize(
    ("stack", "config", "expected"),
    [
        (
            [(JOB, job(schedulerName="gpu-binpack"))],
            None,
            "runs no scheduler of that name (schedulers configured here: none)",
        ),
        ([(JOB, job(schedulerName="gpu-binpack")), (CONFIG_MAP, BINPACK_CONFIG)], None, None),
        ([(JOB, job(schedulerName="gpu-binpak")), (CONFIG_MAP, BINPACK_CONFIG)], None, "configured here: gpu-binpack"),
        ([(JOB, job(schedulerName="volcano"))], {SCHEDULER: {"externalSchedulers": ["volcano"]}}, None),
        ([(JOB, job(schedulerName="default-scheduler"))], None, None),
        ([(JOB, job())], None, None),
        ([(DEPLOYMENT, deployment(schedulerName="gpu-binpack"))], None, "spec.template.spec.schedulerName"),
        ([(CONFIG_MAP, {"data": {"config.yaml": "kind: KubeSchedulerConfiguration\nprofiles: ["}})], None, None),
    ],
)
def test_named_scheduler_must_run_in_the_stack(
    stack: list[tuple[str, dict[str, Any]]], config: dict[str, Any] | None, expected: str | None
) -> None:
    found = messages(SCHEDULER, stack, config)
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1 and expected in found[0], found


AFFINITY_SPREAD = {
    "podAntiAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchLabels": {"app": "w"}}, "topologyKey": "kubernetes.io/hostname"}
        ]
    }
}
ZONE_SPREAD = [
    {
        "maxSkew": 1,
        "topologyKey": "topology.kubernetes.io/zone",
        "whenUnsatisfiable": "ScheduleAnyway",
        "labelSelector": {"matchLabels": {"app": "w"}},
    }
]


@pytest.mark.parametrize(
    ("props", "advised"),
    [
        (deployment(replicas=3), True),
        (deployment(replicas=1), False),
        (deployment(replicas=3, gpus=0), False),
        (deployment(replicas=3, affinity=AFFINITY_SPREAD), False),
        (deployment(replicas=3, topologySpreadConstraints=ZONE_SPREAD), False),
        (deployment(replicas=3, schedulerName="gpu-binpack"), False),
        (deployment(replicas=3, affinity={"nodeAffinity": {}}), True),
    ],
)
def test_gpu_replicas_say_whether_they_pack_or_spread(props: dict[str, Any], advised: bool) -> None:
    found = messages(SPREAD, [(DEPLOYMENT, props), (CONFIG_MAP, BINPACK_CONFIG)])
    assert (found != []) is advised, found
    if advised:
        assert "3 GPU replicas" in found[0] and "podAntiAffinity" in found[0] and "gpu-binpack" in found[0]
