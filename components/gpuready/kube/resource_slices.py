"""ResourceSlices over the Kubernetes API (``resource.k8s.io/v1``, Kubernetes 1.34+): one paginated LIST.

DRA drivers publish the devices of each node in cluster-scoped ResourceSlices (``spec.driver``, ``spec.nodeName``,
``spec.pool``, ``spec.devices``; kubernetes.io "Dynamic Resource Allocation"). Verification lists them all and
filters by driver itself (field selectors on ``spec.driver`` are not relied on), through the same lightkube
``Client``, retry policy and deadline as the nodes (``nodes_api.NodeClient``). A cluster that does not serve
``resource.k8s.io/v1`` (older than 1.34, or the API disabled) answers 404: that is "no slices API", not an error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import httpx2
import lightkube
import msgspec
from lightkube.core.resource import ApiInfo, ResourceDef
from lightkube.generic_resource import GenericGlobalResource

from gpuready.core.advertisers.registry import advertiser_named
from gpuready.errors import bounded_text
from gpuready.kube.convergence import RELIST_BACKOFF
from gpuready.kube.deadline import Deadline
from gpuready.kube.errors import (
    RBAC_HINT,
    DeadlineError,
    ExpiredError,
    KubeApiError,
    KubeAuthError,
    KubeError,
    MalformedResponseError,
)
from gpuready.kube.nodes_api import NodeClient
from gpuready.kube.redaction import scrub
from gpuready.kube.retry import RETRYABLE_READ_STATUS
from gpuready.kube.transport import status_body
from gpuready.verify.audit import AuditReport
from gpuready.verify.dra_slices import device_slices, needs_slices, with_slices

RESOURCE_API = "resource.k8s.io/v1"
SLICE_POLL_SECONDS = 2.0
"""How often ``wait_for_slices`` lists the slices again (they have no watch here: one LIST per round)."""
SLICE_RESERVE_SHARE = 0.2
SLICE_RESERVE_SECONDS = 10.0
"""``verify`` ends its node watch this much (a fifth of ``--timeout``, at most 10 s) before the deadline when DRA
nodes may be involved, so the ResourceSlice audit still has time when the nodes did not converge."""


class ResourceSlice(GenericGlobalResource):
    """resource.k8s.io/v1 ResourceSlice as a generic resource decoded into dicts (see ``nodes_api.Node``)."""

    _api_info = ApiInfo(
        resource=ResourceDef("resource.k8s.io", "v1", "ResourceSlice"), plural="resourceslices", verbs=["list"]
    )


def list_resource_slices(client: NodeClient) -> list[dict[str, Any]] | None:
    """Every ResourceSlice of the cluster as a dict, or None when the cluster serves no ``resource.k8s.io/v1``.

    One paginated LIST (each request retried by the transport); errors name ResourceSlices."""
    for _ in range(3):
        try:
            return [dict(s) for s in client.kube.list(ResourceSlice, chunk_size=client.page_size)]
        except lightkube.ApiError as error:
            code = int(error.status.code or (error.response.status_code if error.response is not None else 0))
            if code == 404:
                return None
            if code == 410:  # a continue token expired: list again from the start
                continue
            raise _error(client, code, error.status.message or error.status.reason or f"HTTP {code}") from error
        except httpx2.HTTPStatusError as error:  # a body that is not a JSON Status
            code = error.response.status_code
            if code == 404:
                return None
            raise _error(client, code, str(status_body(error.response).get("message") or code)) from error
        except msgspec.DecodeError as error:
            raise MalformedResponseError(f"list resourceslices: malformed response: {error}", 200) from error
    raise ExpiredError("list resourceslices: continue token expired three times in a row; try again")


def list_slices_retrying(client: NodeClient) -> list[dict[str, Any]] | None:
    """``list_resource_slices``, retried like the node LIST (``convergence.RELIST_BACKOFF``) while its failures are
    transient, until the client's deadline; a retry that would end past it raises ``DeadlineError``."""
    failures = 0
    while True:
        try:
            return list_resource_slices(client)
        except KubeError as error:
            if not error.transient:
                raise
            wait = RELIST_BACKOFF.delay(failures)
            failures += 1
            if wait >= client.deadline.remaining():
                raise DeadlineError(
                    f"list resourceslices: {client.deadline.describe()} passed while retrying; last error: {error}",
                    str(error),
                ) from error
            if client.transport.progress is not None:
                client.transport.progress(f"{error}; next try in {wait:.1f}s")
            client.policy.sleep(wait)


def _error(client: NodeClient, code: int, message: str) -> Exception:
    message = scrub(message)  # a server may quote a token back
    if code in (401, 403):
        return KubeAuthError(
            f"list resourceslices: {code} for {client.target_description}: {message}. The missing permission is "
            f"'list' on 'resourceslices' (group resource.k8s.io, cluster scope); {RBAC_HINT}. Check with: "
            "kubectl auth can-i list resourceslices.resource.k8s.io",
            code,
        )
    return KubeApiError(f"list resourceslices: {code}: {message}", code, transient=code in RETRYABLE_READ_STATUS)


def audit_slices(client: NodeClient, report: AuditReport) -> AuditReport:
    """``report`` with the DRA nodes' slice findings; lists ResourceSlices only when the report has DRA nodes.

    When they cannot be listed (the deadline, a 403, failures until the deadline) the node report stands, with
    ``slices_unchecked`` saying why: verification degrades, it never discards what it found."""
    if not needs_slices(report):
        return report
    try:
        raw = list_slices_retrying(client)
    except KubeError as error:
        return replace(report, slices_unchecked=bounded_text(str(error)))
    return with_slices(report, device_slices(raw))


def wait_for_slices(
    client: NodeClient, report: AuditReport, deadline: Deadline, sleep: Callable[[float], None]
) -> AuditReport:
    """``audit_slices`` again every ``SLICE_POLL_SECONDS`` until the report is done or the deadline is near."""
    client.deadline = deadline
    while True:
        checked = audit_slices(client, report)
        if checked.done or checked.slices_unchecked or deadline.remaining() <= SLICE_POLL_SECONDS:
            return checked
        sleep(SLICE_POLL_SECONDS)


def slice_reserve(deadline: Deadline) -> float:
    """Seconds of the command's deadline kept for the ResourceSlice audit after the node watch:
    ``SLICE_RESERVE_SHARE`` of it, at most ``SLICE_RESERVE_SECONDS``."""
    if deadline.seconds is None:
        return 0.0
    return min(SLICE_RESERVE_SECONDS, deadline.seconds * SLICE_RESERVE_SHARE)


def may_need_slices(advertisers: Iterable[str] | None) -> bool:
    """Whether a verification may have DRA nodes: pools with an advertiser that publishes ResourceSlices, or any
    selected nodes (``None``: not known before they are listed)."""
    if advertisers is None:
        return True
    return any(advertiser_named(name).slice_driver is not None for name in advertisers)
