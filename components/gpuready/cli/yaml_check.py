"""``gpuready plan --program DIR`` on a Pulumi YAML program: its gpuready resources checked, the rest not planned."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from gpuready.cli import error_report
from gpuready.cli.exit_codes import EXIT_INVALID, EXIT_OK
from gpuready.errors import GpuReadyError
from gpuready.package.yaml_program import YamlCheck, check_yaml_program

NOT_PLANNED = (
    "Not planned: the rest of the program (its other resources, functions and outputs) and what the gpuready "
    "components would create; gpuready plans Python programs only. `pulumi preview` plans the whole program."
)

UNSUPPORTED = {"--config": "config", "--set": "set", "--set-path": "set_path", "--preview": "preview"}
"""``plan`` flags of the Python path that mean nothing to the YAML check (refused rather than ignored)."""


def run(args: argparse.Namespace, project_dir: Path) -> int:
    """Check the YAML program's gpuready resources; exit 2 when any has a problem, else 0."""
    unsupported = [flag for flag, given in UNSUPPORTED.items() if getattr(args, given, None)]
    if args.output not in ("table", "json"):
        unsupported.append(f"-o {args.output}")
    if unsupported:
        print(
            f"error: {', '.join(unsupported)}: not for a Pulumi YAML program, whose gpuready resources are checked, "
            "not planned\n  hint: drop it (the check reads Pulumi.<stack>.yaml of --stack; -o table or json)",
            file=sys.stderr,
        )
        return EXIT_INVALID
    try:
        check = check_yaml_program(project_dir, args.stack or args.stack_name or "dev")
    except GpuReadyError as error:
        error_report.emit(error_report.input_error(error), json_output=args.output == "json")
        return EXIT_INVALID
    if args.output == "json":
        print(json.dumps(as_json(check), indent=2 if sys.stdout.isatty() else None))
    else:
        print(render(check))
    return EXIT_INVALID if check.problems else EXIT_OK


def render(check: YamlCheck) -> str:
    names = ", ".join(f"{name} ({kind.rsplit(':', 1)[-1]})" for name, kind in check.checked) or "none"
    lines = [
        f"YAML program {check.project!r} (stack {check.stack!r}), offline: {len(check.checked)} gpuready "
        f"resource(s) checked against the component schema and gpuready's config models: {names}",
        NOT_PLANNED,
    ]
    if check.not_planned:
        lines.append("  other resources: " + ", ".join(f"{name} ({kind})" for name, kind in check.not_planned))
    if check.problems:
        lines += ["", f"Problems ({len(check.problems)}):", *(f"  {problem}" for problem in check.problems)]
    else:
        lines += ["", "No problems in the gpuready resources."]
    return "\n".join(lines)


def as_json(check: YamlCheck) -> dict[str, object]:
    return {
        "project": check.project,
        "stack": check.stack,
        "runtime": "yaml",
        "checked": [{"name": name, "type": kind} for name, kind in check.checked],
        "notPlanned": [{"name": name, "type": kind} for name, kind in check.not_planned],
        "note": NOT_PLANNED,
        "problems": [{"resource": p.path.split(".")[1], "path": p.path, "message": str(p)} for p in check.problems],
    }
