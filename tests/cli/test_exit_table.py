"""The one exit-code table: every command of the parser has a row, the rows use the codes of ``exit_codes``, and
docs/cli.md's table is the rendered one (so adding a command without a row, or a row without the doc, fails)."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

import pytest

from gpuready.cli import exit_codes
from gpuready.cli.exit_table import COMMAND_EXITS, render_markdown
from gpuready.cli.main import build_parser

CLI_DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
CODES = {v for k, v in vars(exit_codes).items() if k.startswith("EXIT_")}


def parser_commands() -> set[str]:
    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return set(commands.choices)


def test_every_command_has_a_row_and_every_row_a_command() -> None:
    assert parser_commands() == set(COMMAND_EXITS)


@pytest.mark.parametrize("command", sorted(COMMAND_EXITS))
def test_rows_use_the_shared_codes_and_say_what_each_means(command: str) -> None:
    row = COMMAND_EXITS[command]
    assert set(row) <= CODES
    assert {exit_codes.EXIT_OK, exit_codes.EXIT_INVALID, exit_codes.EXIT_INTERRUPTED} <= set(row)
    assert all(text.strip() for text in row.values())


def test_label_shows_its_plan_with_exit_0() -> None:
    assert "plan shown" in COMMAND_EXITS["label"][exit_codes.EXIT_OK]


def test_the_cli_doc_prints_the_table() -> None:
    assert render_markdown() in CLI_DOC.read_text(encoding="utf-8")


COMMAND_MODULES = {
    "plan": ("plan_command",),
    "check": ("check_command", "fleet"),
    "label": ("label_command",),
    "verify": ("verify_command", "fleet"),
    "diff": ("diff_command",),
    "support-matrix": ("matrix_command",),
    "new": ("new_command",),
    "completion": ("completion",),
}
"""Where each command's exit codes are returned (``main`` dispatches to these)."""


def test_every_command_module_is_named() -> None:
    assert set(COMMAND_MODULES) == set(COMMAND_EXITS)


@pytest.mark.parametrize("command", sorted(COMMAND_MODULES))
def test_a_command_returns_only_the_codes_of_its_row(command: str) -> None:
    """The exit-code constants a command's modules hold (aliases included) are all in its row."""
    used: set[int] = set()
    for name in COMMAND_MODULES[command]:
        module = importlib.import_module(f"gpuready.cli.{name}")
        used |= {v for k, v in vars(module).items() if k.startswith("EXIT_") and isinstance(v, int)}
    assert used, command
    assert used <= set(COMMAND_EXITS[command]), command
