"""One monotonic deadline per command (and per verification resource), shared by every request, retry and wait.

Everything that sleeps or blocks asks the deadline first: ``remaining()`` bounds request timeouts, backoffs and
``Retry-After`` waits, and a wait that would end after the deadline is not started at all (``DeadlineError``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable


class Deadline:
    """A point in ``clock`` time (``time.monotonic`` by default); ``Deadline(None)`` never passes."""

    def __init__(self, seconds: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.seconds = seconds
        """The budget it was made with (None: unlimited)."""
        self.ends = math.inf if seconds is None else clock() + max(0.0, seconds)
        self.kept = 0.0
        """Seconds this deadline ends before the command's (see ``keeping``)."""

    def remaining(self) -> float:
        """Seconds left (``inf`` when unlimited, never negative)."""
        return max(0.0, self.ends - self.clock())

    @property
    def expired(self) -> bool:
        return self.clock() >= self.ends

    def describe(self) -> str:
        """``the 3s deadline`` (or ``no deadline``), for messages."""
        if self.seconds is None:
            return "no deadline"
        return f"the {self.seconds:g}s deadline" + (f" (less {self.kept:g}s kept for later)" if self.kept else "")

    def keeping(self, seconds: float) -> Deadline:
        """A deadline ``seconds`` earlier than this one (never before now): what a first phase may spend so that a
        later phase still has ``seconds`` (verify keeps time for the ResourceSlice audit after the node watch)."""
        if self.seconds is None:
            return self
        earlier = Deadline(self.seconds, self.clock)
        earlier.ends = max(self.clock(), self.ends - seconds)
        earlier.kept = seconds
        return earlier


UNLIMITED = Deadline(None)
"""For library callers that set no deadline: only the retry policy's attempt bound applies."""
