"""The exit-code table every ``gpuready`` command follows: command -> code -> what it means there.

The codes are ``exit_codes``'s; docs/cli.md prints this table. ``tests/cli/test_exit_table.py`` fails
when the parser has a command without a row here (or a row names a command the parser lacks).
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.cli.exit_codes import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    EXIT_INVALID,
    EXIT_OK,
    EXIT_PROGRAM_FAILED,
    EXIT_TERMINATED,
    EXIT_VIOLATIONS,
)

_EVERY_COMMAND: Mapping[int, str] = {
    EXIT_INTERRUPTED: "SIGINT (Ctrl-C): the summary so far, no traceback",
    EXIT_TERMINATED: "SIGTERM: the summary so far, no traceback",
    EXIT_BROKEN_PIPE: "stdout closed early (| head), no traceback",
}

COMMAND_EXITS: Mapping[str, Mapping[int, str]] = {
    "plan": {
        EXIT_OK: "planned",
        EXIT_VIOLATIONS: "mandatory policy violations",
        EXIT_INVALID: "invalid input or config, or an output that cannot be written",
        EXIT_PROGRAM_FAILED: "the program itself failed",
        **_EVERY_COMMAND,
    },
    "check": {
        EXIT_OK: "audited (findings are advice; also when ResourceSlices could not be checked, which the report says)",
        EXIT_VIOLATIONS: "findings (or slices not checked), with --strict; findings of --fail-on's severity or worse",
        EXIT_INVALID: (
            "bad input, credentials, RBAC, unreachable, malformed responses after retries, the deadline, "
            "an output that cannot be written"
        ),
        **_EVERY_COMMAND,
    },
    "label": {
        EXIT_OK: "plan shown (no flag, or --dry-run) / all labeled (--yes) / nothing to do",
        EXIT_INVALID: "bad input, credentials, RBAC, unreachable, the deadline, or some nodes not labeled",
        **_EVERY_COMMAND,
    },
    "verify": {
        EXIT_OK: "every node converged (and every --smoke Job passed)",
        EXIT_VIOLATIONS: (
            "not converged by the deadline, also when the API server kept failing until then or the slices could not "
            "be checked; a --smoke Job failed; the findings so far are printed"
        ),
        EXIT_INVALID: "bad input, credentials, RBAC, a bad selector",
        **_EVERY_COMMAND,
    },
    "diff": {
        EXIT_OK: "no GPU capacity at risk (or --allow-capacity-loss)",
        EXIT_VIOLATIONS: "GPU capacity at risk: a pool replaced, deleted or left with fewer schedulable units",
        EXIT_INVALID: "unreadable or malformed file, not a gpuready plan, plans of other stacks (without --force)",
        **_EVERY_COMMAND,
    },
    "support-matrix": {
        EXIT_OK: "printed, written, or the block is current",
        EXIT_VIOLATIONS: "--check: the generated block is stale",
        EXIT_INVALID: "unreadable file or no generated block in it",
        **_EVERY_COMMAND,
    },
    "new": {
        EXIT_OK: "project written",
        EXIT_INVALID: "a non-empty DIR, a missing or foreign wiring flag, a value the stack's config model refuses",
        **_EVERY_COMMAND,
    },
    "completion": {
        EXIT_OK: "completion script printed",
        EXIT_INVALID: "unknown shell",
        **_EVERY_COMMAND,
    },
}
"""Every command's exit codes. A usage error (unknown flag, missing argument) is 2 for every command (argparse)."""


def render_markdown() -> str:
    """The table as Markdown: one row per code, one column per command."""
    commands = list(COMMAND_EXITS)
    codes = sorted({code for row in COMMAND_EXITS.values() for code in row})
    lines = [
        "| code | " + " | ".join(f"`{c}`" for c in commands) + " |",
        "|---|" + "---|" * len(commands),
    ]
    for code in codes:
        cells = [COMMAND_EXITS[c].get(code, "-").replace("|", "\\|") for c in commands]
        if len(set(cells)) == 1:  # the same for every command: said once
            cells = [f"{cells[0]} (every command)"] + [""] * (len(cells) - 1)
        lines.append(f"| {code} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
