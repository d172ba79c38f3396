"""How a command reports a failure: ``error: ...`` on stderr and, with ``-o json``, one error object on stdout.

The JSON shape is the README's error contract::

    {"error": {"kind": "invalid-config", "message": "...",
               "problems": [{"path": ..., "problem": ..., "value": ..., "allowed": [...], "hint": ...}]}}

``program-failed`` errors add ``file`` and ``line`` (the user's code, when the traceback still shows it).
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path

from gpuready.errors import GpuReadyError, Problem, SpecError, bounded_text
from gpuready.record import record

INVALID_INPUT = "invalid-input"
"""A project, stack file, config file or command-line value that cannot be read (exit 2)."""
INVALID_CONFIG = "invalid-config"
"""gpuready settings that break the config model or a rule, each problem listed (exit 2)."""
INVALID_POLICY_CONFIG = "invalid-policy-config"
"""A ``--policy-config`` file the policy pack refuses (exit 2)."""
PROGRAM_FAILED = "program-failed"
"""The Pulumi program itself raised (exit 3)."""
CLUSTER_ERROR = "cluster-error"
"""``check``, ``label``, ``verify``: the cluster could not be reached or answered with an error (exit 2)."""
PLAN_KINDS = (INVALID_INPUT, INVALID_CONFIG, INVALID_POLICY_CONFIG, PROGRAM_FAILED)
"""What ``gpuready plan`` can report (its bad-input corpus covers each)."""
KINDS = (*PLAN_KINDS, CLUSTER_ERROR)
MAX_ERROR_TEXT = 20_000
"""Characters of an error message shown on stderr (a config error lists at most 20 problems in far less)."""
MAX_JSON_PROBLEMS = 100
"""Problems the JSON error object lists; ``moreProblems`` counts the rest."""


@record(frozen=True, slots=True)
class ErrorReport:
    """One failure of a command, ready for either output format."""

    kind: str
    message: str
    problems: tuple[Problem, ...] = ()
    file: str = ""
    """For ``program-failed``: the user's file where it failed ("" when the traceback does not show it)."""
    line: int = 0
    details: str = ""
    """The full traceback, shown with ``--debug`` only."""

    def text(self) -> str:
        """What stderr shows: ``error: ...``, one problem per line, and where in the user's code."""
        text = f"error: {bounded_text(self.message, MAX_ERROR_TEXT)}"  # no control character reaches the terminal
        if self.file:
            text += f"\n  at {self.file}:{self.line}"
        return text

    def as_json(self) -> dict[str, object]:
        """The error object of the contract."""
        body: dict[str, object] = {
            "kind": self.kind,
            "message": self.message,
            "problems": [problem_json(p) for p in self.problems[:MAX_JSON_PROBLEMS]],
        }
        if len(self.problems) > MAX_JSON_PROBLEMS:  # bounded in total size, like the text
            body["moreProblems"] = len(self.problems) - MAX_JSON_PROBLEMS
        if self.file:
            body.update(file=self.file, line=self.line)
        return {"error": body}


def problem_json(problem: Problem) -> dict[str, object]:
    """One problem of the contract: ``path``, ``problem``, ``value`` (null when missing or secret), ``allowed``,
    ``hint``; values JSON cannot hold are shown as text."""
    value = problem.value
    if value is not None and not isinstance(value, str | int | float | bool | list | dict):
        value = repr(value)
    return {
        "path": problem.path,
        "problem": problem.problem,
        "value": value,
        "allowed": list(problem.allowed),
        "hint": problem.hint,
    }


def emit(report: ErrorReport, *, json_output: bool, debug: bool = False) -> None:
    """Print ``report``: the text on stderr, the JSON object on stdout with ``json_output``, the traceback first
    with ``debug``."""
    if debug and report.details:
        print(report.details.rstrip(), file=sys.stderr)
    if json_output:
        print(json.dumps(report.as_json(), default=repr))
    print(report.text(), file=sys.stderr)  # for the person watching, in both formats


def input_error(error: GpuReadyError) -> ErrorReport:
    """A refused input: a config error with its problems, or another of gpuready's errors as one message."""
    if isinstance(error, SpecError):
        return ErrorReport(INVALID_CONFIG, f"invalid gpuready config:\n{error}", error.problems)
    path, value = getattr(error, "path", ""), getattr(error, "value", None)
    hint = getattr(error, "hint", "")
    problems = (Problem(path, getattr(error, "message", str(error)), value, (), hint),) if path else ()
    return ErrorReport(INVALID_INPUT, str(error), problems)


def command_error(error: Exception | str) -> ErrorReport:
    """An error of the cluster commands: a refused input as ``input_error`` says, the cluster's own failures
    (unreachable, refused credentials, API errors, deadlines, a stopped run) as ``cluster-error``."""
    from gpuready.kube.errors import KubeConfigError, KubeError  # noqa: PLC0415 - cluster commands only (a plan never)

    if isinstance(error, KubeConfigError) or (isinstance(error, GpuReadyError) and not isinstance(error, KubeError)):
        return input_error(error)
    return ErrorReport(CLUSTER_ERROR, str(error))


def program_failure(error: BaseException, program_dir: Path) -> ErrorReport:
    """The program's own exception as one message, with the innermost line of the user's code it passed through.

    The SDK rewraps errors raised while it serializes inputs ("While processing resource ... ValueError has
    risen: ..."): the message keeps the innermost reason and names the resource."""
    reasons = str(error).split(" has risen: ")
    where = [line for line in str(error).splitlines() if line.startswith("While processing resource:")]
    message = f"{type(error).__name__}: {reasons[-1].strip()}"
    if where:
        message += f" ({where[0].removeprefix('While processing ').strip()})"
    frame = _user_frame(error, program_dir)
    file, line = frame if frame else ("", 0)
    details = "".join(traceback.format_exception(error))
    return ErrorReport(PROGRAM_FAILED, f"the program failed: {message}", (), file, line, details)


def _user_frame(error: BaseException, program_dir: Path) -> tuple[str, int] | None:
    """The innermost frame in ``program_dir`` over the exception and its causes, as (relative path, line)."""
    root = str(program_dir.resolve()) + os.sep
    found: tuple[str, int] | None = None
    for link in _chain(error):
        for frame in traceback.extract_tb(link.__traceback__):
            filename = os.path.abspath(frame.filename)
            if filename.startswith(root) and frame.lineno is not None:
                found = (_shown_path(Path(filename)), frame.lineno)
    return found


def _chain(error: BaseException) -> Iterator[BaseException]:
    """``error``, then its causes, the original last; each once (the SDK re-raises an error as its own cause)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _shown_path(path: Path) -> str:
    """``path`` relative to the working directory when it is below it (as a user typed it), else absolute."""
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def gpuready_cause(error: BaseException) -> GpuReadyError | None:
    """The first of gpuready's own errors in ``error``'s chain (the SDK wraps what a program raises), if any."""
    return next((link for link in _chain(error) if isinstance(link, GpuReadyError)), None)
