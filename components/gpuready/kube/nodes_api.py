"""Nodes over the Kubernetes API with lightkube's ``Client``: paginated LIST, WATCH from a resourceVersion, PATCH.

The three verbs are lightkube calls on a generic core/v1 ``Node`` resource (a ``GenericGlobalResource``), so
nodes are decoded straight into dicts, never into lightkube's models, and handed on as plain dicts for the
pure ``gpuready.verify`` code:

* LIST: ``Client.list(Node, chunk_size=500, labels=...)``. lightkube follows the ``continue`` tokens; the
  returned ``ListIterable`` exposes the list's ``resourceVersion`` once iterated, which the WATCH starts from.
  A 410 on a continue token (the snapshot was compacted) lists again from the start, up to three times.
* WATCH: ``Client.watch(Node, labels=..., resource_version=..., server_timeout=...)``; one stream per call
  (see ``transport.AttemptTransport``). A stream dropped mid-way ends the iteration like a server-side close;
  an in-band or HTTP 410 raises ``ExpiredError``; another in-band ERROR raises ``KubeApiError`` (``transient`` for
  429/5xx, like its HTTP twin) and a line that is not an event raises ``MalformedResponseError``.
* PATCH: ``Client.patch(Node, name, {"metadata": {"labels": ..., "resourceVersion": ...}},
  patch_type=PatchType.MERGE)``, one per node, conditioned on the version read (409 when it changed).
* GET: ``Client.get(Node, name)``, only to re-read a node whose conditioned PATCH met a 409.

Label selectors pass through verbatim: lightkube encodes ``labels={key: None}`` (an "exists" requirement) as
the bare key, so ``labels={selector: None}`` sends the caller's selector string unchanged, whatever it holds
(``in``, ``notin``, ``!=``, ``!key``); the API server parses it and answers 400 for a malformed one.

lightkube retries nothing; ``transport.AttemptTransport`` sits under its ``Client`` and applies our
``RetryPolicy`` to every request, counting each attempt in ``calls`` per verb. The credentials live in the
httpx2 client ``credentials.credentialed_http`` builds, so the ``Client`` is given the context without its user.
HTTP errors (lightkube's ``ApiError`` or ``httpx2.HTTPStatusError``): 401/403 become ``KubeAuthError`` naming the RBAC.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import httpx2
import lightkube
import msgspec
from lightkube.config.kubeconfig import SingleConfig
from lightkube.config.models import User
from lightkube.core.client import LabelSelector
from lightkube.core.exceptions import NotReadyError
from lightkube.types import PatchType

from gpuready.kube.credentials import credentialed_http
from gpuready.kube.deadline import Deadline
from gpuready.kube.errors import (
    RBAC_HINT,
    ConflictError,
    ExpiredError,
    KubeApiError,
    KubeAuthError,
    MalformedResponseError,
)
from gpuready.kube.exec_credentials import Recogniser
from gpuready.kube.kubeconfig import KubeTarget, load_target
from gpuready.kube.node_resource import Node, NodeList, WatchEvent
from gpuready.kube.redaction import redact_url, scrub
from gpuready.kube.retry import RETRYABLE_READ_STATUS, RetryPolicy
from gpuready.kube.transport import AttemptTransport, WatchWindowClosed, status_body

PAGE_SIZE = 500


class NodeClient:
    """Node verbs against one cluster. Create it with ``connect(...)``; close it when done."""

    def __init__(
        self, kube: lightkube.Client, transport: AttemptTransport, target_description: str, page_size: int = PAGE_SIZE
    ) -> None:
        self.kube = kube
        self.transport = transport
        self.target_description = target_description
        self.page_size = page_size

    @property
    def http(self) -> httpx2.Client:
        """The httpx2 client that carries the kubeconfig's TLS and credentials (its ``auth`` may be replaced)."""
        return self.transport.http

    @property
    def policy(self) -> RetryPolicy:
        return self.transport.policy

    @property
    def server(self) -> str:
        return self.transport.server

    @property
    def deadline(self) -> Deadline:
        """The deadline every request of this client respects (see ``transport.AttemptTransport``)."""
        return self.transport.deadline

    @deadline.setter
    def deadline(self, deadline: Deadline) -> None:
        self.transport.deadline = deadline

    @property
    def calls(self) -> Counter[str]:
        """HTTP attempts per verb (``list``, ``watch``, ``patch``), retries included."""
        return self.transport.calls

    def close(self) -> None:
        self.kube.close()  # closes the transport and, through it, the credentialed httpx2 client

    def __enter__(self) -> NodeClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def list_nodes(self, selector: str = "", resource: type[Any] = Node) -> NodeList:
        """Every node matching the label selector, in pages of ``page_size``; restarts if a page expires.

        Nodes are dicts, or instances of ``resource`` when it is a msgspec struct (``node_record.NodeRecord``).
        """
        for _ in range(3):
            listing = self.kube.list(resource, chunk_size=self.page_size, labels=_labels(selector))
            try:
                with self._errors("list"):
                    items: list[Any] = [dict(node) if resource is Node else node for node in listing]
            except ExpiredError:  # 410 on a continue token: the snapshot is gone, list again
                continue
            try:
                version = listing.resourceVersion
            except NotReadyError:  # the server sent no resourceVersion
                version = ""
            return NodeList(items, version)
        raise KubeApiError("list nodes: continue token expired three times in a row; the cluster churns too fast", 410)

    def watch_nodes(self, selector: str, resource_version: str, timeout_seconds: float) -> Iterator[WatchEvent]:
        """Node events after ``resource_version`` until the server ends the watch (after ``timeout_seconds``).

        A connection dropped mid-stream ends the iteration like a server-side close; the caller resumes from
        the last event's resourceVersion. Raises ``ExpiredError`` when that version is too old.
        """
        seconds = max(1, math.ceil(timeout_seconds))
        events = self.kube.watch(
            Node, labels=_labels(selector), resource_version=resource_version, server_timeout=seconds
        )
        self.transport.open_watch(read_timeout=timeout_seconds + 0.5)  # an idle stream stops at the deadline
        try:
            with self._errors("watch"):
                for kind, obj in events:
                    yield WatchEvent(kind, dict(obj))
        except (WatchWindowClosed, httpx2.TransportError, httpx2.StreamError):
            return  # ended, dropped or timed out: the caller re-watches from the last resourceVersion
        except (msgspec.DecodeError, ValueError, KeyError, TypeError) as error:  # a line that is not a watch event
            raise MalformedResponseError(f"watch nodes: malformed event from {self.server}: {error}", 200) from error
        finally:
            self.transport.close_watch()

    def patch_node_labels(
        self, name: str, labels: Mapping[str, str | None], resource_version: str = ""
    ) -> dict[str, Any]:
        """One JSON merge patch of ``metadata.labels`` (None removes a label); returns the updated node.

        With ``resource_version`` the patch carries it as a precondition (``metadata.resourceVersion``): the API
        server applies it only to the node as it was read, else answers 409 Conflict (``ConflictError``), so a
        label another writer set in between is never overruled; the caller re-reads and re-decides."""
        metadata: dict[str, Any] = {"labels": dict(labels)}
        if resource_version:
            metadata["resourceVersion"] = resource_version
        try:
            with self._errors("patch"):
                return dict(self.kube.patch(Node, name, {"metadata": metadata}, patch_type=PatchType.MERGE))
        except KubeApiError as error:
            if error.status != 409:
                raise
            raise ConflictError(
                f"patch node/{name}: 409 Conflict: the node changed since it was read", 409, error.reason
            ) from error

    def get_node(self, name: str) -> dict[str, Any]:
        """One node, as it is now (``label`` re-reads a node whose conditioned PATCH met a conflict)."""
        with self._errors("get"):
            return dict(self.kube.get(Node, name))

    # ---------------------------------------------------------------- errors

    @contextmanager
    def _errors(self, verb: str) -> Iterator[None]:
        """lightkube's ``ApiError`` / ``HTTPStatusError`` as gpuready errors (retrying is done underneath)."""
        try:
            yield
        except lightkube.ApiError as error:
            code = int(error.status.code or (error.response.status_code if error.response is not None else 0))
            body = {"message": error.status.message or "", "reason": error.status.reason or ""}
            raise self._status_error(verb, code, body) from error
        except httpx2.HTTPStatusError as error:  # a watch's own status, or a body that is not JSON
            raise self._status_error(verb, error.response.status_code, status_body(error.response)) from error
        except msgspec.DecodeError as error:  # the transport checks bodies; this is the last line of defence
            raise MalformedResponseError(
                f"{verb} nodes: malformed response from {self.server}: {error}", 200
            ) from error

    def _status_error(self, verb: str, code: int, body: Mapping[str, Any]) -> Exception:
        message = scrub(str(body.get("message") or body.get("reason") or f"HTTP {code}"))  # may quote a token
        if code == 410:
            return ExpiredError(f"{verb} nodes: 410 Gone: {message}")
        if code == 401:
            return KubeAuthError(
                f"{verb} nodes: 401 Unauthorized: the API server rejected the credentials of "
                f"{self.target_description}. Check that they are current and for this cluster "
                "(EKS: aws sts get-caller-identity, and the cluster's access entries); then: kubectl get nodes",
                401,
            )
        if code == 403:
            return KubeAuthError(
                f"{verb} nodes: 403 Forbidden for {self.target_description}: {message}. The missing permission is "
                f"'{verb}' on 'nodes' (cluster scope); {RBAC_HINT}. Check with: kubectl auth can-i {verb} nodes",
                403,
            )
        return KubeApiError(
            f"{verb} nodes: {code} {body.get('reason', '')}: {message}",
            code,
            str(body.get("reason", "")),
            transient=code in RETRYABLE_READ_STATUS,  # e.g. an in-band ERROR event: retried like its HTTP twin
        )


def _labels(selector: str) -> LabelSelector | None:
    """The selector verbatim: lightkube encodes ``{key: None}`` ("key exists") as the bare key."""
    return {selector: None} if selector else None


def connect(
    kubeconfig: str | None = None,
    context: str | None = None,
    *,
    policy: RetryPolicy | None = None,
    timeout: float = 10.0,
    env: Mapping[str, str] | None = None,
    deadline: Deadline | None = None,
    progress: Callable[[str], None] | None = None,
    credentials: Recogniser | None = None,
) -> NodeClient:
    """A ``NodeClient`` for the chosen kubeconfig and context (see ``kubeconfig.load_target``).

    ``deadline`` bounds every request and retry; ``progress`` hears about long retry waits; ``credentials``
    recognises the exec plugins run in-process (``gpuready.cloud_credentials.recognise``)."""
    target = load_target(kubeconfig, context, env, credentials=credentials)
    client = client_for(target, policy=policy, timeout=timeout)
    if deadline is not None:
        client.deadline = deadline
    client.transport.progress = progress
    return client


def client_for(target: KubeTarget, *, policy: RetryPolicy | None = None, timeout: float = 10.0) -> NodeClient:
    """A ``NodeClient`` for an already selected target. Credentials that take time to get (an exec plugin, an
    EKS token from STS) are fetched within the client's deadline (``NodeClient.deadline``)."""
    http, slow = credentialed_http(target, timeout)
    client = node_client(target.config, http, policy=policy, description=target.describe())
    if slow is not None:
        slow.deadline_of = client.transport.current_deadline
    return client


def node_client(
    config: SingleConfig, http: httpx2.Client, *, policy: RetryPolicy | None = None, description: str = "the cluster"
) -> NodeClient:
    """A ``NodeClient`` whose lightkube ``Client`` sends through ``http`` (which carries TLS and credentials)."""
    server = redact_url(config.cluster.server)
    transport = AttemptTransport(http, policy or RetryPolicy(), server=server, target=description)
    anonymous = config._replace(user=User())  # the credentials are applied once, by ``http``
    kube = lightkube.Client(anonymous, timeout=http.timeout, trust_env=False, transport=transport)
    return NodeClient(kube, transport, description)
