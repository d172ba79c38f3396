"""What the stand-in received: one record per HTTP request, readable and clearable from tests."""

from __future__ import annotations

import fnmatch
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode


@dataclass
class RequestRecord:
    method: str
    path: str
    query: dict[str, list[str]]
    content_type: str | None
    accept: str | None
    headers: dict[str, str]
    body: bytes = b""
    started: float = field(default_factory=time.monotonic)
    status: int | None = None  # the response code; None while running or when the connection was dropped
    fault: str | None = None  # the injected fault that answered (or delayed) this request, if any
    finished: float | None = None

    def param(self, name: str) -> str | None:
        values = self.query.get(name)
        return values[0] if values else None

    @property
    def raw_query(self) -> str:
        return urlencode([(k, v) for k, vs in self.query.items() for v in vs])

    @property
    def is_watch(self) -> bool:
        return self.param("watch") in ("1", "true") or "/watch/" in self.path

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    @property
    def duration(self) -> float | None:
        return None if self.finished is None else self.finished - self.started


class RequestLog:
    """Thread-safe; iteration and `records` give a snapshot."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._records: list[RequestRecord] = []

    def append(self, record: RequestRecord) -> None:
        with self._lock:
            self._records.append(record)

    @property
    def records(self) -> list[RequestRecord]:
        with self._lock:
            return list(self._records)

    def clear(self) -> None:
        with self._lock:
            self._records.clear()

    def find(
        self, method: str | None = None, path: str | None = None, *, watch: bool | None = None
    ) -> list[RequestRecord]:
        """Records by method and path (exact, or a glob such as "/api/v1/nodes*")."""
        return [
            r
            for r in self.records
            if (method is None or r.method == method.upper())
            and (path is None or r.path == path or fnmatch.fnmatchcase(r.path, path))
            and (watch is None or r.is_watch == watch)
        ]

    def peak_rate(self, window: float = 1.0, method: str | None = None, path: str | None = None) -> int:
        """The most requests (matching ``method``/``path``) that started within any ``window`` seconds."""
        starts = sorted(r.started for r in self.find(method, path))
        peak, first = 0, 0
        for last, started in enumerate(starts):
            while started - starts[first] >= window:
                first += 1
            peak = max(peak, last - first + 1)
        return peak

    def per_path(self, method: str, prefix: str) -> dict[str, int]:
        """Requests per path under ``prefix`` (e.g. PATCHes per node)."""
        counts: dict[str, int] = {}
        for record in self.find(method):
            if record.path.startswith(prefix):
                counts[record.path.removeprefix(prefix)] = counts.get(record.path.removeprefix(prefix), 0) + 1
        return counts

    def count(self, method: str | None = None, path: str | None = None) -> int:
        return len(self.find(method, path))

    def __len__(self) -> int:
        with self._lock:
            return len(self._records)

    def __iter__(self) -> Iterator[RequestRecord]:
        return iter(self.records)
