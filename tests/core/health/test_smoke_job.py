"""The smoke Job of a pool: a valid Job for the pool's Kubernetes version (kubernetes-validate, strict), on the pool
(workload helper's selector and tolerations), bounded, with its image a parameter."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.health.smoke_image import DEFAULT_SMOKE_IMAGE
from gpuready.core.health.smoke_job import TTL_AFTER_FINISHED, smoke_job
from gpuready.core.specs import GpuSharing
from gpuready.core.workload import gpu_workload
from gpuready.errors import SpecError
from tests.core.conftest import build_spec
from tests.helm_render import strict_problems

CASES: list[tuple[str, dict[str, Any], str]] = [
    ("eks", {}, "1.33"),
    ("aks", {}, "1.33"),
    ("gke", {}, "1.33"),
    ("eks", {"sharing": GpuSharing(mode="time-slicing", replicas=4)}, "1.32"),
    ("eks", {"advertise": "dra"}, "1.34"),
]


@pytest.mark.parametrize(("cloud", "overrides", "version"), CASES)
def test_the_smoke_job_is_valid_for_the_pools_kubernetes_version(
    cloud: str, overrides: dict[str, Any], version: str
) -> None:
    spec = build_spec(cloud, **overrides)
    run = smoke_job(spec, namespace="default", run="a1b2c3", deadline_seconds=120)
    for obj in run.objects:
        assert strict_problems(obj, version) == [], obj["kind"]
    job = run.job
    assert job["spec"]["activeDeadlineSeconds"] == 120
    assert job["spec"]["backoffLimit"] == 0
    assert job["spec"]["ttlSecondsAfterFinished"] == TTL_AFTER_FINISHED
    pod = job["spec"]["template"]["spec"]
    helper = gpu_workload(spec).pod_spec()
    assert pod["nodeSelector"] == helper["nodeSelector"] and pod["tolerations"] == helper["tolerations"]
    assert pod["containers"][0]["command"] == ["nvidia-smi"]
    assert pod["containers"][0]["image"] == DEFAULT_SMOKE_IMAGE
    assert pod["restartPolicy"] == "Never"


def test_the_image_is_a_parameter_and_checked() -> None:
    job = smoke_job(build_spec("eks"), image="registry.example.com/cuda:12", namespace="x", run="r", deadline_seconds=9)
    assert job.job["spec"]["template"]["spec"]["containers"][0]["image"] == "registry.example.com/cuda:12"
    with pytest.raises(SpecError, match="--smoke-image: not an image reference"):
        smoke_job(build_spec("eks"), image="not an image", namespace="x", run="r", deadline_seconds=9)
    with pytest.raises(SpecError, match="--timeout: leaves the smoke Job less than 1 second"):
        smoke_job(build_spec("eks"), namespace="x", run="r", deadline_seconds=0)


def test_a_planned_job_is_rerun_with_its_own_id_and_deadline() -> None:
    from gpuready.core.health.smoke_job import LABEL_SMOKE_RUN, rerun  # noqa: PLC0415

    planned = smoke_job(build_spec("eks"), namespace="default", run="planned", deadline_seconds=1)
    job = rerun(planned, "a1b2c3", 300)
    assert job.name == "gpuready-smoke-gpu-a1b2c3" == job.job["metadata"]["name"]
    assert job.job["metadata"]["labels"][LABEL_SMOKE_RUN] == "a1b2c3"
    assert job.job["spec"]["template"]["metadata"]["labels"][LABEL_SMOKE_RUN] == "a1b2c3"
    assert job.job["spec"]["activeDeadlineSeconds"] == 300
    assert planned.job["spec"]["activeDeadlineSeconds"] == 1  # the plan is left as it was
    with pytest.raises(SpecError, match="less than 1 second"):
        rerun(planned, "x", 0)
