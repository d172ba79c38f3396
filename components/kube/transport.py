"""The layer between lightkube's ``Client`` and the wire: bounded retries, per-verb attempt counts, watch windows.

lightkube 1.0.1 builds every request (paths, ``limit``/``continue``, label selectors, merge-patch bodies) and
decodes every response, but retries nothing. Its ``Client`` accepts an httpx2 ``transport``; ``AttemptTransport``
is that transport. It hands each request to a second httpx2 client, the one lightkube's own
``client_adapter.Client`` configures from the kubeconfig (TLS, token, client certificate, exec plugin or the
in-process EKS token, proxies from the environment), and wraps that send in the ``RetryPolicy``:

* each attempt counts in ``calls`` under its verb: ``list`` (GET), ``watch`` (GET with ``watch``), ``patch``;
* 429 (``Retry-After`` honoured), 5xx, timeouts and dropped connections are retried (PATCH also retries 409);
  a page of a LIST is retried with the same ``continue`` token, because retrying happens per request;
* a refused connection, a failing exec plugin and exhausted retries raise ``KubeUnreachableError``,
  ``KubeConfigError`` and ``KubeApiError`` at once; any other status goes back to lightkube, which raises
  ``ApiError`` (the caller maps 401/403/410);
* a response body is read inside the retry loop, so a connection dropped mid-body is retried too.

Watches: lightkube's ``watch()`` reconnects by itself whenever the server ends a stream. A watch window
(``open_watch``) admits exactly one stream (its retries included) and gives it a read timeout, so an idle
stream stops at the caller's deadline; lightkube's reconnect then raises ``WatchWindowClosed``, which the
caller treats as the end of the watch. lightkube's ``watch()`` has no ``allowWatchBookmarks`` parameter; this
layer adds it, so quiet watches keep a fresh resourceVersion to resume from.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx2
import msgspec
from lightkube.core.exceptions import ConfigError

from components.kube.errors import KubeApiError, KubeConfigError, KubeUnreachableError
from components.kube.retry import RETRYABLE_PATCH_STATUS, RETRYABLE_READ_STATUS, RetryPolicy, parse_retry_after

_decode = msgspec.json.Decoder().decode


class WatchWindowClosed(Exception):
    """lightkube tried to open another watch stream after the window's one stream ended."""


class AttemptTransport(httpx2.BaseTransport):
    """Sends lightkube's requests through ``http`` with bounded retries, counting every attempt per verb."""

    def __init__(
        self, http: httpx2.Client, policy: RetryPolicy, *, server: str, target: str, resource: str = "nodes"
    ) -> None:
        self.http = http
        self.policy = policy
        self.server = server or "the API server"
        self.target = target
        """Who we are, for error messages (``KubeTarget.describe()``)."""
        self.resource = resource
        self.calls: Counter[str] = Counter()
        self._watch_slots = 0
        self._watch_read_timeout: float | None = None
        self._stream: httpx2.Response | None = None

    # ---------------------------------------------------------------- watch windows

    def open_watch(self, read_timeout: float) -> None:
        """Admit one watch stream, which stops reading after ``read_timeout`` seconds without data."""
        self._watch_slots, self._watch_read_timeout = 1, read_timeout

    def close_watch(self) -> None:
        """End the window: close its stream (if the caller stopped early) and admit no more."""
        self._watch_slots = 0
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    # ---------------------------------------------------------------- one request, with retries

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        verb = _verb(request)
        stream = verb == "watch"
        if stream:
            self._prepare_watch(request)
        retryable = RETRYABLE_PATCH_STATUS if verb == "patch" else RETRYABLE_READ_STATUS
        last, last_status = "", 0
        retry_after: float | None = None
        for attempt in range(self.policy.attempts):
            if attempt:
                self.policy.sleep(self.policy.delay(attempt - 1, retry_after))
            retry_after = None
            self.calls[verb] += 1
            try:
                response = self.http.send(request, stream=stream)
                if response.status_code in retryable:
                    retry_after = parse_retry_after(response.headers.get("retry-after"))
                    last_status, last = response.status_code, _describe(response)
                    continue
            except httpx2.ConnectError as error:  # refused or unresolvable: kubectl does not retry either
                raise KubeUnreachableError(f"cannot connect to {self.server}: {error}") from error
            except httpx2.TransportError as error:  # reset, dropped or timed out: retried
                last, last_status = f"{type(error).__name__}: {error or 'connection dropped'}", 0
                continue
            except ConfigError as error:  # an exec plugin failed: not retryable
                raise KubeConfigError(f"credentials for {self.target}: {error}") from error
            if response.status_code >= 300:
                response.headers.setdefault("Content-Type", "text/plain")  # lightkube indexes it unguarded
            elif stream:
                self._stream = response
            return response
        gave_up = f"{verb} {self.resource}: gave up after {self.policy.attempts} attempts on {self.server}; "
        if last_status:
            raise KubeApiError(f"{gave_up}last error: {last}", last_status)
        raise KubeUnreachableError(f"{gave_up}last error: {last}")

    def _prepare_watch(self, request: httpx2.Request) -> None:
        if self._watch_slots <= 0:
            raise WatchWindowClosed
        self._watch_slots -= 1
        request.url = request.url.copy_merge_params({"allowWatchBookmarks": "true"})
        timeout = dict(request.extensions.get("timeout") or {})
        timeout["read"] = self._watch_read_timeout  # lightkube leaves watches without one; stop at the deadline
        request.extensions = {**request.extensions, "timeout": timeout}

    def close(self) -> None:
        self.close_watch()
        self.http.close()


def _verb(request: httpx2.Request) -> str:
    if request.method == "GET":
        return "watch" if request.url.params.get("watch") in ("true", "1") else "list"
    return request.method.lower()


def _describe(response: httpx2.Response) -> str:
    """``<code> <reason>: <message>`` of an error response."""
    body = status_body(response)
    return f"{response.status_code} {body.get('reason', '')}: {body.get('message', '')}".strip()


def status_body(response: httpx2.Response) -> dict[str, Any]:
    """The Status object of an error response, or its first 200 characters as the message; closes the response."""
    try:
        response.read()
    except httpx2.TransportError as error:  # the body was cut off: the status code alone must do
        return {"message": f"(body unreadable: {type(error).__name__})"}
    finally:
        response.close()
    try:
        body = _decode(response.content)
    except msgspec.DecodeError:
        return {"message": response.text[:200]}
    return body if isinstance(body, dict) else {}
