"""``gpuready diff`` on hostile plan files (issue #27's fault probe as a corpus): every one is a clear error and exit
2, never a traceback and never exit 1 (which means "GPU capacity at risk"), with a single error object under
``-o json``; plans of another stack, project or format are refused unless ``--force``."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_plan_command import run_cli

ROOT = Path(__file__).resolve().parents[2]
GOOD: dict[str, Any] = json.loads((ROOT / "tests" / "golden" / "data" / "plan-eks-dev.json").read_text("utf-8"))[
    "stdout"
]
GOOD_TEXT = json.dumps(GOOD)
NODE_GROUP = next(i for i, r in enumerate(GOOD["resources"]) if r["type"] == "aws:eks/nodeGroup:NodeGroup")

Edit = Callable[[dict[str, Any]], object]


def edited(edit: Edit) -> bytes:
    plan = copy.deepcopy(GOOD)
    edit(plan)
    return json.dumps(plan).encode()


def nested(depth: int) -> bytes:
    return ("[" * depth + "]" * depth).encode()


def deep_inputs(plan: dict[str, Any]) -> None:
    value: dict[str, Any] = {}
    plan["resources"][0]["inputs"]["deep"] = value
    for _ in range(150):
        value["x"] = {}
        value = value["x"]


CORPUS: dict[str, bytes | Edit] = {
    "empty": b"",
    "whitespace": b" \n\t ",
    "truncated": GOOD_TEXT[: len(GOOD_TEXT) // 2].encode(),
    "truncated-last-brace": GOOD_TEXT[:-1].encode(),
    "trailing-garbage": GOOD_TEXT.encode() + b" }",
    "null": b"null",
    "array": b"[]",
    "string": b'"plan"',
    "number": b"42",
    "empty-object": b"{}",
    "error-report": json.dumps({"error": {"kind": "invalid-input", "message": "bad", "problems": []}}).encode(),
    "nul-bytes": b"\x00" * 64,
    "not-utf8": '{"stack": "caf\xe9"}'.encode("latin-1"),
    "utf16": GOOD_TEXT[:200].encode("utf-16"),
    "huge-int": b'{"stack": "eks-dev", "project": "gpuready", "resources": [], "n": ' + b"9" * 100_000 + b"}",
    "overflowing-float": b'{"stack": "eks-dev", "project": "gpuready", "resources": [], "n": 1e400}',
    "nan": b'{"stack": "eks-dev", "project": "gpuready", "resources": [], "n": NaN}',
    "infinity": b'{"stack": "eks-dev", "project": "gpuready", "resources": [], "n": -Infinity}',
    "nested-100000": nested(100_000),
    "nested-inputs": deep_inputs,
    "resources-object": lambda p: p.update(resources={}),
    "resources-null": lambda p: p.update(resources=None),
    "resources-missing": lambda p: p.pop("resources"),
    "stack-number": lambda p: p.update(stack=7),
    "project-missing": lambda p: p.pop("project"),
    "format-text": lambda p: p.update(formatVersion="1"),
    "format-bool": lambda p: p.update(formatVersion=True),
    "resource-string": lambda p: p["resources"].__setitem__(0, "urn:pulumi:x"),
    "resource-null": lambda p: p["resources"].__setitem__(0, None),
    "urn-missing": lambda p: p["resources"][0].pop("urn"),
    "urn-number": lambda p: p["resources"][0].update(urn=1),
    "type-list": lambda p: p["resources"][0].update(type=["a"]),
    "name-missing": lambda p: p["resources"][0].pop("name"),
    "inputs-list": lambda p: p["resources"][0].update(inputs=[1]),
    "options-string": lambda p: p["resources"][0].update(options="protect"),
    "dependencies-string": lambda p: p["resources"][0].update(dependencies="urn"),
    "dependency-number": lambda p: p["resources"][0].update(dependencies=[3]),
    "ignore-changes-number": lambda p: p["resources"][0].update(options={"ignoreChanges": [1]}),
    "custom-text": lambda p: p["resources"][0].update(custom="yes"),
    "duplicate-urn": lambda p: p["resources"].append(dict(p["resources"][0])),
    "pools-object": lambda p: p.update(pools={}),
    "pool-string": lambda p: p["pools"].__setitem__(0, "l4"),
    "pool-name-missing": lambda p: p["pools"][0].pop("name"),
    "pool-duplicate": lambda p: p["pools"].append(dict(p["pools"][0])),
    "pool-negative-nodes": lambda p: p["pools"][0].update(minNodes=-1),
    "pool-nodes-text": lambda p: p["pools"][0].update(maxNodes="4"),
    "pool-units-text": lambda p: p["pools"][0]["schedulableAtMaxSize"].update({"nvidia.com/gpu": "16"}),
    "pool-units-negative": lambda p: p["pools"][0]["schedulablePerNode"].update({"nvidia.com/gpu": -4}),
    "pool-units-bool": lambda p: p["pools"][0]["schedulableAtMinSize"].update({"nvidia.com/gpu": True}),
    "pool-label-number": lambda p: p["pools"][0]["nodeLabels"].update({"gpuready.io/pool": 1}),
    "pool-accelerator-number": lambda p: p["pools"][0].update(accelerator=100),
    "node-group-types-object": lambda p: p["resources"][NODE_GROUP]["inputs"].update(instanceTypes={"a": 1}),
}
"""Name -> the file's bytes, or an edit of the eks-dev plan."""


def write(tmp_path: Path, name: str) -> Path:
    entry = CORPUS[name]
    path = tmp_path / f"{name}.json"
    path.write_bytes(entry if isinstance(entry, bytes) else edited(entry))
    return path


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("good") / "good.json"
    path.write_text(GOOD_TEXT, "utf-8")
    return path


def test_the_corpus_is_large() -> None:
    assert len(CORPUS) >= 48


@pytest.mark.parametrize("name", sorted(CORPUS))
@pytest.mark.parametrize("side", ["old", "new"])
def test_a_hostile_plan_is_a_clear_error_and_exit_2(tmp_path: Path, good: Path, name: str, side: str) -> None:
    bad = write(tmp_path, name)
    old, new = (bad, good) if side == "old" else (good, bad)
    result = run_cli("diff", str(old), str(new))
    assert result.code == 2, (result.out, result.err)
    assert result.out == ""
    assert result.err.startswith("error: ") and "Traceback" not in result.err
    assert f"the {side} plan" in result.err
    as_json = run_cli("diff", str(old), str(new), "-o", "json")
    assert as_json.code == 2
    assert json.loads(as_json.out)["error"]["kind"] == "invalid-input"


@pytest.mark.parametrize("target", ["directory", "missing"])
def test_a_path_that_is_no_file_is_exit_2(tmp_path: Path, good: Path, target: str) -> None:
    path = tmp_path if target == "directory" else tmp_path / "nope.json"
    result = run_cli("diff", str(good), str(path))
    assert (result.code, result.err.startswith("error: cannot read the plans"), "Traceback" in result.err) == (
        2,
        True,
        False,
    )


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (lambda p: p.update(stack="prod"), "different stacks ('eks-dev' and 'prod')"),
        (lambda p: p.update(project="other"), "different projects ('gpuready' and 'other')"),
        (lambda p: p.pop("formatVersion"), "the new plan's format is none (written by an older gpuready)"),
        (lambda p: p.update(formatVersion=2), "the new plan's format is 2, this gpuready reads 1"),
    ],
    ids=["stack", "project", "no-version", "newer-version"],
)
def test_plans_that_cannot_be_compared_are_refused_unless_forced(
    tmp_path: Path, good: Path, edit: Edit, said: str
) -> None:
    other = tmp_path / "other.json"
    other.write_bytes(edited(edit))
    refused = run_cli("diff", str(good), str(other))
    assert refused.code == 2 and said in refused.err and "--force" in refused.err
    forced = run_cli("diff", str(good), str(other), "--force", "-o", "json")
    assert forced.code in (0, 1), forced.err
    assert any(said in w for w in json.loads(forced.out)["warnings"])
