"""The parser built for one command is, for that command, the parser built for all of them."""

from __future__ import annotations

import argparse

import pytest

from gpuready.cli.parser import COMMANDS, build_parser, command_of


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _shape(parser: argparse.ArgumentParser) -> list[object]:
    """What parsing and ``--help`` depend on: each argument's options, destination, default, choices, kind, help."""
    return [parser.format_help()] + [
        (type(a).__name__, a.option_strings, a.dest, a.default, a.choices, a.nargs, a.type, a.required, a.help)
        for a in parser._actions
        if not isinstance(a, argparse._SubParsersAction)
    ]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_s_own_parser_is_the_one_of_the_whole_parser(command: str) -> None:
    whole, alone = build_parser(), build_parser(command)
    assert _shape(_subcommands(alone)[command]) == _shape(_subcommands(whole)[command])
    # The top level prints only its usage line in a run of one command (errors): the same line, no command listed.
    assert alone.format_usage() == whole.format_usage() == "usage: gpuready [-h] [--version] COMMAND ...\n"


@pytest.mark.parametrize("command", COMMANDS)
def test_the_other_commands_are_not_built(command: str) -> None:
    assert list(_subcommands(build_parser(command))) == [command]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_s_errors_read_the_same_in_both_parsers(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    printed = []
    for parser in (build_parser(), build_parser(command)):
        for argv in ([command, "--no-such-option"], ["--no-such-option", command]):
            with pytest.raises(SystemExit) as stopped:
                parser.parse_args(argv)
            printed.append((stopped.value.code, capsys.readouterr().err))
    assert printed[:2] == printed[2:]
    assert all(code == 2 and "error:" in err for code, err in printed)


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["plan", "--stack", "dev"], "plan"),
        (["--version"], None),
        (["-h"], None),
        ([], None),
        (["-h", "check", "--strict"], None),  # the top level's help, which lists every command
        (["check", "-h"], "check"),
        (["--help", "plan"], None),
        (["completion", "bash"], "completion"),
        (["plna", "--stack", "dev"], "plna"),
    ],
)
def test_the_command_is_the_first_word_that_is_not_an_option(argv: list[str], command: str | None) -> None:
    assert command_of(argv) == command


@pytest.mark.parametrize("word", [None, "completion", "plna"])
def test_no_command_or_one_the_parser_does_not_have_defines_every_command(word: str | None) -> None:
    subs = _subcommands(build_parser(word))
    assert all(len(sub._actions) > 1 for sub in subs.values())


def test_a_misspelt_command_is_refused_with_the_list_of_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        build_parser(command_of(["plna"])).parse_args(["plna"])
    assert stopped.value.code == 2
    assert "invalid choice: 'plna'" in capsys.readouterr().err
