"""Render audit reports and label plans as text tables or JSON-ready dicts. Pure: returns strings and dicts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpuready.verify.audit import AuditReport, NodeResult
from gpuready.verify.expectations import advertised_gpu_resources
from gpuready.verify.findings import Finding
from gpuready.verify.labeling import LabelPatch
from gpuready.verify.nodes import NodeView


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, show_headers: bool = True) -> str:
    """A left-aligned, space-padded text table, kubectl style (``show_headers=False``: ``--no-headers``)."""
    widths = [max(len(str(c)) for c in column) for column in zip(headers, *rows, strict=True)]
    shown = [headers, *rows] if show_headers else list(rows)
    lines = ["   ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in shown]
    return "\n".join(lines)


def summary_line(report: AuditReport) -> str:
    """``3 GPU nodes (1 ok, 1 with warnings, 1 with errors), 5 other nodes; 4 findings (3 errors, 1 warning)``.

    A node with warnings only has converged (warnings never block ``verify``) but is not ``ok``."""
    counts = report.severity_counts()
    errors, warnings = counts.get("error", 0), counts.get("warning", 0)
    nodes = report.node_counts()
    missing = f", {report.missing_nodes} expected nodes missing" if report.missing_nodes else ""
    return (
        f"{_count(len(report.results), 'GPU node')} ({nodes['ok']} ok, {nodes['warnings']} with warnings, "
        f"{nodes['errors']} with errors){missing}, "
        f"{_count(report.other_nodes, 'other node')}; {_count(errors + warnings, 'finding')} "
        f"({_count(errors, 'error')}, {_count(warnings, 'warning')})"
    )


def render_report(report: AuditReport, *, only_findings: bool = False, wide: bool = False, headers: bool = True) -> str:
    """The node table, then every finding with its cause and fix, then a summary line.

    ``wide`` (``-o wide``) adds the instance type, zone and GPU product columns; ``headers=False`` (``--no-headers``)
    drops the table's header row."""
    results = [r for r in report.results if r.findings] if only_findings else list(report.results)
    parts: list[str] = []
    if results:
        rows = [(*_row(r), *_wide_row(r)) if wide else _row(r) for r in results]
        columns = NODE_COLUMNS + WIDE_COLUMNS if wide else NODE_COLUMNS
        parts.append(table(columns, rows, show_headers=headers))
    details = [_detail(x) for x in report.findings]
    if details:
        parts.append("\n\n".join(details))
    if report.idle_pools:
        parts.append(idle_pools_text(report))
    if report.slices_unchecked:
        parts.append(slices_unchecked_text(report))
    parts.append(summary_line(report))
    return "\n\n".join(parts)


def slices_unchecked_text(report: AuditReport) -> str:
    """``slices not checked: <why>``: the DRA nodes' devices are unknown, the rest of the report stands."""
    return f"slices not checked: {report.slices_unchecked}"


def idle_pools_text(report: AuditReport) -> str:
    """One line per elastic pool with no nodes yet: a state of its own, not a failure."""
    return "\n".join(
        f"pool {p.pool}: no nodes yet (elastic, {p.provisioner}: nodes are made when GPU pods are pending); "
        "nothing to check until one joins"
        for p in report.idle_pools
    )


def report_json(report: AuditReport) -> dict[str, Any]:
    """The report as plain data for ``-o json``."""
    nodes = report.node_counts()
    return {
        "summary": {
            "gpuNodes": len(report.results),
            "ok": nodes["ok"],
            "withWarnings": nodes["warnings"],
            "withErrors": nodes["errors"],
            "converged": report.converged,
            "expected": report.expected,
            "otherNodes": report.other_nodes,
            "missingNodes": report.missing_nodes,
        },
        "nodes": [
            {
                "name": r.view.name,
                "pool": r.pool,
                "accelerator": r.expectation.accelerator,
                "acceleratorSource": r.inference.source if r.inference else None,
                "ready": r.view.ready,
                "advertised": advertised_gpu_resources(r.view),
                "expected": dict(r.expectation.allocatable),
                "converged": r.converged,
                "status": r.status,
                **({"provisioner": r.origin.to_json()} if r.origin is not None else {}),
            }
            for r in report.results
        ],
        "findings": [x.to_json() for x in report.findings],
        **_elastic_json(report),
        **({"slicesNotChecked": report.slices_unchecked} if report.slices_unchecked else {}),
    }


def _elastic_json(report: AuditReport) -> dict[str, Any]:
    """``elasticPools`` (each with its provisioner, nodes and ``status``: ``no-nodes-yet`` or ``has-nodes``), only
    when the stack has elastic pools."""
    if not report.elastic_pools:
        return {}
    pools = [
        {"pool": p.pool, "provisioner": p.provisioner, "nodes": p.nodes, "status": p.status}
        for p in report.elastic_pools
    ]
    return {"elasticPools": pools}


LABEL_COLUMNS = ("NODE", "LABEL", "FROM", "TO", "SOURCE")


def render_label_plan(
    patches: Sequence[LabelPatch],
    unknown: Sequence[NodeView],
    *,
    nodes: Sequence[NodeView] = (),
    wide: bool = False,
    headers: bool = True,
) -> str:
    """One row per label change, then the GPU nodes left alone because their model is unknown.

    ``wide`` (``label -o wide``) adds ``WIDE_COLUMNS`` of each patched node, read from ``nodes``; ``headers=False``
    (``--no-headers``) drops the table's header row."""
    parts: list[str] = []
    if patches:
        labels = {view.name: view.labels for view in nodes}
        rows = [
            (p.node, key, _shown(p.previous.get(key)), value, p.source)
            + (tuple(labels.get(p.node, {}).get(w, "<none>") for w in _WIDE_LABELS) if wide else ())
            for p in patches
            for key, value in sorted(p.labels.items())
        ]
        parts.append(table(LABEL_COLUMNS + WIDE_COLUMNS if wide else LABEL_COLUMNS, rows, show_headers=headers))
    if unknown:
        names = ", ".join(v.name for v in unknown)
        parts.append(
            f"not labeled, GPU model unknown (no GFD product, cloud accelerator or catalog instance type): {names}"
        )
    changes = sum(len(p.labels) for p in patches)
    parts.append(
        f"{_count(len(patches), 'node')} to patch ({_count(changes, 'label')}); "
        f"{_count(len(unknown), 'GPU node')} with an unknown model"
    )
    return "\n\n".join(parts)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _shown(value: str | None) -> str:
    return "<none>" if value is None else value


def _row(result: NodeResult) -> tuple[str, ...]:
    view, expectation = result.view, result.expectation
    have = sum(advertised_gpu_resources(view).values())
    want = sum(expectation.allocatable.values()) if expectation.allocatable else None
    errors = sum(1 for x in result.findings if x.severity == "error")
    warnings = len(result.findings) - errors
    parts = (_count(errors, "error") if errors else "", _count(warnings, "warning") if warnings else "")
    status = ", ".join(t for t in parts if t)
    return (
        view.name,
        result.pool or (result.origin.where if result.origin is not None else "<none>"),
        expectation.accelerator or "?",
        "yes" if view.ready else "no",
        f"{have}/{want if want is not None else '?'}",
        status or "ok",
    )


NODE_COLUMNS = ("NODE", "POOL", "GPU", "READY", "GPUS", "FINDINGS")
WIDE_COLUMNS = ("INSTANCE-TYPE", "ZONE", "PRODUCT")
"""``-o wide``: the well-known ``node.kubernetes.io/instance-type`` and ``topology.kubernetes.io/zone`` labels and
GPU Feature Discovery's ``nvidia.com/gpu.product``."""
_WIDE_LABELS = ("node.kubernetes.io/instance-type", "topology.kubernetes.io/zone", "nvidia.com/gpu.product")


def _wide_row(result: NodeResult) -> tuple[str, ...]:
    return tuple(result.view.labels.get(label, "<none>") for label in _WIDE_LABELS)


def _detail(finding: Finding) -> str:
    return "\n".join(
        (
            f"{finding.node}: {finding.severity} {finding.code}",
            f"  {finding.message}",
            f"  cause: {finding.cause}",
            f"  fix:   {finding.fix}",
            f"  check: {finding.reproduce}",
        )
    )
