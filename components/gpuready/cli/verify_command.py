"""``gpuready verify``: wait (WATCH, no polling) until a stack's GPU pools or the selected nodes converge.

``--stack NAME`` builds each pool's expectation from ``stacks/Pulumi.NAME.yaml`` (read without Pulumi) and
watches ``gpuready.io/pool in (...)``; ``--config FILE`` does the same from a stack config file of any program
(``verify_stack``); ``-l SELECTOR`` watches those nodes with inferred expectations and needs at least one. Several
``--context`` (or ``--all-contexts``): every cluster at once under the one deadline (``fleet``). Progress goes to
stderr as ``nodes converged N/M`` with a heartbeat (and each retry with the time left); at the deadline, even one
reached while the API server keeps failing, the findings so far are printed and the exit code is 1. Bad input,
credentials or permissions exit 2; SIGINT / SIGTERM print the findings so far and exit 130 / 143.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpuready.cli import fleet
from gpuready.cli.check_command import command_deadline, fail, open_client, progress
from gpuready.cli.convention_flags import conventions_from
from gpuready.cli.exit_codes import EXIT_INVALID, EXIT_OK
from gpuready.cli.exit_codes import EXIT_VIOLATIONS as EXIT_FINDINGS
from gpuready.cli.habits import is_document, print_document, table_style
from gpuready.cli.heartbeat import Heartbeat
from gpuready.cli.interruption import Interrupted, as_interrupted
from gpuready.cli.smoke_step import SmokePlan, run_smoke_step, smoke_json, smoke_passed, smoke_plan, smoke_text
from gpuready.cli.verify_stack import NO_STACK, config_view, pool_selector, stack_view
from gpuready.errors import GpuReadyError
from gpuready.kube.convergence import Outcome, follow_nodes
from gpuready.kube.deadline import Deadline
from gpuready.kube.node_record import NodeRecord
from gpuready.kube.resource_slices import audit_slices, may_need_slices, slice_reserve, wait_for_slices
from gpuready.record import record
from gpuready.verify.audit import AuditReport, check_converged
from gpuready.verify.errors import VerificationError
from gpuready.verify.expectations import Expectation
from gpuready.verify.incremental import AuditState, WatchedAudit
from gpuready.verify.report import idle_pools_text, render_report, report_json

if TYPE_CHECKING:
    from gpuready.core.conventions import Conventions
    from gpuready.kube.smoke_api import SmokeResult


def run(args: argparse.Namespace) -> int:
    """Wait for convergence; 0 when converged, 1 with findings on timeout, 2 on bad input."""
    from_stack = bool(args.stack or args.config)
    try:
        if args.config:
            view = config_view(Path(args.config), args.project_dir)
        else:
            view = stack_view(args.stack, args.project_dir) if args.stack else NO_STACK
        expectations = view.expectations
        conventions = conventions_from(args, view.conventions)  # the flags over the stack's gpuready:conventions
        smoke = smoke_plan(args, list(view.pools))  # refused before anything is watched: --smoke needs a stack's pools
    except GpuReadyError as error:  # OfflineProjectError included
        return fail(error, args)
    if from_stack and not expectations:
        print(f"{'stack ' + repr(args.stack) if args.stack else args.config} declares no GPU pools; nothing to verify")
        return EXIT_OK
    selector = pool_selector(expectations) if from_stack else args.selector
    watch = Watch(expectations, selector, not from_stack, conventions)
    watching = _Progress(require_nodes=not from_stack)
    try:
        contexts = fleet.contexts_of(args)
        deadline = command_deadline(args)
        if contexts is not None:
            if smoke is not None:
                print("error: --smoke runs on one cluster: drop --smoke or give one --context", file=sys.stderr)
                return EXIT_INVALID
            return fleet.run_verify(args, contexts, watch.converged_on, deadline)
        outcome, report, smoke_results = watch_one(args, watch, deadline, watching=watching, smoke=smoke)
    except GpuReadyError as error:
        return fail(error, args)
    except (KeyboardInterrupt, Interrupted) as error:
        return _interrupted(as_interrupted(error), watching, args)
    _show(args, report, outcome, smoke_text(smoke, smoke_results) if smoke else None, smoke_json(smoke, smoke_results))
    if outcome.converged:
        return EXIT_OK if smoke_passed(smoke, smoke_results) else EXIT_FINDINGS
    if outcome.problem:
        print(f"error: the cluster kept failing until the deadline: {outcome.problem}", file=sys.stderr)
    try:
        check_converged(report, selector)
    except VerificationError as error:
        print(f"error: not converged after {args.timeout:g}s: {error}", file=sys.stderr)
    return EXIT_FINDINGS


@record(frozen=True, slots=True)
class Watch:
    """What ``verify`` waits for on each cluster: the pools' expectations, the node selector, whether a selector
    (not a stack) must find at least one node, and the team's conventions the nodes are judged by."""

    expectations: Mapping[str, Expectation]
    selector: str
    require_nodes: bool
    conventions: Conventions

    def converged_on(self, args: argparse.Namespace, deadline: Deadline, label: str) -> tuple[bool, AuditReport]:
        """Watch the cluster of ``args.context`` (a fleet's member): whether it converged, and its report."""
        outcome, report, _ = watch_one(args, self, deadline, label)
        return outcome.converged, report


def watch_one(
    args: argparse.Namespace,
    watch: Watch,
    deadline: Deadline,
    label: str = "",
    *,
    watching: _Progress | None = None,
    smoke: SmokePlan | None = None,
) -> tuple[Outcome[AuditState], AuditReport, list[SmokeResult]]:
    """Watch one cluster (``args.context``) until it converges or ``deadline`` passes, then run the smoke Jobs;
    ``label`` prefixes the progress lines (the context, in a fleet). DRA nodes converge on their ResourceSlices
    too: the node watch leaves the slice audit a share of the deadline (``slice_reserve``)."""
    progress_of = watching if watching is not None else _Progress(require_nodes=watch.require_nodes)
    dra = may_need_slices(None if watch.require_nodes else [e.advertiser for e in watch.expectations.values()])
    nodes_deadline = deadline.keeping(slice_reserve(deadline)) if dra else deadline
    with open_client(args, deadline) as client, Heartbeat(deadline, label=label) as heartbeat:
        progress_of.attach(heartbeat, label)
        outcome = follow_nodes(
            client,
            watch.selector,
            WatchedAudit(watch.expectations, watch.conventions),
            progress_of.done,
            timeout=nodes_deadline,
            on_change=progress_of.show,
            on_retry=progress,
            listed_as=NodeRecord,  # compact records, as `check` lists: no node kept whole
        )
        report = outcome.state.report()
        client.deadline = deadline  # the slice audit has the rest of the deadline
        if outcome.converged:
            report = wait_for_slices(client, report, deadline, client.policy.sleep)
            outcome = replace(outcome, converged=report.done)
        else:
            report = audit_slices(client, report)
        with_nodes = {r.pool for r in report.results if r.pool}
        smoke_results = run_smoke_step(
            client, smoke, deadline, converged=outcome.converged, pools_with_nodes=with_nodes
        )
    return outcome, report, smoke_results


def _show(
    args: argparse.Namespace,
    report: AuditReport,
    outcome: Outcome[AuditState],
    smoke: str | None,
    smoke_doc: dict[str, Any],
) -> None:
    """The outcome on stdout: the document, or the convergence line / the findings, then the smoke run's."""
    if is_document(args):
        print_document(args, {**report_json(report), "converged": outcome.converged, **smoke_doc})
        return
    wide, headers = table_style(args)
    if outcome.converged:
        print(f"all {report.expected} nodes converged in {outcome.waited:.1f}s")
        if report.idle_pools:
            print(idle_pools_text(report))
    else:
        print(render_report(report, only_findings=True, wide=wide, headers=headers))
    if smoke is not None:
        print(smoke)


def _interrupted(stop: Interrupted, watching: _Progress, args: argparse.Namespace) -> int:
    """SIGINT or SIGTERM while waiting: the findings so far, as at the deadline, then 130 or 143."""
    report = watching.last.report() if watching.last is not None else None
    if report is not None and is_document(args):
        print_document(args, {**report_json(report), "converged": False, "interrupted": stop.name})
    elif report is not None:
        print(render_report(report, only_findings=True))
    seen = f"{report.converged} of {report.expected} nodes converged" if report is not None else "no nodes listed yet"
    print(f"error: interrupted by {stop.name} before convergence ({seen}); findings so far above", file=sys.stderr)
    return stop.exit_code


class _Progress:
    """When waiting is over, and ``nodes converged N/M`` on stderr whenever N or M changes (with the heartbeat)."""

    def __init__(self, require_nodes: bool) -> None:
        self._require_nodes = require_nodes
        self._heartbeat: Heartbeat | None = None
        self._label = ""
        self._last: tuple[int, int] | None = None
        self.last: AuditState | None = None
        """The latest state, for the findings so far when a signal stops the wait."""

    def attach(self, heartbeat: Heartbeat, label: str) -> None:
        """Report through ``heartbeat``, each line prefixed with ``label`` (the context, in a fleet)."""
        self._heartbeat, self._label = heartbeat, label

    def done(self, state: AuditState) -> bool:
        return state.done and (state.expected > 0 or not self._require_nodes)

    def show(self, state: AuditState) -> None:
        self.last = state
        now = (state.converged, state.expected)
        if self._heartbeat is not None:
            self._heartbeat.update(state.pool_progress(), *now)
        if now != self._last:
            self._last = now
            print(f"{self._label}nodes converged {now[0]}/{now[1]}", file=sys.stderr, flush=True)
