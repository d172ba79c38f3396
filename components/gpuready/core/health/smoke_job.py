"""The GPU acceptance Job of one pool: one short Job that asks for the pool's GPU resource, lands on the pool through
the workload helper (its node selector, tolerations and cloud fields) and runs ``nvidia-smi``. Pure: objects only.

The Job bounds itself (``activeDeadlineSeconds``, ``backoffLimit: 0``) and is collected by the TTL controller
(``ttlSecondsAfterFinished``) should the run that created it never delete it.
"""

from __future__ import annotations

import copy
from typing import Any

from gpuready.core.health import nccl_smoke
from gpuready.core.health.smoke_image import DEFAULT_NCCL_IMAGE, DEFAULT_SMOKE_IMAGE, is_image_reference
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.workload import gpu_workload
from gpuready.errors import SpecError
from gpuready.record import record

SMOKE_COMMAND = ("nvidia-smi",)
LABEL_SMOKE_RUN = "gpuready.io/smoke-run"
LABEL_SMOKE_POOL = "gpuready.io/smoke-pool"
TTL_AFTER_FINISHED = 300


@record(frozen=True, slots=True)
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
    pool: GpuPoolSpec, *, image: str = DEFAULT_SMOKE_IMAGE, namespace: str, run: str, deadline_seconds: int,
    nccl_image: str | None = None,
) -> SmokeJob:  # fmt: skip
    """The Job (and the claim templates a DRA pool needs first) that runs ``nvidia-smi`` on one GPU of ``pool``;
    on a fabric pool with room for two nodes, the two-node NCCL all-reduce (``nccl_smoke``) in ``nccl_image``
    (None: the image its cloud names for the fabric, ``nccl_smoke.default_image``)."""
    for flag, given, example in (("--smoke-image", image, DEFAULT_SMOKE_IMAGE),
                                 ("--smoke-nccl-image", nccl_image, DEFAULT_NCCL_IMAGE)):  # fmt: skip
        if given is not None and not is_image_reference(given):
            raise SpecError.one(flag, "not an image reference", given, hint=f"pass a pinned image, e.g. {example}")
    if deadline_seconds < 1:
        raise SpecError.one("--timeout", "leaves the smoke Job less than 1 second", deadline_seconds,
                            hint="give verify --smoke a longer --timeout, e.g. 600")  # fmt: skip
    pool_label = pool.name.lower().replace("_", "-")
    labels = {LABEL_SMOKE_RUN: run, LABEL_SMOKE_POOL: pool_label}
    if nccl_smoke.wants_nccl_run(pool):
        # An Indexed Job's pod hostname is ``<job>-<index>``: the name leaves room for the index.
        name = f"gpuready-nccl-{pool_label}-{run}"[: 63 - 2].rstrip("-")
        objects = nccl_smoke.nccl_objects(pool, image=nccl_image or nccl_smoke.default_image(pool),
                                          namespace=namespace, name=name, labels=labels,
                                          deadline_seconds=deadline_seconds, ttl=TTL_AFTER_FINISHED)  # fmt: skip
        return SmokeJob(pool.name, namespace, name, tuple(objects))
    workload = gpu_workload(pool)
    name = f"gpuready-smoke-{pool_label}-{run}"[:63].rstrip("-")
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
    objects = [copy.deepcopy(o) for o in planned.objects]
    job = objects[-1]
    job["metadata"]["name"] = name
    job["metadata"]["labels"][LABEL_SMOKE_RUN] = run
    job["spec"]["template"]["metadata"]["labels"][LABEL_SMOKE_RUN] = run
    job["spec"]["activeDeadlineSeconds"] = deadline_seconds
    pod_spec = job["spec"]["template"]["spec"]
    for service in (o for o in objects if o["kind"] == "Service" and o["metadata"]["name"] == planned.name):
        # The two-node run's headless Service: named as the Job, selecting its run's pods (``nccl_smoke``).
        service["metadata"]["name"] = name
        service["metadata"]["labels"][LABEL_SMOKE_RUN] = run
        service["spec"]["selector"][LABEL_SMOKE_RUN] = run
        pod_spec["subdomain"] = name
    return SmokeJob(planned.pool, planned.namespace, name, tuple(objects))
