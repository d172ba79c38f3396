"""``gpuready`` entry point: parse arguments, dispatch, map errors to exit codes.

Starts fast: only the standard library loads here; a subcommand imports what it needs when it runs.
Exit codes: 0 fine, 1 mandatory policy violations (or findings with --strict), 2 invalid input.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_INVALID = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gpuready",
        description="GPU node pools that are correct by construction, and the proof after deploy.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    plan = commands.add_parser(
        "plan",
        help="run a stack program offline under Pulumi's mock runtime and show what it would create",
        description="Run the Pulumi program offline (no Pulumi CLI, no credentials) and print its plan.",
    )
    source = plan.add_mutually_exclusive_group(required=True)
    source.add_argument("--stack", metavar="NAME", help="plan stacks/Pulumi.NAME.yaml of the project")
    source.add_argument("--config", metavar="FILE", help="plan a stack config file in Pulumi.<stack>.yaml format")
    plan.add_argument(
        "--project-dir", metavar="DIR", default=None, help="directory holding Pulumi.yaml (default: search upwards)"
    )
    plan.add_argument("--program", metavar="DIR", default=None, help="plan another Pulumi Python project directory")
    plan.add_argument("--stack-name", metavar="NAME", default=None, help="stack name to use with --config")
    plan.add_argument("--set", metavar="KEY=VALUE", action="append", default=[], help="override one config value")
    plan.add_argument("--output", "-o", choices=("table", "json"), default="table", help="output format")
    plan.add_argument("--preview", action="store_true", help="run as a preview (unknown outputs stay unknown)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit code."""
    args = build_parser().parse_args(argv)
    if args.command == "plan":
        from components.cli import plan_command  # noqa: PLC0415 - loads the Pulumi SDK only when planning

        return plan_command.run(args)
    raise AssertionError(f"unhandled command {args.command}")


def entry() -> None:
    """Console-script entry: exit without the SDK's stray event-loop messages at interpreter shutdown."""
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
