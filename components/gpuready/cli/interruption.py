"""SIGINT and SIGTERM: stop at the next safe point and say how far the command got, never die silently.

SIGTERM is what CI cancellation, ``timeout`` and Kubernetes Jobs send; SIGINT is Ctrl-C. ``entry`` turns both into
``Interrupted`` (SIGINT keeps Python's ``KeyboardInterrupt`` too), so every command unwinds through its own
``finally`` and summary and the process exits ``128 + signal``: 130 for SIGINT, 143 for SIGTERM
(``exit_codes``). Where a request must not be cut off half-way (``label``'s PATCH), ``deferred`` records the
signal instead; the loop checks ``Deferred.signal`` between requests and stops there, and a second signal
abandons the request in flight, which is then reported as such.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

from gpuready.cli.exit_codes import EXIT_INTERRUPTED, EXIT_TERMINATED

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(BaseException):
    """A stop signal arrived (a ``BaseException``, like ``KeyboardInterrupt``: no ``except Exception`` swallows it)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(signal.Signals(signum).name)

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        return exit_code(self.signum)


def exit_code(signum: int) -> int:
    """``128 + signum``: 130 for SIGINT, 143 for SIGTERM, as a shell reports them."""
    return EXIT_TERMINATED if signum == signal.SIGTERM else EXIT_INTERRUPTED


def as_interrupted(error: BaseException) -> Interrupted:
    """``Interrupted`` for a ``KeyboardInterrupt`` (SIGINT) or the ``Interrupted`` itself."""
    return error if isinstance(error, Interrupted) else Interrupted(signal.SIGINT)


def raise_interrupted(signum: int, _frame: FrameType | None) -> None:
    raise Interrupted(signum)


Handlers = dict[int, Callable[[int, FrameType | None], object] | int | None]


def install() -> Handlers:
    """Make SIGINT and SIGTERM raise ``Interrupted`` in the main thread (the console script does this first);
    returns the handlers they had, for ``restore``."""
    return {signum: signal.signal(signum, raise_interrupted) for signum in STOP_SIGNALS}


def restore(previous: Handlers) -> None:
    for number, handler in previous.items():
        signal.signal(number, handler if handler is not None else signal.SIG_DFL)


class Deferred:
    """What ``deferred`` saw: the first stop signal, if any."""

    def __init__(self) -> None:
        self.signal: int | None = None

    def handler(self, signum: int, _frame: FrameType | None) -> None:
        if self.signal is not None:  # a second signal: abandon the request in flight
            raise Interrupted(signum)
        self.signal = signum


@contextmanager
def deferred() -> Iterator[Deferred]:
    """Within the block, the first SIGINT or SIGTERM is only recorded (``Deferred.signal``); a second raises
    ``Interrupted``. Outside the main thread (no signal handlers there) nothing changes."""
    seen = Deferred()
    if threading.current_thread() is not threading.main_thread():
        yield seen
        return
    previous: Handlers = {signum: signal.signal(signum, seen.handler) for signum in STOP_SIGNALS}
    try:
        yield seen
    finally:
        restore(previous)
