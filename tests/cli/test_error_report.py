"""The error contract's pieces: problems as JSON, input errors, a program's failure as one message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuready.cli import error_report
from gpuready.errors import ConfigError, GpuReadyError, Problem
from gpuready.offline.project import OfflineProjectError

HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize(
    ("value", "shown"),
    [(None, None), ("x", "x"), (3, 3), (["a"], ["a"]), ({"k": 1}, {"k": 1}), (("a",), "('a',)"), ({1}, "{1}")],
)
def test_problem_values_are_json(value: object, shown: object) -> None:
    problem = error_report.problem_json(Problem("gpuready:x", "is wrong", value, ("a", "b"), "do this"))
    assert problem == {
        "path": "gpuready:x",
        "problem": "is wrong",
        "value": shown,
        "allowed": ["a", "b"],
        "hint": "do this",
    }
    json.dumps(problem)


def test_input_errors_keep_their_problems_or_their_path() -> None:
    config = error_report.input_error(ConfigError([Problem("a", "bad"), Problem("b", "worse")]))
    assert (config.kind, [p.path for p in config.problems]) == (error_report.INVALID_CONFIG, ["a", "b"])
    located = error_report.input_error(OfflineProjectError("no such index", "use [0]", path="k[3]", value=None))
    assert (located.kind, located.problems) == (
        error_report.INVALID_INPUT,
        (Problem("k[3]", "no such index", None, (), "use [0]"),),
    )
    plain = error_report.input_error(GpuReadyError("something"))
    assert (plain.kind, plain.message, plain.problems) == (error_report.INVALID_INPUT, "something", ())


def _raise_here() -> None:
    raise KeyError("medium")


def test_a_program_failure_names_the_innermost_line_of_the_program_even_through_a_cause_cycle() -> None:
    try:
        _raise_here()
    except KeyError as error:
        error.__cause__ = error  # what the SDK's wait_for_rpcs does: ``raise exn from exn``
        report = error_report.program_failure(error, HERE)
    assert report.message == "the program failed: KeyError: 'medium'"
    assert report.file.endswith("test_error_report.py")
    assert report.line == _raise_here.__code__.co_firstlineno + 1
    assert "Traceback" in report.details
    assert report.as_json()["error"] == {
        "kind": "program-failed", "message": report.message, "problems": [], "file": report.file, "line": report.line,
    }  # fmt: skip


def test_an_sdk_rewrapped_failure_keeps_the_reason_and_the_resource() -> None:
    error = ValueError(
        "While processing resource: 'queue', type: 'aws:sqs/queue:Queue'\n"
        "ValueError has risen: While processing input: 'name', type <class 'str'>, value <Output>\n"
        "ValueError has risen: boom"
    )
    report = error_report.program_failure(error, HERE / "nowhere")
    assert report.message == "the program failed: ValueError: boom (resource: 'queue', type: 'aws:sqs/queue:Queue')"
    assert (report.file, report.line) == ("", 0)
    assert report.text() == f"error: {report.message}"
