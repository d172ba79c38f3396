"""``gpuready verify``: wait (WATCH, no polling) until a stack's GPU pools or the selected nodes converge.

``--stack NAME`` builds each pool's expectation from ``stacks/Pulumi.NAME.yaml`` (read without Pulumi) and
watches ``gpuready.io/pool in (...)``; ``-l SELECTOR`` watches those nodes with inferred expectations and
needs at least one. Progress goes to stderr as ``nodes converged N/M`` (and each retry with the time left); at
the deadline, even one reached while the API server keeps failing, the findings so far are printed and the exit
code is 1. Bad input, credentials or permissions exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path

from components.cli.check_command import command_deadline, fail, open_client, progress
from components.cli.exit_codes import EXIT_OK
from components.cli.exit_codes import EXIT_VIOLATIONS as EXIT_FINDINGS
from components.core.scheduling import LABEL_POOL
from components.errors import GpuReadyError
from components.kube.convergence import follow_nodes
from components.offline.project import OfflineProjectError, load_project
from components.verify.audit import check_converged
from components.verify.errors import VerificationError
from components.verify.expectations import Expectation, expectation_for
from components.verify.incremental import AuditState, WatchedAudit
from components.verify.report import render_report, report_json


def run(args: argparse.Namespace) -> int:
    """Wait for convergence; 0 when converged, 1 with findings on timeout, 2 on bad input."""
    try:
        expectations = stack_expectations(args.stack, args.project_dir) if args.stack else {}
    except GpuReadyError as error:  # OfflineProjectError included
        return fail(error)
    if args.stack and not expectations:
        print(f"stack {args.stack!r} declares no GPU pools; nothing to verify")
        return EXIT_OK
    selector = pool_selector(expectations) if args.stack else args.selector
    watching = _Progress(require_nodes=not args.stack)
    try:
        deadline = command_deadline(args)
        with open_client(args, deadline) as client:
            outcome = follow_nodes(
                client,
                selector,
                WatchedAudit(expectations),
                watching.done,
                timeout=deadline,
                on_change=watching.show,
                on_retry=progress,
            )
    except GpuReadyError as error:
        return fail(error)
    report = outcome.state.report()
    if args.output == "json":
        print(json.dumps({**report_json(report), "converged": outcome.converged}, indent=None))
    elif outcome.converged:
        print(f"all {report.expected} nodes converged in {outcome.waited:.1f}s")
    else:
        print(render_report(report, only_findings=True))
    if outcome.converged:
        return EXIT_OK
    if outcome.problem:
        print(f"error: the cluster kept failing until the deadline: {outcome.problem}", file=sys.stderr)
    try:
        check_converged(report, selector)
    except VerificationError as error:
        print(f"error: not converged after {args.timeout:g}s: {error}", file=sys.stderr)
    return EXIT_FINDINGS


def stack_expectations(stack: str, project_dir: str | None) -> dict[str, Expectation]:
    """Pool name -> expectation for every pool in the stack's config (no Pulumi import)."""
    project = load_project(Path(project_dir) if project_dir else _find_project_dir())
    if not project.stack_file(stack).is_file():
        raise OfflineProjectError(f"stack {stack!r} has no config file {project.stack_file(stack)}")
    # The stack config and its model (pydantic, ~150 ms) load only when a stack is verified: ``verify -l`` stays fast.
    from components.core.stack_settings import NS, parse_stack_settings  # noqa: PLC0415 - pydantic and the stack config load only when a stack is verified
    from components.offline.pulumi_config import load_stack_config  # noqa: PLC0415 - pydantic and the stack config load only when a stack is verified

    config = load_stack_config(project, stack)
    values: dict[str, object] = {}
    for full_key, text in config.values.items():
        namespace, _, key = full_key.partition(":")
        if namespace == NS:
            values[key] = text  # as the engine passes them (arrays JSON-encoded): the settings model decodes them
    settings = parse_stack_settings(values)
    return {spec.name: expectation_for(spec) for spec in settings.pools}


def pool_selector(expectations: Mapping[str, Expectation]) -> str:
    """``gpuready.io/pool in (a,b)``: exactly the stack's pools."""
    return f"{LABEL_POOL} in ({','.join(sorted(expectations))})"


def _find_project_dir() -> Path:
    here = Path.cwd()
    for candidate in (here, *here.parents):
        if (candidate / "Pulumi.yaml").is_file():
            return candidate
    raise OfflineProjectError(f"no Pulumi.yaml in {here} or above", "run from the project or pass --project-dir")


class _Progress:
    """When waiting is over, and ``nodes converged N/M`` on stderr whenever N or M changes."""

    def __init__(self, require_nodes: bool) -> None:
        self._require_nodes = require_nodes
        self._last: tuple[int, int] | None = None

    def done(self, state: AuditState) -> bool:
        return state.done and (state.expected > 0 or not self._require_nodes)

    def show(self, state: AuditState) -> None:
        now = (state.converged, state.expected)
        if now != self._last:
            self._last = now
            print(f"nodes converged {now[0]}/{now[1]}", file=sys.stderr, flush=True)
