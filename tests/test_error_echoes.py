"""Error echoes are bounded in total size and never carry a control character to the terminal."""

from __future__ import annotations

import pytest

from gpuready.cli.error_report import MAX_JSON_PROBLEMS, input_error
from gpuready.errors import MAX_MESSAGE, Problem, SpecError, bounded_text, printable


def test_ten_thousand_problems_make_a_bounded_message() -> None:
    problems = [
        Problem(f"nodePools[0].instanceType[{i}]", "not a GPU instance type", f"bogus{i}") for i in range(10_000)
    ]
    message = str(SpecError(problems))
    assert len(message) < 10_000  # was 3.3 MB
    assert message.startswith("10000 problems:") and "and 9,980 more problems like these" in message
    shown = input_error(SpecError(problems)).as_json()["error"]
    assert isinstance(shown, dict) and len(shown["problems"]) == MAX_JSON_PROBLEMS
    assert shown["moreProblems"] == 10_000 - MAX_JSON_PROBLEMS


def test_a_long_allowed_list_is_counted_not_listed() -> None:
    text = str(Problem("x", "unknown", "y", tuple(f"v{i}" for i in range(5_000))))
    assert "(and 4,970 more)" in text and len(text) < 500


@pytest.mark.parametrize("raw", ["\x1b[2J\x1b]0;owned\x07", "a\rb", "\x9b31m", "\x00\x7f"])
def test_control_characters_are_escaped_in_every_echo(raw: str) -> None:
    problem = Problem(f"gpuStack.values.{raw}", f"unknown key {raw}", raw, (raw,), f"hint {raw}")
    for text in (str(problem), str(SpecError([problem, problem])), printable(raw), bounded_text(raw)):
        assert all(c.isprintable() or c in "\n\t" for c in text), repr(text)


def test_bounded_text_says_how_much_was_left_out() -> None:
    text = bounded_text("x" * (MAX_MESSAGE + 10))
    assert text.endswith("... (10 more characters)")


def test_the_error_line_escapes_whatever_the_error_carries() -> None:
    text = input_error(SpecError.one("gpuStack.values", "unknown key", "\x1b[31mred")).text()
    assert "\x1b" not in text and "\\x1b[31mred" in text
