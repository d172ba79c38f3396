"""Scriptable, bounded fault injection: every fault answers (or delays) at most `times` matching requests."""

from __future__ import annotations

import fnmatch
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

MAX_DELAY_SECONDS = 60.0
KINDS = ("status", "drop", "delay", "body", "watch-error", "trickle")
TRUNCATED_NODE_LIST = (
    b'{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[{"metadata":{"na'
)
"""A 200 body cut off mid-object, as a proxy that drops the connection after a fixed length delivers it."""
HTML_ERROR_PAGE = b"<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"
"""What a load balancer in front of the API server answers when the API server is down."""


@dataclass(frozen=True)
class RequestInfo:
    """What a fault predicate sees of a request."""

    method: str
    path: str
    query: dict[str, list[str]]
    content_type: str | None
    headers: dict[str, str]

    @property
    def is_watch(self) -> bool:
        return self.query.get("watch", [""])[0] in ("1", "true") or "/watch/" in self.path


Predicate = Callable[[RequestInfo], bool]
PathMatch = str | re.Pattern[str]


@dataclass
class Fault:
    """kind is "status" (answer with `status`), "drop" (close the socket, no response), "delay", "body" (answer
    `status` with `body` as `content_type`: truncated JSON, an HTML page) or "watch-error" (a watch answered 200,
    then one in-band ERROR event with `status`, then the end of the stream)."""

    kind: str
    times: int
    status: int | None = None
    retry_after: int | None = None
    message: str | None = None
    seconds: float = 0.0
    methods: frozenset[str] | None = None
    path: PathMatch | None = None
    where: Predicate | None = None
    body: bytes = b""
    content_type: str = "application/json"
    piece: int = 64
    """For "trickle": bytes written per piece (``seconds`` apart)."""
    hits: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def remaining(self) -> int:
        return self.times - self.hits

    @property
    def exhausted(self) -> bool:
        return self.hits >= self.times

    def matches(self, info: RequestInfo) -> bool:
        if self.methods is not None and info.method not in self.methods:
            return False
        if isinstance(self.path, re.Pattern):
            if not self.path.search(info.path):
                return False
        elif self.path is not None and not (info.path == self.path or fnmatch.fnmatchcase(info.path, self.path)):
            return False
        return self.where is None or self.where(info)

    def try_consume(self, info: RequestInfo) -> bool:
        with self._lock:
            if self.exhausted or not self.matches(info):
                return False
            self.hits += 1
            return True

    def label(self) -> str:
        if self.kind == "status":
            return f"status {self.status}"
        if self.kind == "delay":
            return f"delay {self.seconds}s"
        if self.kind == "trickle":
            return f"trickle {self.piece}B/{self.seconds}s"
        if self.kind in ("body", "watch-error"):
            return f"{self.kind} {self.status}"
        return self.kind


def _methods(method: str | Iterable[str] | None) -> frozenset[str] | None:
    if method is None:
        return None
    if isinstance(method, str):
        return frozenset({method.upper()})
    return frozenset(m.upper() for m in method)


class Faults:
    """Register faults; the HTTP layer asks `take` for each request before handling it.

    Predicates: `method` ("PATCH" or several), `path` (exact, glob like "/api/v1/nodes*", or a compiled
    regex searched in the path) and `where` (any callable on RequestInfo). All given ones must match.
    Delays add up and then the request proceeds (possibly into a status or drop fault)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._faults: list[Fault] = []

    def add(self, fault: Fault) -> Fault:
        if fault.times < 1:
            raise ValueError("a fault must apply to at least one request (times >= 1)")
        if fault.kind not in KINDS:
            raise ValueError(f"unknown fault kind {fault.kind!r}")
        if fault.kind == "delay" and not 0 < fault.seconds <= MAX_DELAY_SECONDS:
            raise ValueError(f"a delay must be in (0, {MAX_DELAY_SECONDS}] seconds")
        with self._lock:
            self._faults.append(fault)
        return fault

    def fail(
        self,
        status: int = 500,
        times: int = 1,
        *,
        retry_after: int | None = None,
        message: str | None = None,
        method: str | Iterable[str] | None = None,
        path: PathMatch | None = None,
        where: Predicate | None = None,
    ) -> Fault:
        """Answer the next `times` matching requests with `status` and an apiserver-shaped Status body."""
        if not 400 <= status <= 599:
            raise ValueError("an injected failure needs a 4xx or 5xx status")
        return self.add(Fault("status", times, status, retry_after, message, 0.0, _methods(method), path, where))

    def throttle(
        self,
        times: int = 1,
        *,
        retry_after: int = 1,
        method: str | Iterable[str] | None = None,
        path: PathMatch | None = None,
        where: Predicate | None = None,
    ) -> Fault:
        """429 TooManyRequests with a Retry-After header (seconds), as API priority and fairness sends."""
        return self.fail(429, times, retry_after=retry_after, method=method, path=path, where=where)

    def unavailable(
        self,
        times: int = 1,
        *,
        retry_after: int | None = None,
        method: str | Iterable[str] | None = None,
        path: PathMatch | None = None,
        where: Predicate | None = None,
    ) -> Fault:
        """503 ServiceUnavailable, optionally with Retry-After."""
        return self.fail(503, times, retry_after=retry_after, method=method, path=path, where=where)

    def conflict(
        self,
        times: int = 1,
        *,
        method: str | Iterable[str] | None = "PATCH",
        path: PathMatch | None = None,
        where: Predicate | None = None,
    ) -> Fault:
        """409 Conflict with the apiserver's "the object has been modified" message (PATCH by default)."""
        return self.fail(409, times, method=method, path=path, where=where)

    def drop(
        self,
        times: int = 1,
        *,
        method: str | Iterable[str] | None = None,
        path: PathMatch | None = None,
        where: Predicate | None = None,
    ) -> Fault:
        """Read the request, then close the connection without sending any response."""
        return self.add(Fault("drop", times, methods=_methods(method), path=path, where=where))

    def delay(
        self,
        seconds: float,
        times: int = 1,
        *,
        method: str | Iterable[str] | None = None,
        path: PathMatch | None = None,
        where: Predicate | None = None,
    ) -> Fault:
        """Sleep `seconds` before handling each of the next `times` matching requests."""
        return self.add(Fault("delay", times, seconds=seconds, methods=_methods(method), path=path, where=where))

    def malformed(
        self,
        times: int = 1,
        *,
        body: bytes = TRUNCATED_NODE_LIST,
        content_type: str = "application/json",
        status: int = 200,
        method: str | Iterable[str] | None = None,
        path: PathMatch | None = None,
        where: Predicate | None = None,
    ) -> Fault:
        """Answer `status` (200 by default) with `body` as `content_type`: truncated JSON unless told otherwise."""
        fault = Fault("body", times, status, methods=_methods(method), path=path, where=where)
        fault.body, fault.content_type = body, content_type
        return self.add(fault)

    def html_page(
        self,
        times: int = 1,
        *,
        status: int = 200,
        method: str | Iterable[str] | None = None,
        path: PathMatch | None = None,
    ) -> Fault:
        """A load balancer's HTML error page instead of the API server's JSON."""
        return self.malformed(
            times, body=HTML_ERROR_PAGE, content_type="text/html", status=status, method=method, path=path
        )

    def trickle(
        self,
        piece: int = 64,
        every: float = 0.5,
        times: int = 1,
        *,
        method: str | Iterable[str] | None = None,
        path: PathMatch | None = None,
        where: Predicate | None = None,
    ) -> Fault:
        """Answer the next `times` matching requests normally, but write the body `piece` bytes at a time, `every`
        seconds apart (a slow proxy or an overloaded apiserver): each read is quick, the whole body is not."""
        if piece < 1 or not 0 < every <= MAX_DELAY_SECONDS:
            raise ValueError("a trickle needs piece >= 1 and a pause in (0, MAX_DELAY_SECONDS]")
        fault = Fault("trickle", times, seconds=every, methods=_methods(method), path=path, where=where)
        fault.piece = piece
        return self.add(fault)

    def watch_error(self, status: int = 410, times: int = 1, *, message: str | None = None) -> Fault:
        """Answer the next `times` WATCH requests with 200 and one in-band ERROR event carrying `status`."""
        return self.add(Fault("watch-error", times, status, None, message, where=lambda info: info.is_watch))

    def take_trickle(self, info: RequestInfo) -> Fault | None:
        """The trickle fault that applies to this request's response body, if any (consumed)."""
        with self._lock:
            faults = list(self._faults)
        return next((f for f in faults if f.kind == "trickle" and f.try_consume(info)), None)

    def clear(self) -> None:
        with self._lock:
            self._faults.clear()

    @property
    def pending(self) -> list[Fault]:
        with self._lock:
            return [f for f in self._faults if not f.exhausted]

    @property
    def all(self) -> list[Fault]:
        with self._lock:
            return list(self._faults)

    def take(self, info: RequestInfo) -> tuple[float, list[Fault], Fault | None]:
        """Consume what applies to this request: (total delay, delay faults used, answering fault or None)."""
        with self._lock:
            faults = list(self._faults)
        delays = [f for f in faults if f.kind == "delay" and f.try_consume(info)]
        answer = next((f for f in faults if f.kind not in ("delay", "trickle") and f.try_consume(info)), None)
        return sum(f.seconds for f in delays), delays, answer
