"""The bad-input corpus of ``gpuready plan`` (bad_plan_inputs.yaml), through the CLI entry point in-process.

Every case runs twice: as text (the message on stderr, nothing on stdout) and with ``-o json`` (one error object on
stdout, parsed here, with the kind, the message and the problems of the README's error contract).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.cli import error_report
from gpuready.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).with_name("bad_plan_inputs.yaml")
CASES: list[dict[str, Any]] = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))["cases"]
IDS = [case["id"] for case in CASES]


@pytest.fixture(autouse=True)
def _from_the_repository_root() -> Iterator[None]:
    here = Path.cwd()
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(here)


def _args(case: dict[str, Any], tmp_path: Path) -> list[str]:
    args = list(case.get("args", []))
    if "stack_extra" in case:
        text = (ROOT / "stacks" / f"Pulumi.{case['stack']}.yaml").read_text(encoding="utf-8")
        edited = re.sub(r"^config:\n", lambda _: "config:\n" + case["stack_extra"], text, count=1, flags=re.M)
        assert edited != text, "stack_extra goes first under config:"
        stack_file = tmp_path / f"Pulumi.{case['stack']}.yaml"
        stack_file.write_text(edited, encoding="utf-8")
        args += ["--config", str(stack_file), "--project-dir", str(ROOT)]
    if "--policy-config" not in args:
        args.append("--no-policy")
    return ["plan", *args]


def test_corpus_ids_are_unique_and_every_error_kind_is_covered() -> None:
    assert len(IDS) == len(set(IDS))
    assert {case["expect"]["kind"] for case in CASES} == set(error_report.PLAN_KINDS)
    assert all(set(case) <= {"id", "args", "stack", "stack_extra", "expect"} for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_refused_as_text_on_stderr(case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expect = case["expect"]
    code = cli.main(_args(case, tmp_path))
    out, err = capsys.readouterr()
    assert code == expect["exit"], err
    assert out == ""
    assert err.startswith("error: ")
    assert expect["message"] in err
    assert "Traceback" not in err
    if "file" in expect:
        assert f"at {expect['file']}:{expect['line']}" in err


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_refused_as_one_json_error_object_on_stdout(
    case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expect = case["expect"]
    code = cli.main([*_args(case, tmp_path), "-o", "json"])
    out, _ = capsys.readouterr()
    assert code == expect["exit"]
    document = json.loads(out)
    assert set(document) == {"error"}
    error = document["error"]
    assert error["kind"] == expect["kind"]
    assert expect["message"] in error["message"]
    for problem in error["problems"]:
        assert set(problem) == {"path", "problem", "value", "allowed", "hint"}
        assert isinstance(problem["allowed"], list)
    if "path" in expect:
        found = [p for p in error["problems"] if p["path"] == expect["path"]]
        assert found, [p["path"] for p in error["problems"]]
        if "hint" in expect:
            hint = expect["hint"]
            assert hint in found[0]["hint"] if hint else found[0]["hint"] == ""
    if "file" in expect:
        assert (error["file"], error["line"]) == (expect["file"], expect["line"])


def test_a_plan_without_a_stack_is_a_usage_error_and_with_json_an_error_object(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as usage:
        cli.main(["plan"])
    assert usage.value.code == 2
    assert "plan needs --stack NAME" in capsys.readouterr().err
    assert cli.main(["plan", "-o", "json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert (error["kind"], error["message"]) == (
        "invalid-input",
        "plan needs --stack NAME, --config FILE or --program DIR",
    )
