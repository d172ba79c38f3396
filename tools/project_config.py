"""The ``config:`` block of ``Pulumi.yaml`` and of the projects ``gpuready new`` writes, generated from the settings
models: ``components/gpuready/new_project/project_config.yaml`` (shipped in the wheel; ``gpuready new`` copies it)
and the block of the repository's ``Pulumi.yaml`` (``tests/tools/test_project_config.py`` fails while either
differs from what this script writes, so a key added to a model without regenerating fails the suite).

Every key of the joined stack model (``settings_model.stack_config_model``: the cloud-neutral keys and every
cloud's own, in that order) becomes one declaration: its Pulumi type (``settings_model.pulumi_types``; an array's
items are strings), its default (none for the keys every stack sets; YAML text keys default to ``""``) and its
description (the field's ``description``, the text ``pulumi config`` shows).

Usage: ``.venv/bin/python -m tools.project_config --write`` (regenerate both), ``--check`` (exit 1 when stale).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import yaml
from pydantic.fields import FieldInfo

from gpuready.core.config_model.settings_model import pulumi_types, stack_config_model
from gpuready.new_project.declarations import config_block

ROOT = Path(__file__).resolve().parents[1]
BLOCK = ROOT / "components" / "gpuready" / "new_project" / "project_config.yaml"
PROJECT = ROOT / "Pulumi.yaml"
LINE = 118
"""Longest line of the block: ``Pulumi.yaml`` indents it by two more, within the repository's 120 columns."""


def declarations() -> dict[str, dict[str, object]]:
    """``{key: declaration}`` as ``Pulumi.yaml`` declares it, in the joined model's key order."""
    types = pulumi_types()
    found: dict[str, dict[str, object]] = {}
    for name, field in stack_config_model().model_fields.items():
        key = field.alias or name
        declaration: dict[str, object] = {"type": types[key]}
        if types[key] == "array":
            declaration["items"] = {"type": "string"}
        if not field.is_required():
            declaration["default"] = _default(field)
        declaration["description"] = " ".join((field.description or "").split())
        found[key] = declaration
    return found


def _default(field: FieldInfo) -> object:
    """A key's default as Pulumi declares it: the model's, or ``""`` for YAML text keys (None in the model)."""
    return "" if field.default is None else field.default


def block_text() -> str:
    """``project_config.yaml``: one declaration per key, two-space indents, long descriptions folded."""
    lines: list[str] = []
    for key, declaration in declarations().items():
        lines.append(f"{key}:")
        lines.append(f"  type: {declaration['type']}")
        if "items" in declaration:
            lines += ["  items:", "    type: string"]
        if "default" in declaration:
            lines.append(f"  default: {json.dumps(declaration['default'])}")
        lines += _description(str(declaration["description"]))
    return "\n".join(lines) + "\n"


def _description(text: str) -> list[str]:
    """The description as a plain or double-quoted scalar when it fits one line, else folded (``>-``)."""
    plain = f"  description: {text}"
    if len(plain) <= LINE and _plain(text):
        return [plain]
    quoted = f"  description: {json.dumps(text)}"
    if len(quoted) <= LINE:
        return [quoted]
    wrapped = textwrap.wrap(text, LINE, initial_indent="    ", subsequent_indent="    ", break_on_hyphens=False)
    return ["  description: >-", *wrapped]


def _plain(text: str) -> bool:
    """Whether ``text`` reads back as itself written as a plain YAML scalar."""
    try:
        return bool(yaml.safe_load(f"description: {text}") == {"description": text})
    except yaml.YAMLError:
        return False


def project_text(current: str) -> str:
    """``Pulumi.yaml`` with its ``config:`` block (the last part of the file) as ``gpuready new`` writes it."""
    head = current[: current.index("\nconfig:\n") + 1]
    return head + config_block()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.project_config", description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="regenerate project_config.yaml and Pulumi.yaml's block")
    mode.add_argument("--check", action="store_true", help="exit 1 when either differs from the models")
    args = parser.parse_args(argv)
    block = block_text()
    if args.write:
        BLOCK.write_text(block, encoding="utf-8")
        PROJECT.write_text(project_text(PROJECT.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    stale = [p.name for p, text in ((BLOCK, block),) if p.read_text(encoding="utf-8") != text]
    project = PROJECT.read_text(encoding="utf-8")
    if project != project_text(project):
        stale.append(PROJECT.name)
    if stale:
        sys.stderr.write(f"stale: {', '.join(stale)}; run: .venv/bin/python -m tools.project_config --write\n")
    return int(bool(stale))


if __name__ == "__main__":
    sys.exit(main())
