"""``gpuready diff OLD.json NEW.json``: compare two plans; exit 1 when GPU capacity is at risk (a GPU pool replaced,
deleted, or left with fewer schedulable units, another GPU model, resource names or labels), 2 for a file that is
not a plan or plans of different stacks, projects or formats (unless ``--force``)."""

from __future__ import annotations

import argparse

from gpuready.cli.error_report import INVALID_INPUT, ErrorReport, emit
from gpuready.cli.exit_codes import EXIT_INVALID, EXIT_OK
from gpuready.cli.exit_codes import EXIT_VIOLATIONS as EXIT_AT_RISK
from gpuready.cli.habits import is_document, print_document, table_style
from gpuready.plan_diff.diff import diff_plans
from gpuready.plan_diff.plan_file import PlanFormatError, PlanMismatchError, PlanReadError, comparable, load_plan
from gpuready.plan_diff.report import to_json, to_text


def run(args: argparse.Namespace) -> int:
    try:
        old, new = load_plan(args.old, "old"), load_plan(args.new, "new")
        warnings = comparable(old, new, force=args.force)
        diff = diff_plans(old, new)
    except (PlanFormatError, PlanMismatchError) as error:
        kind = (
            "cannot read the plans"
            if isinstance(error, PlanReadError)
            else "not a gpuready plan"
            if isinstance(error, PlanFormatError)
            else "plans that cannot be compared"
        )
        emit(ErrorReport(INVALID_INPUT, f"{kind}: {error}"), json_output=args.output == "json")
        return EXIT_INVALID
    allowed = args.allow_replace
    output = args.output
    if is_document(args):
        print_document(args, to_json(diff, allowed=allowed, warnings=warnings))
    elif output in ("table", "wide"):
        wide, headers = table_style(args)
        print(to_text(diff, allowed=allowed, warnings=warnings, wide=wide, headers=headers))
    else:
        from gpuready.ci_report import formats  # noqa: PLC0415 - only for CI formats

        print(formats.render(output, formats.diff_findings(diff, args.new, allowed=allowed)), end="")
    return EXIT_AT_RISK if diff.at_risk and not allowed else EXIT_OK
