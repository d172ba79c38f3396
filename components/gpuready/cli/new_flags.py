"""The ``gpuready new`` subcommand's parser. Standard library only: the CLI builds its parser at every start."""

from __future__ import annotations

import argparse
from typing import Any

from gpuready.new_project.flags import CLOUDS, LIST_KEYS, WIRING_FLAGS


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``new`` to ``commands`` (the parser's subparsers action)."""
    new: argparse.ArgumentParser = commands.add_parser(
        "new",
        help="create a Pulumi project of your own that depends on gpuready and plans offline at once",
        description="Write Pulumi.yaml, requirements.txt, __main__.py, Pulumi.<stack>.yaml with one example GPU pool, "
        ".gitignore and a GitHub Actions workflow (plan + diff) into DIR.",
    )
    new.add_argument("directory", metavar="DIR", help="the project's directory (created; must be empty if it exists)")
    new.add_argument("--cloud", required=True, choices=CLOUDS, help="cloud of the existing cluster")
    new.add_argument("--cluster-name", required=True, metavar="NAME", help="name of the existing cluster")
    new.add_argument("--stack", default="dev", metavar="NAME", help="stack name of the first stack (default dev)")
    new.add_argument(
        "--gpuready", metavar="REQUIREMENT", default=None,
        help="the requirements.txt line for gpuready (default: where the running gpuready was installed from)",
    )  # fmt: skip
    for key, flag in WIRING_FLAGS.items():
        many = key in LIST_KEYS
        new.add_argument(
            flag, dest=f"wiring_{key}", metavar="VALUE", action="append" if many else "store",
            default=None, help=f"gpuready:{key}" + (" (repeat it for several)" if many else ""),
        )  # fmt: skip
    return new
