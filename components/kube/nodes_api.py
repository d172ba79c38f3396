"""Nodes over the Kubernetes API: paginated LIST, WATCH from a resourceVersion, and one label PATCH per node.

lightkube supplies the connection (kubeconfig, TLS, token, client certificate and exec-plugin auth); the
three verbs are sent here so that pagination, retries and call counts are exact, label selectors pass
through verbatim, and nodes come back as plain dicts for the pure ``components.verify`` code. Every retried
attempt counts as a call in ``calls``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx2
import msgspec
from lightkube.config.client_adapter import Client as http_client_for
from lightkube.config.client_adapter import ConnectionParams
from lightkube.core.exceptions import ConfigError

from components.kube.eks_token import EksTokenAuth
from components.kube.errors import (
    RBAC_HINT,
    ExpiredError,
    KubeApiError,
    KubeAuthError,
    KubeConfigError,
    KubeUnreachableError,
)
from components.kube.kubeconfig import KubeTarget, load_target
from components.kube.retry import RETRYABLE_PATCH_STATUS, RETRYABLE_READ_STATUS, RetryPolicy, parse_retry_after

NODES_PATH = "/api/v1/nodes"
PAGE_SIZE = 500
MERGE_PATCH = "application/merge-patch+json"
_decode = msgspec.json.Decoder().decode
_encode = msgspec.json.Encoder().encode


@dataclass(frozen=True, slots=True)
class NodeList:
    """All nodes of one (possibly paginated) LIST and the resourceVersion to watch from."""

    items: list[dict[str, Any]]
    resource_version: str


@dataclass(frozen=True, slots=True)
class WatchEvent:
    """One watch event: ADDED, MODIFIED, DELETED or BOOKMARK."""

    type: str
    object: dict[str, Any]

    @property
    def resource_version(self) -> str:
        return str(self.object.get("metadata", {}).get("resourceVersion", ""))


@dataclass
class NodeClient:
    """Node verbs against one cluster. Create it with ``connect(...)``; close it when done."""

    http: httpx2.Client
    target_description: str = "the cluster"
    server: str = ""
    policy: RetryPolicy = field(default_factory=RetryPolicy)
    page_size: int = PAGE_SIZE
    calls: Counter[str] = field(default_factory=Counter)
    """HTTP attempts per verb (``list``, ``watch``, ``patch``), retries included."""

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> NodeClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def list_nodes(self, selector: str = "") -> NodeList:
        """Every node matching the label selector, in pages of ``page_size``; restarts if a page expires."""
        for _ in range(3):
            items: list[dict[str, Any]] = []
            params = {"limit": str(self.page_size)}
            if selector:
                params["labelSelector"] = selector
            try:
                while True:
                    page = self._send("list", "GET", NODES_PATH, params=params)
                    items.extend(page.get("items") or ())
                    metadata = page.get("metadata") or {}
                    token = metadata.get("continue")
                    if not token:
                        return NodeList(items, str(metadata.get("resourceVersion", "")))
                    params = {**params, "continue": str(token)}
            except ExpiredError:  # 410 on a continue token: the snapshot is gone, list again
                continue
        raise KubeApiError("list nodes: continue token expired three times in a row; the cluster churns too fast", 410)

    def watch_nodes(self, selector: str, resource_version: str, timeout_seconds: float) -> Iterator[WatchEvent]:
        """Node events after ``resource_version`` until the server ends the watch (after ``timeout_seconds``).

        A connection dropped mid-stream ends the iteration like a server-side close; the caller resumes from
        the last event's resourceVersion. Raises ``ExpiredError`` when that version is too old.
        """
        seconds = max(1, math.ceil(timeout_seconds))
        params = {
            "watch": "1",
            "resourceVersion": resource_version,
            "timeoutSeconds": str(seconds),
            "allowWatchBookmarks": "true",
        }
        if selector:
            params["labelSelector"] = selector
        timeout = httpx2.Timeout(self.http.timeout.connect, read=timeout_seconds + 0.5)  # idle stream: stop at deadline
        response: httpx2.Response = self._send("watch", "GET", NODES_PATH, params=params, stream=True, timeout=timeout)
        try:
            for line in response.iter_lines():
                if not line.strip():
                    continue
                event = _decode(line)
                kind, obj = str(event.get("type", "")), event.get("object") or {}
                if kind == "ERROR":
                    code = int(obj.get("code") or 0)
                    if code == 410:
                        raise ExpiredError(f"watch nodes: {obj.get('message', 'resourceVersion too old')}")
                    raise self._status_error("watch", code, obj)
                yield WatchEvent(kind, obj)
        except (httpx2.TransportError, httpx2.StreamError):
            return  # dropped or timed out mid-stream: the caller re-watches from the last resourceVersion
        finally:
            response.close()

    def patch_node_labels(self, name: str, labels: Mapping[str, str | None]) -> dict[str, Any]:
        """One JSON merge patch of ``metadata.labels`` (None removes a label); returns the updated node."""
        body = _encode({"metadata": {"labels": dict(labels)}})
        headers = {"Content-Type": MERGE_PATCH}
        result: dict[str, Any] = self._send("patch", "PATCH", f"{NODES_PATH}/{name}", content=body, headers=headers)
        return result

    # ---------------------------------------------------------------- one request, with retries

    def _send(
        self,
        verb: str,
        method: str,
        path: str,
        *,
        params: Mapping[str, str] | None = None,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        stream: bool = False,
        timeout: httpx2.Timeout | None = None,
    ) -> Any:
        retryable = RETRYABLE_PATCH_STATUS if verb == "patch" else RETRYABLE_READ_STATUS
        last, last_status = "", 0
        retry_after: float | None = None
        for attempt in range(self.policy.attempts):
            if attempt:
                self.policy.sleep(self.policy.delay(attempt - 1, retry_after))
            retry_after = None
            self.calls[verb] += 1
            request = self.http.build_request(
                method, path, params=params, content=content, headers=headers,
                timeout=timeout if timeout is not None else self.http.timeout,
            )  # fmt: skip
            try:
                response = self.http.send(request, stream=stream)
            except httpx2.ConnectError as error:  # refused or unresolvable: kubectl does not retry either
                raise KubeUnreachableError(f"cannot connect to {self.server or 'the API server'}: {error}") from error
            except (httpx2.TransportError, ConfigError) as error:
                if isinstance(error, ConfigError):  # an exec plugin failed: not retryable
                    raise KubeConfigError(f"credentials for {self.target_description}: {error}") from error
                last, last_status = f"{type(error).__name__}: {error or 'connection dropped'}", 0
                continue
            if response.status_code < 300:
                if stream:
                    return response
                return _decode(response.content)
            if stream:
                response.read()
                response.close()
            body = _status_body(response)
            if response.status_code in retryable:
                retry_after = parse_retry_after(response.headers.get("retry-after"))
                last_status = response.status_code
                last = f"{last_status} {body.get('reason', '')}: {body.get('message', '')}".strip()
                continue
            raise self._status_error(verb, response.status_code, body)
        gave_up = (
            f"{verb} nodes: gave up after {self.policy.attempts} attempts on {self.server or 'the API server'}; "
            f"last error: {last}"
        )
        if last_status:
            raise KubeApiError(gave_up, last_status)
        raise KubeUnreachableError(gave_up)

    def _status_error(self, verb: str, code: int, body: Mapping[str, Any]) -> Exception:
        message = str(body.get("message") or body.get("reason") or f"HTTP {code}")
        if code == 410:
            return ExpiredError(f"{verb} nodes: {message}")
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
            f"{verb} nodes: {code} {body.get('reason', '')}: {message}", code, str(body.get("reason", ""))
        )


def _status_body(response: httpx2.Response) -> dict[str, Any]:
    try:
        body = _decode(response.content)
    except msgspec.DecodeError:
        return {"message": response.text[:200]}
    return body if isinstance(body, dict) else {}


def connect(
    kubeconfig: str | None = None,
    context: str | None = None,
    *,
    policy: RetryPolicy | None = None,
    timeout: float = 10.0,
    env: Mapping[str, str] | None = None,
) -> NodeClient:
    """A ``NodeClient`` for the chosen kubeconfig and context (see ``kubeconfig.load_target``)."""
    target = load_target(kubeconfig, context, env)
    return client_for(target, policy=policy, timeout=timeout)


def client_for(target: KubeTarget, *, policy: RetryPolicy | None = None, timeout: float = 10.0) -> NodeClient:
    """A ``NodeClient`` for an already selected target."""
    try:
        http = http_client_for(target.config, ConnectionParams(timeout=httpx2.Timeout(timeout), trust_env=True))
    except (ConfigError, OSError, ValueError) as error:
        raise KubeConfigError(f"{target.describe()}: cannot set up the connection: {error}") from error
    if target.eks is not None:
        http.auth = EksTokenAuth(target.eks)
    return NodeClient(http, target.describe(), target.server, policy or RetryPolicy())
