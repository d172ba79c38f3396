"""``verify``'s smoke-run flags, apart from the smoke run itself so that building the parser loads no cluster client
and no pool model (the CLI's start-up path)."""

from __future__ import annotations

import argparse

from gpuready.core.health.smoke_image import DEFAULT_NCCL_IMAGE, DEFAULT_SMOKE_IMAGE


def add_smoke_arguments(parser: argparse.ArgumentParser) -> None:
    """``--smoke``, ``--smoke-image``, ``--smoke-nccl-image`` and ``--smoke-namespace`` on ``verify``."""
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="after the pools converge, run one GPU Job per pool (nvidia-smi; on a fabric pool a two-node NCCL "
        "all-reduce), then delete it",
    )
    parser.add_argument("--smoke-image", metavar="IMAGE", default=DEFAULT_SMOKE_IMAGE,
                        help=f"image of the smoke Job (default {DEFAULT_SMOKE_IMAGE})")  # fmt: skip
    parser.add_argument("--smoke-nccl-image", metavar="IMAGE", default=None,
                        help="image of a fabric pool's two-node NCCL all-reduce, with torchrun, NCCL and the "
                        "fabric's NCCL plugin (default: the image its cloud names for the fabric, e.g. an AWS Deep "
                        f"Learning Container on EFA, else {DEFAULT_NCCL_IMAGE})")  # fmt: skip
    parser.add_argument("--smoke-namespace", metavar="NS", default="default",
                        help="namespace of the smoke Jobs (default: default)")  # fmt: skip
