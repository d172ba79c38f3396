"""What a program said through ``pulumi.log`` during an offline run, kept for the plan to show.

The offline runner hands the engine's ``Log`` messages to the root logger by severity (``gpuready.offline.runner``),
as ``pulumi preview`` prints them among the run's diagnostics. The plan shows warnings (the plan goes on and the exit
code is unchanged) and, once each and sorted, infos (what gpuready could not check).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import field

from gpuready.record import record


@record
class ProgramLog:
    """The messages of one run, each once; shown sorted (``pool <name>: ...`` by pool), since log messages reach the
    engine in no fixed order."""

    warnings: list[str] = field(default_factory=list)
    infos: list[str] = field(default_factory=list)

    def add(self, level: int, message: str) -> None:
        kept = self.warnings if level >= logging.WARNING else self.infos
        if message not in kept:
            kept.append(message)

    def render(self) -> str:
        """The plan's text sections, or ``""`` when the program said nothing."""
        lines: list[str] = []
        for title, messages in (("Warnings", self.warnings), ("Not checked", self.infos)):
            if messages:
                lines += [
                    *([""] if lines else []),
                    f"{title} ({len(messages)}):",
                    *(f"  - {m}" for m in sorted(messages)),
                ]
        return "\n".join(lines)

    def stderr_lines(self) -> list[str]:
        """The messages as ``warning:`` and ``info:`` lines (stderr, beside a JSON plan on stdout)."""
        return [f"warning: {m}" for m in sorted(self.warnings)] + [f"info: {m}" for m in sorted(self.infos)]


class _Collector(logging.Handler):
    def __init__(self, log: ProgramLog) -> None:
        super().__init__(logging.INFO)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == "root":  # the program's pulumi.log; libraries log under their own names
            self.log.add(record.levelno, record.getMessage())


@contextmanager
def collected() -> Iterator[ProgramLog]:
    """Collect the program's ``pulumi.log`` warnings and infos while the block runs."""
    log = ProgramLog()
    root = logging.getLogger()
    handler, level = _Collector(log), root.level
    root.addHandler(handler)
    root.setLevel(min(level, logging.INFO))
    try:
        yield log
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
