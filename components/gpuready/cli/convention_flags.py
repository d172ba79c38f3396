"""The convention flags of ``check`` and ``verify`` (``--gpu-taint``, ``--no-skypilot-labels``): the same
conventions as the stack's ``gpuready:conventions`` and the pack's ``gpuTaint`` / ``skypilotLabels``
(``gpuready.core.conventions``). Standard library at import: the CLI starts fast."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpuready.core.conventions import Conventions


def add_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--gpu-taint", metavar="KEY=VALUE:EFFECT", default=None,
        help="the team's GPU taint (default nvidia.com/gpu=present:NoSchedule; AKS docs use sku=gpu:NoSchedule)",
    )  # fmt: skip
    parser.add_argument(
        "--no-skypilot-labels", action="store_true", help="GPU nodes carry no skypilot.co/accelerator label"
    )


def conventions_from(args: argparse.Namespace, base: Conventions | None = None) -> Conventions:
    """``base`` (the stack's, or the defaults) with what the flags set; raises ``SpecError`` for a bad taint."""
    from gpuready.core.conventions import DEFAULT, Conventions, parse_gpu_taint  # noqa: PLC0415 - only when used
    from gpuready.errors import Problem, SpecError  # noqa: PLC0415 - only when used

    chosen = base if base is not None else DEFAULT
    taint = chosen.gpu_taint
    if getattr(args, "gpu_taint", None) is not None:
        parsed = parse_gpu_taint(args.gpu_taint, "--gpu-taint")
        if isinstance(parsed, Problem):
            raise SpecError([parsed])
        taint = parsed
    skypilot = chosen.skypilot_labels and not getattr(args, "no_skypilot_labels", False)
    return Conventions(gpu_taint=taint, skypilot_labels=skypilot)
