"""``gpuready verify``: wait (WATCH, no polling) until a stack's GPU pools or the selected nodes converge.

``--stack NAME`` builds each pool's expectation from ``stacks/Pulumi.NAME.yaml`` (read without Pulumi) and
watches ``gpuready.io/pool in (...)``; ``--config FILE`` does the same from a stack config file of any program
(its project is the ``Pulumi.yaml`` beside the file or above it, or ``--project-dir``); ``-l SELECTOR`` watches
those nodes with inferred expectations and needs at least one. Progress goes to stderr as ``nodes converged N/M``
(and each retry with the time left); at the deadline, even one reached while the API server keeps failing, the
findings so far are printed and the exit code is 1. Bad input, credentials or permissions exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from components.cli.check_command import command_deadline, fail, open_client, progress
from components.cli.exit_codes import EXIT_OK
from components.cli.exit_codes import EXIT_VIOLATIONS as EXIT_FINDINGS
from components.core.scheduling import LABEL_POOL
from components.errors import GpuReadyError, kind_of
from components.kube.convergence import follow_nodes
from components.kube.node_record import NodeRecord
from components.kube.resource_slices import audit_slices, wait_for_slices
from components.offline.project import OfflineProjectError, Project, load_project, read_yaml
from components.verify.audit import check_converged
from components.verify.errors import VerificationError
from components.verify.expectations import Expectation, expectation_for
from components.verify.incremental import AuditState, WatchedAudit
from components.verify.report import idle_pools_text, render_report, report_json


def run(args: argparse.Namespace) -> int:
    """Wait for convergence; 0 when converged, 1 with findings on timeout, 2 on bad input."""
    from_stack = bool(args.stack or args.config)
    try:
        if args.config:
            expectations = config_expectations(Path(args.config), args.project_dir)
        else:
            expectations = stack_expectations(args.stack, args.project_dir) if args.stack else {}
    except GpuReadyError as error:  # OfflineProjectError included
        return fail(error, args)
    if from_stack and not expectations:
        print(f"{'stack ' + repr(args.stack) if args.stack else args.config} declares no GPU pools; nothing to verify")
        return EXIT_OK
    selector = pool_selector(expectations) if from_stack else args.selector
    watching = _Progress(require_nodes=not from_stack)
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
                listed_as=NodeRecord,  # compact records, as `check` lists: no node kept whole
            )
            report = outcome.state.report()
            if outcome.converged:  # DRA nodes converge on their ResourceSlices too
                report = wait_for_slices(client, report, deadline, client.policy.sleep)
                outcome = replace(outcome, converged=outcome.converged and report.done)
            else:
                report = audit_slices(client, report)
    except GpuReadyError as error:
        return fail(error, args)
    if args.output == "json":
        print(json.dumps({**report_json(report), "converged": outcome.converged}, indent=None))
    elif outcome.converged:
        print(f"all {report.expected} nodes converged in {outcome.waited:.1f}s")
        if report.idle_pools:
            print(idle_pools_text(report))
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
    return _expectations(project, stack, None)


def config_expectations(path: Path, project_dir: str | None) -> dict[str, Expectation]:
    """Pool name -> expectation for every pool in a stack config file of any program: read through the same
    project and config loading as ``--stack`` (the engine's rules: project defaults, declared types), for the stack
    the file name says (``Pulumi.prod.yaml``: ``prod``)."""
    if not path.is_file():
        raise OfflineProjectError(f"--config: file not found; got '{path}'", "pass the path of a Pulumi.<stack>.yaml")
    _require_stack_document(path)
    project = load_project(Path(project_dir) if project_dir else _find_project_dir(path.resolve().parent))
    stack = path.name.removeprefix("Pulumi.").rsplit(".", 1)[0] or path.stem
    return _expectations(project, stack, path)


def _require_stack_document(path: Path) -> None:
    """Refuse a file that is not a Pulumi stack config file (a mapping with a ``config:`` mapping).

    The offline loader reads a file without ``config:`` as empty config, as the engine does for a stack; a file
    passed by name that has none is a mistake (the project's Pulumi.yaml, a Helm values file)."""
    document = read_yaml(path.read_text("utf-8-sig"), str(path))
    if isinstance(document, dict) and "runtime" in document:
        raise OfflineProjectError(
            f"--config: {path} is a Pulumi project file (it has 'runtime:'), not a stack config file",
            "pass the Pulumi.<stack>.yaml beside it; the project is found from there (or pass --project-dir)",
        )
    config = document.get("config") if isinstance(document, dict) else None
    if not isinstance(config, dict):
        has = "a mapping without 'config:'" if isinstance(document, dict) else kind_of(document)
        raise OfflineProjectError(
            f"--config: {path} is not a Pulumi stack config file: it holds {has}",
            "pass a Pulumi.<stack>.yaml whose 'config:' maps keys such as gpuready:cloud to values",
        )


def _expectations(project: Project, stack: str, config_file: Path | None) -> dict[str, Expectation]:
    # The stack config and its model (pydantic, ~150 ms) load only when a stack is verified: ``verify -l`` stays fast.
    from components.core.stack_settings import NS, parse_stack_settings  # noqa: PLC0415 - pydantic and the stack config load only when a stack is verified
    from components.offline.pulumi_config import load_stack_config  # noqa: PLC0415 - pydantic and the stack config load only when a stack is verified

    config = load_stack_config(project, stack, config_file=config_file)
    if config_file is not None and not any(key.startswith(f"{NS}:") for key in config.values):
        raise OfflineProjectError(
            f"--config: {config_file} has no {NS}:* settings, so no GPU pools to verify",
            f"pass the stack file of a program whose pools are configured with {NS}:nodePools, or use -l SELECTOR",
        )
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


def _find_project_dir(start: Path | None = None) -> Path:
    here = start or Path.cwd()
    for candidate in (here, *here.parents):
        if (candidate / "Pulumi.yaml").is_file() or (candidate / "Pulumi.yml").is_file():
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
