"""The ``gpuready new`` subcommand's arguments. Loaded only when ``new`` runs or every command's arguments are
defined (``parser.py``)."""

from __future__ import annotations

import argparse

from gpuready.new_project.flags import CLOUDS, LIST_KEYS, WIRING_FLAGS


def add_arguments(new: argparse.ArgumentParser) -> None:
    """Add ``new``'s arguments to its parser."""
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
