"""``gpuready plan``: the offline plan of a stack, printed as a tree and a per-pool table, or as JSON."""

from __future__ import annotations

import argparse
import gc
import logging
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpuready.ci_report import CI_FORMATS
from gpuready.cli import error_report
from gpuready.cli.exit_codes import EXIT_INVALID, EXIT_OK, EXIT_PROGRAM_FAILED, EXIT_VIOLATIONS
from gpuready.cli.habits import is_document, print_document, table_style
from gpuready.cli.kueue_section import render_kueue
from gpuready.cli.pool_table import is_pool_component, pool_json, render_pool_table
from gpuready.cli.program_log import ProgramLog, collected
from gpuready.cli.release_section import render_releases
from gpuready.cli.violation_table import format_violations
from gpuready.gc_pause import paused_gc
from gpuready.offline.capture import CapturedRun
from gpuready.offline.plan import JsonValue, Plan, build_plan, render_tree, to_json_value
from gpuready.offline.project import OfflineProjectError, load_project
from gpuready.offline.runner import is_config_error, run_stack
from gpuready.offline.transforms import transform_warnings
from gpuready.offline.yaml_runtime import RUNTIME as YAML_RUNTIME
from gpuready.offline.yaml_runtime import project_runtime

if TYPE_CHECKING:
    from gpuready.offline.gate_summary import GateSummary


def run(args: argparse.Namespace) -> int:
    """Plan the stack the arguments name; print the result; return the exit code.

    The cyclic GC stays paused for the whole command: the run's objects stay alive until the process exits,
    so a collection after the run would rescan all of them while the plan is built (a third of a
    1,000-pool plan's time).
    """
    if getattr(args, "exiting", False):
        # The process ends after this command: re-enabling the collector would only buy one full
        # collection over the run's whole object graph (about 0.8 s at 1,000 pools).
        gc.disable()
        return _run(args)
    with paused_gc():
        return _run(args)


_UNTIL_EXIT: list[object] = []
"""Runs kept alive until the process exits: freeing a large run's object graph costs about 15% of the run."""


def _run(args: argparse.Namespace) -> int:
    if args.program and project_runtime(Path(args.program)) == YAML_RUNTIME:
        from gpuready.cli import yaml_check  # noqa: PLC0415 - only for YAML programs

        return yaml_check.run(args, Path(args.program))
    json_output = is_document(args)
    try:
        with collected() as log:
            captured = _capture(args)
        if getattr(args, "exiting", False):
            _UNTIL_EXIT.append(captured)
    except OfflineProjectError as error:
        return _fail(args, error_report.input_error(error), EXIT_INVALID)
    except Exception as error:  # noqa: BLE001 - whatever the program raises is reported: exit 2 or 3
        report, code = _program_error(error, args)
        return _fail(args, report, code)
    for warning in transform_warnings(captured):
        log.add(logging.WARNING, warning)
    gate = _policy_gate(args, captured)
    if gate is None:
        return EXIT_INVALID
    violations, summary = gate
    plan = build_plan(captured, violations=violations)
    if json_output:
        # Indented for a person at a terminal; compact (the C encoder, ~5x faster) for pipes and files.
        document = {
            **plan.to_json_dict(),
            "pools": pool_json(_pool_outputs(captured)),
            "warnings": sorted(log.warnings),
            "policyGate": summary.as_json() if summary is not None else None,
        }
        print_document(args, document)
        for line in log.stderr_lines():
            print(line, file=sys.stderr)
    elif args.output in CI_FORMATS:
        from gpuready.ci_report import formats  # noqa: PLC0415 - only for CI formats

        rules = dict(summary.rules) if summary is not None else {}
        findings = formats.plan_findings(plan.violations, rules, _stack_file(args))
        print(formats.render(args.output, findings), end="")
        for line in log.stderr_lines():
            print(line, file=sys.stderr)
    else:
        gate_line = summary.line() if summary is not None else "Policy gate: not run (--no-policy)"
        wide, headers = table_style(args)
        print(render_text(plan, captured, log, wide=wide, headers=headers) + "\n\n" + gate_line)
    mandatory = [v for v in plan.violations if isinstance(v, Mapping) and v.get("level") == "mandatory"]
    return EXIT_VIOLATIONS if mandatory else EXIT_OK


def _program_error(error: Exception, args: argparse.Namespace) -> tuple[error_report.ErrorReport, int]:
    """gpuready's refusal of the config (exit 2), a config key the program requires (exit 2), or the program's
    own failure (exit 3)."""
    ours = error_report.gpuready_cause(error)
    if ours is not None:
        return error_report.input_error(ours), EXIT_INVALID
    if is_config_error(error):
        return error_report.ErrorReport(error_report.INVALID_INPUT, str(error)), EXIT_INVALID
    return error_report.program_failure(error, _program_dir(args)), EXIT_PROGRAM_FAILED


def _fail(args: argparse.Namespace, report: error_report.ErrorReport, code: int) -> int:
    debug = getattr(args, "debug", False)
    error_report.emit(report, json_output=args.output == "json", debug=debug)
    if report.kind == error_report.PROGRAM_FAILED and not debug:
        print("  (the whole traceback: the same command with --debug)", file=sys.stderr)
    return code


def render_text(
    plan: Plan, captured: CapturedRun, log: ProgramLog | None = None, *, wide: bool = False, headers: bool = True
) -> str:
    """The human-readable plan: header, resource tree, per-pool table (``-o wide``: more columns; ``--no-headers``:
    no header row), releases, the program's warnings and what was not checked (``pulumi.log``), policy violations."""
    pools = _pool_outputs(captured)
    lines = [
        f"Plan of stack {plan.stack!r} (project {plan.project!r}): {len(plan.resources)} resources, offline",
        "",
        render_tree(plan).rstrip(),
        "",
        render_pool_table(pools, wide=wide, headers=headers),
    ]
    releases = render_releases(plan.resources)
    if releases:
        lines += ["", releases]
    queues = render_kueue(plan.resources)
    if queues:
        lines += ["", queues]
    said = log.render() if log is not None else ""
    if said:
        lines += ["", said]
    if plan.violations:
        lines += ["", format_violations(plan.violations)]
    return "\n".join(lines)


def _pool_outputs(captured: CapturedRun) -> list[tuple[str, dict[str, Any]]]:
    """(name, plain outputs) of every gpuready pool component of the run."""
    return [
        (r.name, _plain(captured.component_outputs(r.urn))) for r in captured.resources if is_pool_component(r.type)
    ]


def _policy_gate(args: argparse.Namespace, captured: CapturedRun) -> tuple[list[JsonValue], GateSummary | None] | None:
    """The gpuready-gpu-conventions pack's violations on the run, evaluated through the engine's Analyzer
    protocol (issue #5), and what the gate ran over; ``([], None)`` with ``--no-policy``; None, after reporting
    it, when the policy config is bad."""
    if getattr(args, "no_policy", False):
        return [], None
    from gpuready.offline import analyzer, analyzer_requests  # noqa: PLC0415 - pulumi_policy loads only when the gate runs
    from gpuready.offline.conventions_config import gate_config  # noqa: PLC0415 - with the gate
    from gpuready.offline.gate_summary import gate_summary  # noqa: PLC0415 - with the gate

    try:
        path = getattr(args, "policy_config", None)
        config = gate_config(captured, analyzer.load_policy_config(Path(path)) if path else None)
        violations, policies, configure = analyzer.gate(captured, config=config)
        found: list[JsonValue] = [dict[str, JsonValue](v.as_json()) for v in violations]
        return found, gate_summary(captured, policies, configure)
    except analyzer_requests.PolicyConfigError as error:
        _fail(args, error_report.ErrorReport(error_report.INVALID_POLICY_CONFIG, str(error)), EXIT_INVALID)
        return None


def _stack_file(args: argparse.Namespace) -> str:
    """The stack config file a person edits to fix a violation, relative to the working directory when inside it."""
    if args.config:
        path = Path(args.config)
    else:
        project_dir = Path(args.program) if args.program else _find_project_dir(args.project_dir)
        path = load_project(project_dir).stack_file(args.stack or args.stack_name or "dev")
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _program_dir(args: argparse.Namespace) -> Path:
    project_dir = Path(args.program) if args.program else _find_project_dir(args.project_dir)
    return load_project(project_dir).program_dir


def _capture(args: argparse.Namespace) -> CapturedRun:
    project_dir = Path(args.program) if args.program else _find_project_dir(args.project_dir)
    project = load_project(project_dir)
    config_file = Path(args.config) if args.config else None
    stack = args.stack or args.stack_name or (config_file.stem.removeprefix("Pulumi.") if config_file else "dev")
    # A program of one's own may have no stack file: the engine reads that as empty config. gpuready's own stacks
    # always have one, so there a missing file is a mistyped stack name.
    if args.stack and not args.program and not project.stack_file(stack).is_file():
        known = sorted(
            p.name.removeprefix("Pulumi.").rsplit(".", 1)[0] for p in project.stack_config_dir.glob("Pulumi.*.y*ml")
        )
        raise OfflineProjectError(
            f"stack {stack!r} has no config file {project.stack_file(stack)}",
            f"known stacks: {', '.join(known) or 'none'}; or plan a file with --config",
        )
    return run_stack(
        project,
        stack,
        config_file=config_file,
        overrides=args.set,
        path_overrides=getattr(args, "set_path", ()),
        preview=args.preview,
        root_directory=project_dir,
    )


def _find_project_dir(explicit: str | None) -> Path:
    if explicit:
        return Path(explicit)
    here = Path.cwd()
    for candidate in (here, *here.parents):
        if (candidate / "Pulumi.yaml").is_file():
            return candidate
    raise OfflineProjectError(f"no Pulumi.yaml in {here} or above", "run from the project or pass --project-dir")


def _plain(outputs: Mapping[str, Any]) -> dict[str, Any]:
    value = to_json_value(outputs)
    return value if isinstance(value, dict) else {}
