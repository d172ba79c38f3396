"""The GPU acceptance Job of one pool: one short Job that asks for the pool's GPU resource, lands on the pool through
the workload helper (its node selector, tolerations and cloud fields) and runs ``nvidia-smi``. Pure: objects only.

The Job bounds itself (``activeDeadlineSeconds``, ``backoffLimit: 0``) and is collected by the TTL controller
(``ttlSecondsAfterFinished``) should the run that created it never delete it.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from gpuready.core.health.smoke_image import DEFAULT_SMOKE_IMAGE
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.workload import gpu_workload
from gpuready.errors import SpecError

SMOKE_COMMAND = ("nvidia-smi",)
LABEL_SMOKE_RUN = "gpuready.io/smoke-run"
LABEL_SMOKE_POOL = "gpuready.io/smoke-pool"
TTL_AFTER_FINISHED = 300
_IMAGE = re.compile(r"^[a-z0-9]+([._/:@-][A-Za-z0-9_.-]+)+$")


@dataclass(frozen=True, slots=True)
class SmokeJob:
    """The objects of one pool's smoke run, the Job last."""

    pool: str
    namespace: str
    name: str
    objects: tuple[dict[str, Any], ...]

    @property
    def job(self) -> dict[str, Any]:
        return self.objects[-1]


def smoke_job(
    pool: GpuPoolSpec, *, image: str = DEFAULT_SMOKE_IMAGE, namespace: str, run: str, deadline_seconds: int
) -> SmokeJob:
    """The Job (and the claim templates a DRA pool needs first) that runs ``nvidia-smi`` on one GPU of ``pool``."""
    if not _IMAGE.match(image):
        raise SpecError.one("--smoke-image", "not an image reference", image,
                            hint=f"pass a pinned image, e.g. {DEFAULT_SMOKE_IMAGE}")  # fmt: skip
    if deadline_seconds < 1:
        raise SpecError.one("--timeout", "leaves the smoke Job less than 1 second", deadline_seconds,
                            hint="give verify --smoke a longer --timeout, e.g. 600")  # fmt: skip
    workload = gpu_workload(pool)
    name = f"gpuready-smoke-{pool.name.lower().replace('_', '-')}-{run}"[:63].rstrip("-")
    labels = {LABEL_SMOKE_RUN: run, LABEL_SMOKE_POOL: pool.name.lower().replace("_", "-")}
    container = workload.container({
        "name": "nvidia-smi",
        "image": image,
        "command": list(SMOKE_COMMAND),
        "securityContext": {"allowPrivilegeEscalation": False},
    })  # fmt: skip
    pod_spec = {**workload.pod_spec(), "restartPolicy": "Never", "containers": [container]}
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": name, "namespace": namespace, "labels": labels},
        "spec": {
            "backoffLimit": 0,
            "activeDeadlineSeconds": deadline_seconds,
            "ttlSecondsAfterFinished": TTL_AFTER_FINISHED,
            "template": {"metadata": {"labels": {**labels, **workload.pod_labels()}}, "spec": pod_spec},
        },
    }
    extra = [{**o, "metadata": {**o.get("metadata", {}), "namespace": namespace}} for o in workload.objects(namespace)]
    return SmokeJob(pool.name, namespace, name, (*extra, job))


def rerun(planned: SmokeJob, run: str, deadline_seconds: int) -> SmokeJob:
    """``planned`` (made with any run id, e.g. when a stack program planned it) for run ``run`` with a deadline of
    ``deadline_seconds``: the Job's name, run labels and ``activeDeadlineSeconds`` replaced."""
    if deadline_seconds < 1:
        raise SpecError.one("timeout", "leaves the smoke Job less than 1 second", deadline_seconds,
                            hint="give the verification a longer timeout")  # fmt: skip
    old = str(planned.job["metadata"]["labels"][LABEL_SMOKE_RUN])
    name = planned.name.removesuffix(old) + run
    job = copy.deepcopy(planned.job)
    job["metadata"]["name"] = name
    job["metadata"]["labels"][LABEL_SMOKE_RUN] = run
    job["spec"]["template"]["metadata"]["labels"][LABEL_SMOKE_RUN] = run
    job["spec"]["activeDeadlineSeconds"] = deadline_seconds
    return SmokeJob(planned.pool, planned.namespace, name, (*planned.objects[:-1], job))
