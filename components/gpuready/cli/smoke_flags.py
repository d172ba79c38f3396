"""``verify``'s smoke-run flags, apart from the smoke run itself so that building the parser loads no cluster client
and no pool model (the CLI's start-up path)."""

from __future__ import annotations

import argparse

from gpuready.core.health.smoke_image import DEFAULT_SMOKE_IMAGE


def add_smoke_arguments(parser: argparse.ArgumentParser) -> None:
    """``--smoke``, ``--smoke-image`` and ``--smoke-namespace`` on ``verify``."""
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="after the pools converge, run one GPU Job per pool (nvidia-smi), then delete it",
    )
    parser.add_argument("--smoke-image", metavar="IMAGE", default=DEFAULT_SMOKE_IMAGE,
                        help=f"image of the smoke Job (default {DEFAULT_SMOKE_IMAGE})")  # fmt: skip
    parser.add_argument("--smoke-namespace", metavar="NS", default="default",
                        help="namespace of the smoke Jobs (default: default)")  # fmt: skip
