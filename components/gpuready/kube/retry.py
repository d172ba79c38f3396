"""Bounded retries with exponential backoff and jitter, honouring ``Retry-After``.

Which failures are retried (client-go's defaults, narrowed): 429 and 5xx for idempotent reads (GET, LIST,
WATCH) and for the label PATCH (a merge patch of labels conditioned on a resourceVersion: sending it again is
safe). A 409 is not retried here: the node changed, so the label command re-reads it and decides again.
Connection resets and timeouts are retried; a refused connection is not (kubectl fails
at once too). 401/403 never are. ``transport.AttemptTransport`` applies the policy to every HTTP attempt
lightkube's ``Client`` makes (lightkube itself retries nothing).
"""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Callable
from dataclasses import field

from gpuready.record import record

RETRYABLE_READ_STATUS: frozenset[int] = frozenset({429, 500, 502, 503, 504})
RETRYABLE_PATCH_STATUS: frozenset[int] = RETRYABLE_READ_STATUS
"""Not 409: every PATCH is conditioned on the resourceVersion read, so sending it again cannot succeed; the
caller re-reads the node and decides again (``cli.label_command``)."""


@record(frozen=True, slots=True)
class RetryPolicy:
    """How often and how long to retry one request."""

    attempts: int = 5
    """Tries in total, the first included."""
    base: float = 0.25
    """First backoff in seconds; doubles per retry."""
    cap: float = 8.0
    """Longest backoff in seconds."""
    max_retry_after: float = 30.0
    """Longest ``Retry-After`` honoured; longer ones are cut to this."""
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False)
    rand: Callable[[], float] = field(default=random.random, compare=False)

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number ``retry`` (0 for the first retry)."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_retry_after)
        backoff = min(self.cap, self.base * (2.0**retry))
        return backoff / 2 + self.rand() * backoff / 2  # "equal jitter": never less than half the backoff


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """``Retry-After`` as seconds: delta-seconds or an HTTP date; None when absent or malformed."""
    if not value:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))
