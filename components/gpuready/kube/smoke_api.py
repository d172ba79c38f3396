"""The GPU smoke run over the Kubernetes API: create each pool's Job, wait for it within the deadline, read its pod's
state and log, and delete everything it created whatever happens (a failed create, a Job that never starts, the
deadline, an interrupt). Through the same lightkube ``Client``, retry policy and deadline as the nodes.

Waiting reads each Job once per ``POLL_SECONDS`` (one GET per pool per round); cleanup gets its own short deadline
(``CLEANUP_SECONDS``) so that it still runs once the command's deadline has passed, and the Jobs carry
``ttlSecondsAfterFinished`` as a last resort should even that fail.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Literal

import httpx2
import lightkube
from lightkube.core.resource import ApiInfo, ResourceDef
from lightkube.generic_resource import GenericNamespacedResource
from lightkube.types import CascadeType

from gpuready.core.health.nccl_smoke import ANNOTATION_NCCL_NETWORKS, MARKER, judge_nccl_log, pod_logs_command
from gpuready.core.health.smoke_job import LABEL_SMOKE_POOL, LABEL_SMOKE_RUN, SmokeJob
from gpuready.kube.deadline import Deadline
from gpuready.kube.errors import KubeApiError, KubeAuthError, KubeError
from gpuready.kube.nodes_api import NodeClient
from gpuready.record import record

POLL_SECONDS = 1.0
CLEANUP_SECONDS = 30.0
LOG_LINES = 20
_NCCL_SHOWN = re.compile(rf"NCCL INFO Using network|NCCL WARN|NET/Socket|{re.escape(MARKER)}")
"""The log lines of the NCCL run a report shows (the rest stays in the pods' logs)."""
SmokeStatus = Literal["passed", "failed", "not-started", "timed-out", "no-nodes"]
_NCCL_UNFINISHED: dict[str, tuple[str, str]] = {
    "not-started": (
        "a pod of the two-node all-reduce never ran: the pool needs two nodes, each with all its GPUs and "
        "fabric devices free (a node group below two nodes, a node not advertising its fabric, or pods "
        "that do not tolerate its taints)",
        "look at why the pods were not scheduled, then run verify --smoke again",
    ),
    "timed-out": (
        "the all-reduce did not finish before the deadline: the PyTorch image still pulling, or the two "
        "pods never met (rank 0's DNS name <job>-0.<job>, the rendezvous port blocked)",
        "give it a longer --timeout or pre-pull the image, and read the pods' logs",
    ),
}
"""Why a two-node run did not finish, and what to do, by status."""


def _resource(group: str, kind: str, plural: str) -> type[GenericNamespacedResource]:
    version = "v1"
    info = ApiInfo(resource=ResourceDef(group, version, kind), plural=plural, verbs=["post", "get", "list", "delete"])
    return type(kind, (GenericNamespacedResource,), {"_api_info": info})


JOB = _resource("batch", "Job", "jobs")
POD = _resource("", "Pod", "pods")
_KINDS = {("batch/v1", "Job"): JOB, ("v1", "Pod"): POD, ("v1", "Service"): _resource("", "Service", "services"),
          ("resource.k8s.io/v1", "ResourceClaimTemplate"): _resource("resource.k8s.io", "ResourceClaimTemplate",
                                                                     "resourceclaimtemplates")}  # fmt: skip


@record(frozen=True, slots=True)
class SmokeResult:
    """How one pool's smoke Job ended."""

    pool: str
    job: str
    status: SmokeStatus
    node: str
    """The node its pod ran on ("" when it never got one)."""
    detail: str
    """Why it failed or never started (the pod's phase, waiting reason, scheduling message)."""
    log: tuple[str, ...]
    """The last lines of its pod's log."""
    left_behind: tuple[str, ...] = ()
    """Objects that could not be deleted (``kind/name: error``)."""
    cause: str = ""
    """Why it failed, when the run knows better than its status (the NCCL run's judged log); "" otherwise."""
    fix: str = ""


def run_smoke(
    client: NodeClient, jobs: Sequence[SmokeJob], deadline: Deadline, sleep: Callable[[float], None]
) -> list[SmokeResult]:
    """Run every pool's Job at once, wait for them all within ``deadline``, then delete what was created. API
    errors (RBAC, a namespace that does not exist) are raised as gpuready errors after the cleanup."""
    try:
        return _run(client, jobs, deadline, sleep)
    except lightkube.ApiError as error:
        code = int(error.status.code or 0)
        raise _api_error(code, error.status.message or error.status.reason or f"HTTP {code}") from error
    except httpx2.HTTPStatusError as error:
        raise _api_error(error.response.status_code, str(error)) from error


def _api_error(code: int, message: str) -> KubeError:
    text = f"smoke test: the API server answered {code}: {message}"
    if code in (401, 403):
        return KubeAuthError(
            f"{text}. It needs what deploy/rbac/smoke.yaml grants (jobs, pods, pods/log, services) in the smoke "
            "namespace; check with: kubectl auth can-i create jobs.batch -n <namespace>", code,
        )  # fmt: skip
    return KubeApiError(text, code)


def _run(
    client: NodeClient, jobs: Sequence[SmokeJob], deadline: Deadline, sleep: Callable[[float], None]
) -> list[SmokeResult]:
    created: list[tuple[SmokeJob, list[tuple[type[GenericNamespacedResource], str]]]] = []
    results: list[SmokeResult] = []
    try:
        for job in jobs:
            made: list[tuple[type[GenericNamespacedResource], str]] = []
            created.append((job, made))
            for obj in job.objects:
                resource = _KINDS[(str(obj["apiVersion"]), str(obj["kind"]))]
                client.kube.create(resource.from_dict(obj), namespace=job.namespace)
                made.append((resource, str(obj["metadata"]["name"])))
        finished = _wait(client, jobs, deadline, sleep)
        results = [_result(client, job, finished.get(job.name)) for job in jobs]
    finally:
        client.deadline = Deadline(CLEANUP_SECONDS)
        left = {job.name: _cleanup(client, job, made) for job, made in created}
        results = [_with_left(r, left.get(r.job, ())) for r in results]
    return results


def _wait(
    client: NodeClient, jobs: Sequence[SmokeJob], deadline: Deadline, sleep: Callable[[float], None]
) -> dict[str, SmokeStatus]:
    finished: dict[str, SmokeStatus] = {}
    while len(finished) < len(jobs) and not deadline.expired:
        for job in jobs:
            if job.name in finished:
                continue
            status = dict(client.kube.get(JOB, job.name, namespace=job.namespace)).get("status") or {}
            if int(status.get("succeeded") or 0) > 0:
                finished[job.name] = "passed"
            elif int(status.get("failed") or 0) > 0 or _condition(status, "Failed"):
                finished[job.name] = "failed"
        if len(finished) < len(jobs):
            sleep(min(POLL_SECONDS, deadline.remaining()))
    return finished


def _condition(status: dict[str, Any], kind: str) -> bool:
    return any(c.get("type") == kind and c.get("status") == "True" for c in status.get("conditions") or [])


def _pods(client: NodeClient, job: SmokeJob) -> list[dict[str, Any]]:
    labels = {LABEL_SMOKE_RUN: job.job["metadata"]["labels"][LABEL_SMOKE_RUN],
              LABEL_SMOKE_POOL: job.job["metadata"]["labels"][LABEL_SMOKE_POOL]}  # fmt: skip
    return [dict(p) for p in client.kube.list(POD, namespace=job.namespace, labels=labels)]


def _log(client: NodeClient, job: SmokeJob, pod: dict[str, Any]) -> tuple[str, ...]:
    """The whole log of ``pod`` once it has run ("" lines without), or one line saying why it cannot be read."""
    if not pod or (pod.get("status") or {}).get("phase") not in ("Running", "Succeeded", "Failed"):
        return ()
    try:
        return tuple(line.rstrip("\n") for line in client.kube.log(pod["metadata"]["name"], namespace=job.namespace))
    except (lightkube.ApiError, httpx2.HTTPError) as error:
        return (f"(log not readable: {error})",)


def _result(client: NodeClient, job: SmokeJob, finished: SmokeStatus | None) -> SmokeResult:
    pods = _pods(client, job)
    networks = str((job.job["metadata"].get("annotations") or {}).get(ANNOTATION_NCCL_NETWORKS) or "")
    if networks:
        return _nccl_result(client, job, pods, finished, tuple(networks.split(",")))
    pod = pods[-1] if pods else {}
    node = str((pod.get("spec") or {}).get("nodeName") or "")
    log = _log(client, job, pod)[-LOG_LINES:]
    if finished is not None:
        return SmokeResult(job.pool, job.name, finished, node, _pod_detail(pod), log)
    started = bool(pod) and (pod.get("status") or {}).get("phase") not in (None, "Pending")
    detail = _pod_detail(pod) if pod else "no pod was created for the Job (quota, admission, or no Job controller)"
    return SmokeResult(job.pool, job.name, "timed-out" if started else "not-started", node, detail, log)


def _nccl_result(
    client: NodeClient, job: SmokeJob, pods: list[dict[str, Any]], finished: SmokeStatus | None,
    expected: tuple[str, ...],
) -> SmokeResult:  # fmt: skip
    """The two-node all-reduce's result: its pods' logs judged by the NCCL network they show (``nccl_smoke``)."""
    nodes = ",".join(sorted({str((p.get("spec") or {}).get("nodeName") or "") for p in pods} - {""}))
    logs = [(str(p["metadata"]["name"]), _log(client, job, p)) for p in pods]
    lines = [line for _, log in logs for line in log]
    labels = {k: str(v) for k, v in job.job["metadata"]["labels"].items() if k in (LABEL_SMOKE_RUN, LABEL_SMOKE_POOL)}
    containers = job.job["spec"]["template"]["spec"].get("containers") or [{}]
    image = str(containers[-1].get("image") or "")
    verdict = judge_nccl_log(lines, expected, pod_logs_command(job.namespace, labels), image)
    shown = tuple(f"{name}: {line}" for name, log in logs for line in log if _NCCL_SHOWN.search(line))
    shown = shown[-LOG_LINES:] or tuple(f"{name}: {line}" for name, log in logs for line in log[-5:])
    if finished is None:
        started = any((p.get("status") or {}).get("phase") not in (None, "Pending") for p in pods)
        detail = "; ".join(f"{p['metadata']['name']}: {_pod_detail(p)}" for p in pods) or (
            "no pod was created for the Job (quota, admission, or no Job controller)"
        )
        status: SmokeStatus = "timed-out" if started else "not-started"
        cause, fix = _NCCL_UNFINISHED[status]
        return SmokeResult(job.pool, job.name, status, nodes, detail, shown, cause=cause,
                           fix=f"{fix}: {pod_logs_command(job.namespace, labels)}")  # fmt: skip
    if finished == "failed" and (verdict.ok or not verdict.networks):  # the pods say why, not NCCL's network
        detail = "; ".join(f"{p['metadata']['name']}: {_pod_detail(p)}" for p in pods)
        cause = "the Job failed although NCCL ran on the fabric (see the log)" if verdict.ok else verdict.cause
        fix = verdict.fix or f"read the pods' logs: {pod_logs_command(job.namespace, labels)}"
        return SmokeResult(job.pool, job.name, "failed", nodes, detail, shown, cause=cause, fix=fix)
    ended: SmokeStatus = "passed" if verdict.ok and finished == "passed" else "failed"
    return SmokeResult(job.pool, job.name, ended, nodes, verdict.detail, shown,
                       cause="" if verdict.ok else verdict.cause, fix="" if verdict.ok else verdict.fix)  # fmt: skip


def _pod_detail(pod: dict[str, Any]) -> str:
    status = pod.get("status") or {}
    parts = [f"pod phase {status.get('phase') or 'unknown'}"]
    for condition in status.get("conditions") or []:
        if condition.get("status") == "False" and condition.get("message"):
            parts.append(f"{condition.get('type')}: {condition.get('reason', '')} {condition['message']}".strip())
    for container in status.get("containerStatuses") or []:
        state = container.get("state") or {}
        for kind in ("waiting", "terminated"):
            if kind in state:
                item = state[kind]
                parts.append(f"{kind}: {item.get('reason', '')} {item.get('message', '')}".strip()
                             + (f" (exit code {item['exitCode']})" if "exitCode" in item else ""))  # fmt: skip
    return "; ".join(parts)


def _cleanup(client: NodeClient, job: SmokeJob, made: list[tuple[type[GenericNamespacedResource], str]]) -> list[str]:
    """Delete the Job (its pods with it, in the background), its pods explicitly, then the objects it needed."""
    left: list[str] = []
    targets: list[tuple[type[GenericNamespacedResource], str]] = [r for r in made if r[0] is JOB]
    try:
        targets += [(POD, str(p["metadata"]["name"])) for p in _pods(client, job)]
    except (lightkube.ApiError, httpx2.HTTPError, KubeApiError) as error:
        left.append(f"pods of job/{job.name}: not listed: {error}")
    targets += [r for r in made if r[0] is not JOB]
    for resource, name in targets:
        try:
            client.kube.delete(resource, name, namespace=job.namespace, cascade=CascadeType.BACKGROUND)
        except lightkube.ApiError as error:
            if int(error.status.code or 0) != 404:
                left.append(f"{resource.__name__.lower()}/{name}: {error.status.message or error}")
        except (httpx2.HTTPError, KubeApiError) as error:
            left.append(f"{resource.__name__.lower()}/{name}: {error}")
    return left


def _with_left(result: SmokeResult, left: Sequence[str]) -> SmokeResult:
    if not left:
        return result
    return SmokeResult(result.pool, result.job, result.status, result.node, result.detail, result.log, tuple(left),
                       result.cause, result.fix)  # fmt: skip
