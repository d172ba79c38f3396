"""The facts the replacement tables cite, read from the providers' sources: ``replacement_facts.json``.

The providers' source code is not part of this repository (it is cited, not copied). This module reads the cited
files from a directory of upstream copies laid out as ``<owner>+<repo>/<path>`` and records, for every cited
Terraform schema block, its attribute, first and last line and whether ``ForceNew: true`` sits at its top level;
for pulumi-azure-native, which ``AgentPool`` fields its ``forceNewMap`` lists and where it replaces on path
parameters. ``tests/fidelity/test_replacement_tables.py`` checks every table row against the recorded facts, and
re-reads the sources when ``GPUREADY_UPSTREAM_DIR`` points at such a directory.

Regenerate: ``python -m tests.fidelity.replacement_facts DIR`` (DIR as above; e.g. made with ``git show`` from
clones of the cited commits).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import gpuready.plugins  # noqa: F401 - registers the clouds' profiles, as every entry point does
from gpuready.core.lifecycle import FieldRule
from gpuready.plan_diff.registry import TABLES

FACTS = Path(__file__).with_name("replacement_facts.json")
CITATION = re.compile(
    r"^(?P<repo>[\w.-]+/[\w.-]+)@(?P<commit>[0-9a-f]{40}):(?P<path>[^#]+)#L(?P<first>\d+)-(?P<last>\d+)$"
)
DECLARATION = re.compile(r'^\s*(?:"(?P<quoted>[a-z0-9_]+)"|names\.Attr(?P<constant>\w+)):\s*(?:\{|tftags\.)')
"""A schema attribute: ``"node_role_arn": {``, ``names.AttrSubnetIDs: {``, ``names.AttrTags: tftags.TagsSchema(),``."""
FORCE_NEW = re.compile(r"\bForceNew:\s*true")


def attribute_name(line: str) -> str | None:
    """The schema attribute a Go line declares: ``"node_role_arn": {`` or ``names.AttrSubnetIDs: {``."""
    match = DECLARATION.match(line)
    if match is None:
        return None
    if match["quoted"]:
        return match["quoted"]
    constant = match["constant"].replace("IDs", "Ids")  # names.AttrSubnetIDs is subnet_ids
    words = re.findall(r"[A-Z]+(?=[A-Z][a-z]|$)|[A-Z][a-z0-9]*", constant)
    return "_".join(w.lower() for w in words)


def schema_block(lines: list[str], first: int) -> tuple[int, bool]:
    """The last line of the Go block opened on line ``first`` (1-based) and whether ``ForceNew: true`` is at its
    top level (not inside a nested attribute)."""
    depth, force_new = 0, False
    for number in range(first, len(lines) + 1):
        line = lines[number - 1]
        if depth == 1 and FORCE_NEW.search(line):
            force_new = True
        depth += line.count("{") - line.count("}")
        if depth == 0:
            return number, force_new
    raise ValueError(f"block at line {first} never closes")


def cited_rules() -> Iterable[FieldRule]:
    for table in TABLES.values():
        yield from table.rules


def read_facts(upstream: Path) -> dict[str, Any]:
    """Facts for every citation of the tables, read from ``upstream``."""
    blocks: dict[str, dict[str, Any]] = {}
    azure: dict[str, Any] = {}
    for rule in cited_rules():
        match = CITATION.match(rule.source)
        if match is None:
            continue
        lines = (upstream / match["repo"].replace("/", "+") / match["path"]).read_text("utf-8").splitlines()
        first, last = int(match["first"]), int(match["last"])
        key = f"{match['repo']}@{match['commit']}:{match['path']}#L{first}"
        if match["repo"].startswith("hashicorp/"):
            end, force_new = schema_block(lines, first)
            blocks[key] = {"attribute": attribute_name(lines[first - 1]), "last": end, "forceNew": force_new}
        elif match["path"].endswith("replacement.go"):
            cited = lines[first - 1 : last]
            listed = re.findall(r'^\s*"(\w+)",\s*$', "\n".join(cited[1:]), re.MULTILINE)
            azure[key] = {"last": last, "agentPoolForceNew": sorted(listed), "entry": cited[0].strip()}
        else:
            azure[key] = {
                "last": last,
                "replacesPathParameters": any('"path"' in line for line in lines[first - 1 : last]),
            }
    return {"terraformSchemaBlocks": dict(sorted(blocks.items())), "azureNative": dict(sorted(azure.items()))}


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        raise SystemExit(__doc__)
    FACTS.write_text(json.dumps(read_facts(Path(argv[0])), indent=1, sort_keys=True) + "\n", "utf-8")
    print(f"wrote {FACTS}")


if __name__ == "__main__":
    main(sys.argv[1:])
