"""``gpuready check``: list GPU nodes (labeled or not), check each, print findings with fixes.

Also holds what the cluster-facing commands share: opening a client from ``--kubeconfig``/``--context`` and
turning gpuready errors into ``error: ...`` on stderr and exit code 2. Every request, retry and wait of a command
shares one deadline (``--timeout``); a retry that would end past it is not started.
"""

from __future__ import annotations

import argparse
import sys

from gpuready.cli import fleet
from gpuready.cli.convention_flags import conventions_from
from gpuready.cli.error_report import command_error, emit
from gpuready.cli.exit_codes import EXIT_INVALID, EXIT_OK
from gpuready.cli.exit_codes import EXIT_VIOLATIONS as EXIT_FINDINGS
from gpuready.cli.habits import is_document, print_document, table_style
from gpuready.cli.next_step import with_next_step
from gpuready.cloud_credentials import recognise
from gpuready.errors import GpuReadyError
from gpuready.gc_pause import paused_gc
from gpuready.kube.deadline import Deadline
from gpuready.kube.errors import KubeUnreachableError
from gpuready.kube.node_record import list_views as node_views
from gpuready.kube.nodes_api import NodeClient, connect
from gpuready.kube.resource_slices import audit_slices
from gpuready.verify.audit import AuditReport, audit
from gpuready.verify.health_summary import health_text, pool_health
from gpuready.verify.report import render_report, report_json


def open_client(args: argparse.Namespace, deadline: Deadline | None = None) -> NodeClient:
    """A node client for the kubeconfig and context the arguments name (kubectl's rules otherwise), bound by
    ``deadline`` (default: ``--timeout`` from now) and telling stderr about long retry waits."""
    deadline = deadline if deadline is not None else command_deadline(args)
    return connect(args.kubeconfig, one_context(args), deadline=deadline, progress=progress, credentials=recognise)


def one_context(args: argparse.Namespace) -> str | None:
    """The one ``--context`` of a single-cluster command (``check`` takes several: ``fleet``)."""
    given = args.context
    if not isinstance(given, list):
        return given  # type: ignore[no-any-return]
    if len(set(given)) > 1:
        raise GpuReadyError(
            f"--context: given {len(given)} times; {args.command} works on one cluster at a time "
            "(check and verify take several); run it once per context"
        )
    return given[0] if given else None


def command_deadline(args: argparse.Namespace) -> Deadline:
    """The one deadline of this command: ``--timeout`` seconds from now."""
    if not 0 < args.timeout < float("inf"):  # 0 would be a deadline already passed
        raise GpuReadyError(f"--timeout: must be more than 0 seconds, e.g. 60; got {args.timeout:g}")
    return Deadline(args.timeout)


def progress(message: str) -> None:
    """A retry or a long wait, for the person watching (stderr, so stdout stays parseable)."""
    print(f"gpuready: {message}", file=sys.stderr, flush=True)


def fail(error: Exception | str, args: argparse.Namespace | None = None) -> int:
    """Report a gpuready error (the README's error contract: ``error: ...`` on stderr, and with ``-o json`` the
    error object on stdout) and return the 'invalid input / unreachable' exit code."""
    json_output = args is not None and getattr(args, "output", "") == "json"
    if args is not None and isinstance(error, KubeUnreachableError):  # still a cluster error, now with what to do
        error = with_next_step(error, getattr(args, "kubeconfig", None), getattr(args, "context", None))
    emit(command_error(error), json_output=json_output)
    return EXIT_INVALID


FAILING: dict[str, frozenset[str]] = {"error": frozenset({"error"}), "warning": frozenset({"error", "warning"})}
"""``--fail-on`` -> the finding severities that fail the command."""


def audited(args: argparse.Namespace, deadline: Deadline | None = None) -> AuditReport:
    """The selected nodes audited with the team's conventions, DRA nodes with what their ResourceSlices publish."""
    conventions = conventions_from(args)
    with open_client(args, deadline) as client:
        return audit_slices(client, audit(node_views(client, args.selector), {}, conventions))


def run(args: argparse.Namespace) -> int:
    """Audit the selected nodes; exit 1 with --strict when anything was found (or the ResourceSlices of DRA nodes
    could not be checked: the report then says why). Several contexts: ``fleet``."""
    try:
        contexts = fleet.contexts_of(args)
        if contexts is not None:
            return fleet.run_check(args, contexts, audited, command_deadline(args))
    except GpuReadyError as error:
        return fail(error, args)
    try:
        with paused_gc():
            report = audited(args)
    except GpuReadyError as error:
        return fail(error, args)
    wide, headers = table_style(args)
    if is_document(args):
        print_document(args, {**report_json(report), "gpuHealth": [p.to_json() for p in pool_health(report.results)]})
    elif not report.results:
        scope = f" matching {args.selector!r}" if args.selector else ""
        print(f"no GPU nodes among {report.other_nodes} nodes{scope}")
    else:
        body, _, summary = render_report(report, wide=wide, headers=headers).rpartition("\n\n")  # summary stays last
        print(f"{body}\n\n{health_text(report)}\n\n{summary}" if body else f"{health_text(report)}\n\n{summary}")
    fail_on = getattr(args, "fail_on", None)
    failing = [f for f in report.findings if fail_on is not None and f.severity in FAILING[fail_on]]
    return EXIT_FINDINGS if (args.strict and (report.findings or report.slices_unchecked)) or failing else EXIT_OK
