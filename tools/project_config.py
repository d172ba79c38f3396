"""The ``config:`` block of ``Pulumi.yaml`` and of the projects ``gpuready new`` writes, and ``gpuready new``'s
flags, generated from the registered clouds and the settings models:
``components/gpuready/new_project/project_config.yaml`` (shipped in the wheel; ``gpuready new`` copies it), the
block of the repository's ``Pulumi.yaml``, and ``components/gpuready/new_project/flags.py`` (the ``--cloud`` choices
and the wiring flags, a plain module: the CLI's parser loads it at every start, without pydantic or any cloud)
(``tests/tools/test_project_config.py`` fails while any differs from what this script writes, so a key or a cloud
added without regenerating fails the suite).

Every key of the joined stack model (``settings_model.stack_config_model``: the cloud-neutral keys and every
cloud's own, in that order) becomes one declaration: its Pulumi type (``settings_model.pulumi_types``; an array's
items are strings), its default (none for the keys every stack sets; YAML text keys default to ``""``) and its
description (the field's ``description``, the text ``pulumi config`` shows).

A wiring flag is its key in kebab case (``eksNodeRoleArn`` -> ``--eks-node-role-arn``); an ``array`` key's flag is
its singular and repeats (``eksSubnetIds`` -> ``--eks-subnet-id``).

Usage: ``.venv/bin/python -m tools.project_config --write`` (regenerate all three), ``--check`` (exit 1 when stale).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import yaml
from pydantic.fields import FieldInfo

import gpuready.plugins  # noqa: F401 - registers the clouds, whose settings models the keys include
from gpuready.core.clouds.registry import cloud_names
from gpuready.core.config_model.settings_model import cloud_settings_models, pulumi_types, stack_config_model
from gpuready.new_project.declarations import config_block

ROOT = Path(__file__).resolve().parents[1]
BLOCK = ROOT / "components" / "gpuready" / "new_project" / "project_config.yaml"
PROJECT = ROOT / "Pulumi.yaml"
FLAGS = ROOT / "components" / "gpuready" / "new_project" / "flags.py"
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


def wiring_flags() -> dict[str, str]:
    """Every cloud's stack key (its settings model's, in registry order) -> its ``gpuready new`` flag."""
    types = pulumi_types()
    flags = {}
    for key in (key for model in cloud_settings_models() for key in model.stack_keys()):
        kebab = "--" + re.sub(r"(?<!^)([A-Z])", r"-\1", key).lower()
        flags[key] = kebab.removesuffix("s") if types[key] == "array" else kebab
    return flags


def flags_text() -> str:
    """``new_project/flags.py``: the registered clouds' names, the wiring flags and the keys whose flag repeats."""
    flags, types = wiring_flags(), pulumi_types()
    clouds = "".join(f"    {json.dumps(name)},\n" for name in cloud_names())
    table = "".join(f"    {json.dumps(key)}: {json.dumps(flag)},\n" for key, flag in flags.items())
    lists = "".join(f"        {json.dumps(key)},\n" for key in flags if types[key] == "array")
    return FLAGS_TEMPLATE.format(clouds=clouds, table=table, lists=lists)


FLAGS_TEMPLATE = '''\
"""The ``--cloud`` choices and the wiring flags of ``gpuready new``. Standard library only: the CLI's parser loads
it at every start, before any cloud is registered.

Generated by ``tools/project_config.py`` (``make project-config``) from the registered clouds (``gpuready.plugins``)
and their settings models; ``tests/tools/test_project_config.py`` fails while it differs. Do not edit.
"""

from __future__ import annotations

from collections.abc import Mapping

CLOUDS: tuple[str, ...] = (
{clouds})
"""The registered clouds' names, in registration order: ``--cloud``'s choices."""
WIRING_FLAGS: Mapping[str, str] = {{
{table}}}
"""Stack key -> the ``gpuready new`` flag that sets it (list keys: the flag repeated): every cloud's settings."""
LIST_KEYS = frozenset(
    {{
{lists}    }}
)
"""Keys of Pulumi type ``array``: their flag is repeated."""
'''


def project_text(current: str) -> str:
    """``Pulumi.yaml`` with its ``config:`` block (the last part of the file) as ``gpuready new`` writes it."""
    head = current[: current.index("\nconfig:\n") + 1]
    return head + config_block()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.project_config", description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="regenerate the three files")
    mode.add_argument("--check", action="store_true", help="exit 1 when any differs from the models")
    args = parser.parse_args(argv)
    block = block_text()
    if args.write:
        BLOCK.write_text(block, encoding="utf-8")
        PROJECT.write_text(project_text(PROJECT.read_text(encoding="utf-8")), encoding="utf-8")
        FLAGS.write_text(flags_text(), encoding="utf-8")
        return 0
    stale = [p.name for p, text in ((BLOCK, block), (FLAGS, flags_text())) if p.read_text(encoding="utf-8") != text]
    project = PROJECT.read_text(encoding="utf-8")
    if project != project_text(project):
        stale.append(PROJECT.name)
    if stale:
        sys.stderr.write(f"stale: {', '.join(stale)}; run: .venv/bin/python -m tools.project_config --write\n")
    return int(bool(stale))


if __name__ == "__main__":
    sys.exit(main())
