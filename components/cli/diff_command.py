"""``gpuready diff OLD.json NEW.json``: compare two plans; exit 1 when a GPU pool would be replaced or deleted."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from components.cli.error_report import INVALID_INPUT, ErrorReport, emit
from components.cli.exit_codes import EXIT_INVALID, EXIT_OK
from components.cli.exit_codes import EXIT_VIOLATIONS as EXIT_AT_RISK
from components.cli.habits import is_document, print_document
from components.plan_diff.diff import PlanFormatError, diff_plans
from components.plan_diff.report import to_json, to_text


def run(args: argparse.Namespace) -> int:
    try:
        old, new = _load(args.old), _load(args.new)
        diff = diff_plans(old, new)
    except (OSError, ValueError) as error:  # unreadable file, bad JSON, not a plan (PlanFormatError)
        kind = "not a gpuready plan" if isinstance(error, PlanFormatError) else "cannot read the plans"
        report = ErrorReport(INVALID_INPUT, f"{kind}: {error}")
        emit(report, json_output=args.output == "json")
        return EXIT_INVALID
    if is_document(args):
        print_document(args, to_json(diff, allowed=args.allow_replace))
    else:
        print(to_text(diff, allowed=args.allow_replace))
    return EXIT_AT_RISK if diff.at_risk and not args.allow_replace else EXIT_OK


def _load(path: str) -> Any:
    with Path(path).open("rb") as handle:
        return json.load(handle)
