"""What makes ``gpuready`` fit kubectl habits, added to the parser in one place: ``--version``, ``-o yaml`` wherever
``-o json`` exists, ``-o wide`` and ``--no-headers`` on every table (check's and verify's nodes, plan's pools,
label's plan, diff's changes and capacity), ``check --all-contexts`` (with ``--context``
repeated: a fleet, ``fleet.py``), and ``gpuready completion bash|zsh``.

Only the standard library loads here (the CLI starts fast); the version is read when ``--version`` is asked.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

SHELLS = ("bash", "zsh")
"""The shells ``gpuready completion`` writes a script for (``completion.py``)."""
WIDE_COMMANDS = frozenset({"check", "verify", "plan", "label", "diff"})
"""Commands whose tables have more columns with ``-o wide``, and take ``--no-headers`` (``label``, which printed
only a table, gets ``-o table|wide`` here)."""


class _Version(argparse.Action):
    """``--version``: the installed distribution's version, looked up only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **_: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415 - only when asked

        try:
            found = version("gpuready")
        except PackageNotFoundError:  # run from a checkout that was never installed
            found = "unknown (not installed)"
        print(f"gpuready {found}")  # stdout, as kubectl version --client prints it
        parser.exit()


def extend(parser: argparse.ArgumentParser, defined: Sequence[str], *, every: bool = True) -> None:
    """Add the kubectl habits to ``parser`` (``build_parser``'s), after the commands ``defined`` got their
    arguments; ``every``: the parser is the whole one (``completion`` is one of its commands), not one command's."""
    parser.add_argument("--version", action=_Version)
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    if every:
        completion = commands.add_parser(
            "completion",
            help="print a shell completion script: source <(gpuready completion bash)",
            description="Print a bash or zsh completion script generated from gpuready's own parser.",
        )
        completion.add_argument("shell", choices=SHELLS, help="the shell: bash, or zsh")
    for fleet_command in ("check", "verify"):
        if fleet_command not in defined:
            continue
        commands.choices[fleet_command].add_argument(
            "--all-contexts", action="store_true", help="every context of the kubeconfig at once (a fleet)"
        )
    for name, sub in commands.choices.items():
        if name not in defined:
            continue
        output = next((a for a in sub._actions if "--output" in a.option_strings), None)
        if output is None and name in WIDE_COMMANDS:
            output = sub.add_argument("--output", "-o", choices=("table",), default="table", help="output format")
        if output is None or output.choices is None:
            continue
        choices = list(output.choices)
        if "json" in choices:
            choices.append("yaml")
        if name in WIDE_COMMANDS and "table" in choices:
            choices.append("wide")
            sub.add_argument("--no-headers", action="store_true", help="print tables without their header row")
        output.choices = tuple(dict.fromkeys(choices))
        output.help = f"output format: {', '.join(output.choices)}"


def is_document(args: argparse.Namespace) -> bool:
    """Whether the command prints one machine-readable document (``-o json`` or ``-o yaml``)."""
    return getattr(args, "output", "") in ("json", "yaml")


def print_document(args: argparse.Namespace, document: Any) -> None:
    """``document`` as JSON (indented on a terminal) or, with ``-o yaml``, as YAML."""
    if args.output == "yaml":
        import yaml  # noqa: PLC0415 - only for -o yaml

        print(yaml.safe_dump(document, sort_keys=False, default_flow_style=False), end="")
        return
    print(json.dumps(document, indent=2 if sys.stdout.isatty() else None))


def table_style(args: argparse.Namespace) -> tuple[bool, bool]:
    """(wide, headers) of a command's tables."""
    return getattr(args, "output", "") == "wide", not getattr(args, "no_headers", False)
