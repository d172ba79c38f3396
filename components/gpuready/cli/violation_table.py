"""Render policy violations as the plan's LEVEL / POLICY / RESOURCE / MESSAGE table. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def format_violations(violations: Sequence[object]) -> str:
    """A LEVEL / POLICY / RESOURCE / MESSAGE table; resources shown as ``type::name``."""
    rows = [
        (
            str(v.get("level", "")),
            str(v.get("policy", "")),
            short_resource(str(v.get("resource", ""))),
            str(v.get("message", "")),
        )
        for v in violations
        if isinstance(v, Mapping)
    ]
    if not rows:
        return "Policy violations: none"
    mandatory = sum(1 for row in rows if row[0] == "mandatory")
    header = ("LEVEL", "POLICY", "RESOURCE", "MESSAGE")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(3)]
    lines = [f"Policy violations: {mandatory} mandatory, {len(rows) - mandatory} advisory", ""]
    for row in [header, *rows]:
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths, strict=True)) + "  " + row[3])
    return "\n".join(lines)


def short_resource(urn: str) -> str:
    """``<type>::<name>`` of a URN (last type of the parent chain); anything else unchanged."""
    parts = urn.split("::")
    if not urn.startswith("urn:pulumi:") or len(parts) < 4:
        return urn
    return f"{parts[2].rsplit('$', 1)[-1]}::{'::'.join(parts[3:])}"
