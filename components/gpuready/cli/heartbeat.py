"""A heartbeat for ``gpuready verify`` while it waits: one stderr line at most every ``interval`` seconds, saying
per pool how many nodes converged of how many are expected, and the time left, so a long wait is never silent.

The watch feeds ``update`` on every change (the main thread); a daemon thread prints the last summary with the
time left then, until ``stop``. stdout stays the result only.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from types import TracebackType

from gpuready.kube.deadline import Deadline

HEARTBEAT_SECONDS = 15.0
"""At most one heartbeat line this often."""


def waiting_line(progress: Sequence[tuple[str, int, int]], converged: int, expected: int, left: float) -> str:
    """``waiting: pool l4 1/2, pool spare 0/1 converged (1/3 nodes); 540s left``."""
    pools = ", ".join(f"pool {name} {done}/{want}" for name, done, want in progress)
    what = f"{pools} converged ({converged}/{expected} nodes)" if pools else f"{converged}/{expected} nodes converged"
    return f"gpuready: waiting: {what}; {left:.0f}s left"


class Heartbeat:
    """A context manager printing ``waiting_line`` every ``interval`` seconds while the command waits."""

    def __init__(self, deadline: Deadline, interval: float = HEARTBEAT_SECONDS, *, label: str = "") -> None:
        self._label = label
        """Put after ``gpuready: `` (``context prod: `` in a fleet)."""
        self._deadline = deadline
        self._interval = interval
        self._summary: tuple[tuple[tuple[str, int, int], ...], int, int] = ((), 0, 0)
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._beat, name="gpuready-heartbeat", daemon=True)

    def update(self, progress: Sequence[tuple[str, int, int]], converged: int, expected: int) -> None:
        with self._lock:
            self._summary = (tuple(progress), converged, expected)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._stopped.set()
        self._thread.join(timeout=1.0)

    def _beat(self) -> None:
        while not self._stopped.wait(min(self._interval, max(self._deadline.remaining(), 0.01))):
            if self._deadline.expired:
                return
            with self._lock:
                progress, converged, expected = self._summary
            line = waiting_line(progress, converged, expected, self._deadline.remaining())
            print(line.replace("gpuready: ", f"gpuready: {self._label}", 1), file=sys.stderr, flush=True)
