"""``gpuready completion bash|zsh``: a shell completion script generated from the argparse parser.

The script holds the commands and, per command, its flags and the fixed choices of a flag (``-o``), read off the
parser so it never falls behind it. Flags that take a file complete file names. The zsh script uses bash's
completion through ``bashcompinit`` (zsh's own documented bridge), so both shells run the one function.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Iterable, Iterator

from gpuready.cli.exit_codes import EXIT_INVALID, EXIT_OK
from gpuready.cli.habits import SHELLS

_FILE_METAVARS = frozenset({"FILE", "DIR", "OLD.json", "NEW.json"})


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.shell not in SHELLS:  # argparse's choices refuse it first; kept for callers that build args by hand
        print(f"error: unknown shell {args.shell!r}; use one of {', '.join(SHELLS)}", file=sys.stderr)
        return EXIT_INVALID
    print(script(parser, args.shell))
    return EXIT_OK


def script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``parser`` for ``shell``."""
    body = _bash_function(parser)
    if shell == "zsh":
        return "#compdef gpuready\nautoload -U +X bashcompinit && bashcompinit\n" + body
    return body


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse exposes subparsers only through its actions
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _flags(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.Action]]:
    for action in parser._actions:
        for option in action.option_strings:
            yield option, action


def _bash_function(parser: argparse.ArgumentParser) -> str:
    commands = _subcommands(parser)
    top = " ".join(option for option, _ in _flags(parser))
    cases: list[str] = []
    for name, sub in commands.items():
        options = " ".join(option for option, _ in _flags(sub))
        positional = any(not a.option_strings and a.choices for a in sub._actions)
        words = " ".join(
            str(c) for a in sub._actions if not a.option_strings and a.choices for c in a.choices
        ) if positional else ""  # fmt: skip
        values: list[str] = []
        for option, action in _flags(sub):
            if action.choices:
                values.append(f'{option}) COMPREPLY=($(compgen -W {_quote(action.choices)} -- "$cur")); return;;')
            elif action.metavar in _FILE_METAVARS:
                values.append(f'{option}) COMPREPLY=($(compgen -f -- "$cur")); return;;')
            elif action.nargs != 0 and action.option_strings:
                values.append(f"{option}) return;;")
        value_case = "\n".join(f"        {v}" for v in values)
        cases.append(
            f"    {shlex.quote(name)})\n"
            f'      case "$prev" in\n{value_case}\n      esac\n'
            f'      COMPREPLY=($(compgen -W {_quote([*options.split(), *words.split()])} -- "$cur"));;'
        )
    return "\n".join(
        [
            "# gpuready completion (generated from its argument parser: gpuready completion bash|zsh)",
            "_gpuready() {",
            "  local cur prev command i",
            '  cur="${COMP_WORDS[COMP_CWORD]}"',
            '  prev="${COMP_WORDS[COMP_CWORD-1]}"',
            "  command=",
            "  for ((i = 1; i < COMP_CWORD; i++)); do",
            '    case "${COMP_WORDS[i]}" in -*) ;; *) command="${COMP_WORDS[i]}"; break;; esac',
            "  done",
            '  case "$command" in',
            "    '')",
            f'      COMPREPLY=($(compgen -W {_quote([*commands, *top.split()])} -- "$cur"));;',
            *cases,
            "  esac",
            "}",
            "complete -o default -F _gpuready gpuready",
        ]
    )


def _quote(words: Iterable[object]) -> str:
    return shlex.quote(" ".join(str(w) for w in words))
