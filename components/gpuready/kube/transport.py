"""The layer between lightkube's ``Client`` and the wire: bounded retries, per-verb attempt counts, watch windows.

lightkube 1.0.1 builds every request (paths, ``limit``/``continue``, label selectors, merge-patch bodies) and
decodes every response, but retries nothing. Its ``Client`` accepts an httpx2 ``transport``; ``AttemptTransport``
is that transport. It hands each request to a second httpx2 client, the one lightkube's own
``client_adapter.Client`` configures from the kubeconfig (TLS, token, client certificate, exec plugin or the
in-process EKS token, proxies from the environment), and wraps that send in the ``RetryPolicy``:

* each attempt counts in ``calls`` under its verb: ``list`` (GET), ``watch`` (GET with ``watch``), ``patch``;
* 429 (``Retry-After`` honoured), 5xx, timeouts, dropped connections and malformed success bodies (truncated
  or invalid JSON, an HTML page, another content type) are retried (a 409 is not: PATCHes are conditioned);
* the command's ``deadline`` bounds it all: each attempt's timeouts are cut to the time left, and a backoff or
  ``Retry-After`` that would end past the deadline is not slept: ``DeadlineError`` at once;
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
from collections.abc import Callable, Iterator
from typing import Any

import httpx2
import msgspec
from lightkube.core.exceptions import ConfigError

from gpuready.kube.deadline import UNLIMITED, Deadline
from gpuready.kube.errors import (
    DeadlineError,
    KubeApiError,
    KubeConfigError,
    KubeError,
    KubeUnreachableError,
    MalformedResponseError,
)
from gpuready.kube.redaction import scrub
from gpuready.kube.retry import RETRYABLE_PATCH_STATUS, RETRYABLE_READ_STATUS, RetryPolicy, parse_retry_after

_decode = msgspec.json.Decoder().decode
_validate = msgspec.json.Decoder(msgspec.Raw).decode  # checks the syntax without building any object
PROGRESS_AFTER_SECONDS = 1.0


class WatchWindowClosed(KubeError):
    """lightkube tried to open another watch stream after the window's one stream ended (internal: always caught
    by ``nodes_api``'s watch loop, never shown)."""


class AttemptTransport(httpx2.BaseTransport):
    """Sends lightkube's requests through ``http`` with bounded retries, counting every attempt per verb."""

    def __init__(self, http: httpx2.Client, policy: RetryPolicy, *, server: str, target: str) -> None:
        self.http = http
        self.policy = policy
        self.server = server or "the API server"
        self.target = target
        """Who we are, for error messages (``KubeTarget.describe()``)."""
        self.calls: Counter[str] = Counter()
        self._watch_slots = 0
        self._watch_read_timeout: float | None = None
        self._stream: httpx2.Response | None = None
        self.deadline: Deadline = UNLIMITED
        """The command's deadline: no attempt, backoff or ``Retry-After`` wait goes past it."""
        self.progress: Callable[[str], None] | None = None
        """Told about every wait of ``PROGRESS_AFTER_SECONDS`` or more (what is retried, why, time left)."""

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
        what = f"{verb} {resource_of(request)}"
        last, last_status = "", 0
        retry_after: float | None = None
        for attempt in range(self.policy.attempts):
            if attempt:
                self._wait_before_retry(what, attempt, retry_after, last)
            if self.deadline.expired:
                raise DeadlineError(f"{what}: {self.deadline.describe()} passed; last error: {last or 'none'}", last)
            retry_after = None
            self.calls[verb] += 1
            self._bound_timeouts(request)
            try:
                response = self._send(request, stream=stream)
                if response.status_code in retryable:
                    retry_after = parse_retry_after(response.headers.get("retry-after"))
                    last_status, last = response.status_code, _describe(response)
                    continue
                if not stream and response.status_code < 300 and _json_body(request) and (bad := malformed(response)):
                    last_status, last = response.status_code, f"malformed response: {bad}"
                    continue
            except httpx2.ConnectError as error:  # refused or unresolvable: kubectl does not retry either
                raise KubeUnreachableError(f"cannot connect to {self.server}: {error}", refused=True) from error
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
        gave_up = f"{what}: gave up after {self.policy.attempts} attempts on {self.server}; last error: {last}"
        if last.startswith("malformed response"):
            raise MalformedResponseError(gave_up, last_status)
        if last_status:
            raise KubeApiError(gave_up, last_status, transient=last_status in RETRYABLE_READ_STATUS)
        raise KubeUnreachableError(gave_up)

    def _send(self, request: httpx2.Request, *, stream: bool) -> httpx2.Response:
        """One attempt whose body, however slowly it trickles in, ends by the deadline (httpx's read timeout
        bounds only the gap between two reads): the body is read through ``DeadlineStream``."""
        response = self.http.send(request, stream=True)
        if self.deadline.seconds is not None and isinstance(response.stream, httpx2.SyncByteStream):
            response.stream = DeadlineStream(response.stream, self.deadline, f"{_verb(request)} {resource_of(request)}")
        if not stream:
            _read(response)
        return response

    def _wait_before_retry(self, what: str, attempt: int, retry_after: float | None, last: str) -> None:
        """Sleep before retry ``attempt``, or raise ``DeadlineError`` when the wait would outlast the deadline."""
        wait = self.policy.delay(attempt - 1, retry_after)
        left = self.deadline.remaining()
        if retry_after is not None and retry_after >= left:
            raise DeadlineError(
                f"{what}: the server asks to retry after {retry_after:g}s, beyond {self.deadline.describe()} "
                f"({left:.1f}s left); last error: {last}",
                last,
            )
        if wait >= left:
            raise DeadlineError(f"{what}: {self.deadline.describe()} passed while retrying; last error: {last}", last)
        if self.progress is not None and wait >= PROGRESS_AFTER_SECONDS:
            time_left = "" if left == float("inf") else f"; {left:.0f}s left"
            self.progress(f"retrying {what} in {wait:.1f}s (attempt {attempt + 1} of {self.policy.attempts}) after "
                          f"{last}{time_left}")  # fmt: skip
        self.policy.sleep(wait)

    def _bound_timeouts(self, request: httpx2.Request) -> None:
        """No single attempt may block past the deadline: every httpx timeout is cut to the time left."""
        left = self.deadline.remaining()
        if left == float("inf"):
            return
        timeout = dict(request.extensions.get("timeout") or {})
        for key in ("connect", "read", "write", "pool"):
            current = timeout.get(key)
            timeout[key] = left if current is None else min(float(current), left)
        request.extensions = {**request.extensions, "timeout": timeout}

    def _prepare_watch(self, request: httpx2.Request) -> None:
        if self._watch_slots <= 0:
            raise WatchWindowClosed
        self._watch_slots -= 1
        request.url = request.url.copy_merge_params({"allowWatchBookmarks": "true"})
        timeout = dict(request.extensions.get("timeout") or {})
        timeout["read"] = self._watch_read_timeout  # lightkube leaves watches without one; stop at the deadline
        request.extensions = {**request.extensions, "timeout": timeout}

    def current_deadline(self) -> Deadline:
        """The deadline now in force (credential plugins and STS run within it)."""
        return self.deadline

    def close(self) -> None:
        self.close_watch()
        self.http.close()


class DeadlineStream(httpx2.SyncByteStream):
    """A response body that stops at the deadline: one clock reading per network chunk (tens of KB), so a body
    trickled in 64-byte pieces cannot outlast ``--timeout``."""

    def __init__(self, inner: httpx2.SyncByteStream, deadline: Deadline, what: str) -> None:
        self._inner = inner
        self._deadline = deadline
        self._what = what

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._inner:
            if self._deadline.expired:
                raise DeadlineError(
                    f"{self._what}: {self._deadline.describe()} passed while the response was still arriving",
                    "the response body arrived too slowly",
                )
            yield chunk

    def close(self) -> None:
        self._inner.close()


def _read(response: httpx2.Response) -> None:
    """The whole body, or the response closed (and the error raised): a half-read response is never kept."""
    try:
        response.read()
    except BaseException:
        response.close()
        raise


def _verb(request: httpx2.Request) -> str:
    if request.method == "GET":
        return "watch" if request.url.params.get("watch") in ("true", "1") else "list"
    return request.method.lower()


def resource_of(request: httpx2.Request) -> str:
    """The resource a request is about, for messages: ``nodes`` for ``/api/v1/nodes/x``, ``resourceslices`` for
    ``/apis/resource.k8s.io/v1/resourceslices`` (the segment after the version, or after ``watch``)."""
    parts = [p for p in request.url.path.split("/") if p]
    start = 2 if parts[:1] == ["api"] else 3 if parts[:1] == ["apis"] else 0
    rest = parts[start:]
    if rest[:1] == ["watch"]:
        rest = rest[1:]
    return rest[0] if rest else request.url.path or "the API"


def _json_body(request: httpx2.Request) -> bool:
    """Whether a success answers JSON: everything but a pod's log (``.../pods/NAME/log``, plain text)."""
    return not request.url.path.endswith("/log")


def _describe(response: httpx2.Response) -> str:
    """``<code> <reason>: <message>`` of an error response."""
    body = status_body(response)
    return scrub(f"{response.status_code} {body.get('reason', '')}: {body.get('message', '')}".strip())


def malformed(response: httpx2.Response) -> str:
    """Why a (read) success response is not usable JSON, or ``""``: wrong content type, truncated or invalid."""
    kind = response.headers.get("content-type", "")
    if kind and not kind.split(";")[0].strip().lower().endswith("json"):
        return f"content type {kind.split(';')[0]!r}, not JSON ({len(response.content)} bytes)"
    try:
        _validate(response.content)
    except msgspec.DecodeError as error:
        return f"{error} ({len(response.content)} bytes)"
    return ""


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
