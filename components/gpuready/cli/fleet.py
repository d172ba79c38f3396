"""``check`` and ``verify`` over several clusters at once: ``--context`` repeated or ``--all-contexts``.

Every cluster is audited concurrently (one thread each) under the command's one deadline; a cluster that cannot
be used (unreachable, refused credentials, the deadline) is a finding of its own (``cluster-unreachable``), never
the end of the run. The table shows each cluster's report under its context, then the fleet's summary; ``-o json``
(or yaml) gives each cluster's report with its context, every finding carrying its ``context``, and the fleet
summary. ``check`` exits 2 when no cluster could be audited; otherwise 1 with ``--strict`` when anything was found;
else 0. ``verify`` watches every cluster at once (progress lines carry the context) and exits 0 when all converged,
1 when any did not (an unreachable one included), 2 when none could be watched.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from gpuready.cli.error_report import command_error
from gpuready.cli.exit_codes import EXIT_INVALID, EXIT_OK
from gpuready.cli.exit_codes import EXIT_VIOLATIONS as EXIT_FINDINGS
from gpuready.cli.habits import is_document, print_document, table_style
from gpuready.cli.next_step import with_next_step
from gpuready.errors import GpuReadyError
from gpuready.kube.deadline import Deadline
from gpuready.kube.errors import KubeUnreachableError
from gpuready.kube.kubeconfig import context_names
from gpuready.record import record
from gpuready.verify.audit import AuditReport
from gpuready.verify.report import render_report, report_json, summary_line

UNREACHABLE = "cluster-unreachable"
MAX_PARALLEL = 16
"""Clusters audited at once: each waits on its API server, not on this machine."""


@record(frozen=True, slots=True)
class ClusterResult:
    """One cluster of the fleet: its report, or why it could not be audited."""

    context: str
    report: AuditReport | None = None
    error: str = ""


def contexts_of(args: argparse.Namespace) -> list[str] | None:
    """The contexts of a fleet run, or None for one cluster (no ``--all-contexts``, at most one ``--context``)."""
    given = args.context if isinstance(args.context, list) else ([args.context] if args.context else [])
    if getattr(args, "all_contexts", False):
        if given:
            raise GpuReadyError("--all-contexts: cannot be combined with --context; pass one or the other")
        names = context_names(args.kubeconfig)
        if not names:
            raise GpuReadyError("--all-contexts: the kubeconfig has no contexts", "kubectl config get-contexts")
        return names
    if len(given) > 1:
        return list(dict.fromkeys(given))
    args.context = given[0] if given else None
    return None


Audit = Callable[[argparse.Namespace, Deadline], AuditReport]
"""``check_command.audited``: one cluster (``args.context``) audited under the deadline."""
Watch = Callable[[argparse.Namespace, Deadline, str], tuple[bool, AuditReport]]
"""``verify_command``'s watch of one cluster: (converged, report); the string prefixes its progress lines."""


def run_check(args: argparse.Namespace, contexts: Sequence[str], audit: Audit, deadline: Deadline) -> int:
    with ThreadPoolExecutor(max_workers=min(MAX_PARALLEL, len(contexts)), thread_name_prefix="fleet") as pool:
        results = list(pool.map(lambda c: _audit_one(args, c, audit, deadline), contexts))
    if is_document(args):
        print_document(args, fleet_json(results))
    else:
        print(render_fleet(results, *table_style(args)))
    if all(r.report is None for r in results):
        return EXIT_INVALID
    found = any(r.report is None or r.report.findings for r in results)
    return EXIT_FINDINGS if args.strict and found else EXIT_OK


def _audit_one(args: argparse.Namespace, context: str, audit: Audit, deadline: Deadline) -> ClusterResult:
    one = argparse.Namespace(**{**vars(args), "context": context})
    try:
        return ClusterResult(context, report=audit(one, deadline))
    except GpuReadyError as error:
        if isinstance(error, KubeUnreachableError):
            return ClusterResult(context, error=with_next_step(error, args.kubeconfig, context))
        return ClusterResult(context, error=command_error(error).message)


def render_fleet(results: Sequence[ClusterResult], wide: bool = False, headers: bool = True) -> str:
    """Each cluster's report under its context, then one line for the fleet."""
    parts = []
    for result in results:
        if result.report is None:
            parts.append(f"== context {result.context}: error {UNREACHABLE}\n{result.error}")
        else:
            body = render_report(result.report, wide=wide, headers=headers) if result.report.results else (
                f"no GPU nodes among {result.report.other_nodes} nodes"
            )  # fmt: skip
            parts.append(f"== context {result.context}\n{body}")
    parts.append(fleet_summary(results))
    return "\n\n".join(parts)


def fleet_summary(results: Sequence[ClusterResult]) -> str:
    audited_ = [r.report for r in results if r.report is not None]
    failed = len(results) - len(audited_)
    nodes = sum(len(r.results) for r in audited_)
    findings = sum(len(r.findings) for r in audited_) + failed
    return (
        f"fleet: {len(results)} clusters ({len(audited_)} audited, {failed} unreachable); {nodes} GPU nodes; "
        f"{findings} findings"
    )


def fleet_json(results: Sequence[ClusterResult]) -> dict[str, Any]:
    clusters: list[dict[str, Any]] = []
    findings: list[dict[str, Any]] = []
    for result in results:
        if result.report is None:
            finding = {"context": result.context, "node": "", "severity": "error", "code": UNREACHABLE,
                       "message": result.error, "transient": True}  # fmt: skip
            clusters.append({"context": result.context, "error": result.error})
            findings.append(finding)
            continue
        document = report_json(result.report)
        document["findings"] = [{"context": result.context, **x} for x in document["findings"]]
        clusters.append({"context": result.context, **document, "summaryLine": summary_line(result.report)})
        findings.extend(document["findings"])
    return {
        "clusters": clusters,
        "findings": findings,
        "summary": {
            "clusters": len(results),
            "audited": sum(1 for r in results if r.report is not None),
            "unreachable": sum(1 for r in results if r.report is None),
            "gpuNodes": sum(len(r.report.results) for r in results if r.report is not None),
            "findings": len(findings),
        },
    }


@record(frozen=True, slots=True)
class ClusterWait:
    """One cluster of a fleet ``verify``: whether it converged and its report, or why it could not be watched."""

    context: str
    converged: bool = False
    report: AuditReport | None = None
    error: str = ""


def run_verify(args: argparse.Namespace, contexts: Sequence[str], watch: Watch, deadline: Deadline) -> int:
    """``verify`` on every context at once under ``deadline``: 0 when every cluster converged, 1 when any did not
    (an unreachable cluster included), 2 when none could be watched."""

    def one(context: str) -> ClusterWait:
        single = argparse.Namespace(**{**vars(args), "context": context})
        try:
            converged, report = watch(single, deadline, f"context {context}: ")
        except GpuReadyError as error:
            text = (
                with_next_step(error, args.kubeconfig, context)
                if isinstance(error, KubeUnreachableError)
                else command_error(error).message
            )
            return ClusterWait(context, error=text)
        return ClusterWait(context, converged, report)

    with ThreadPoolExecutor(max_workers=min(MAX_PARALLEL, len(contexts)), thread_name_prefix="fleet") as pool:
        waits = list(pool.map(one, contexts))
    results = [ClusterResult(w.context, w.report, w.error) for w in waits]
    if is_document(args):
        document = fleet_json(results)
        for cluster, wait in zip(document["clusters"], waits, strict=True):
            cluster["converged"] = wait.converged
        document["summary"]["converged"] = sum(1 for w in waits if w.converged)
        print_document(args, document)
    else:
        lines = [
            f"context {w.context}: "
            + (
                "converged"
                if w.converged
                else f"error {UNREACHABLE}: {w.error}"
                if w.report is None
                else "not converged"
            )
            for w in waits
        ]
        failing = [r for r, w in zip(results, waits, strict=True) if r.report is not None and not w.converged]
        details = render_fleet(failing, *table_style(args)).rsplit("\n\n", 1)[0] if failing else ""
        print("\n\n".join(p for p in ("\n".join(lines), details, fleet_summary(results)) if p))
    if all(w.report is None for w in waits):
        return EXIT_INVALID
    return EXIT_OK if all(w.converged for w in waits) else EXIT_FINDINGS
