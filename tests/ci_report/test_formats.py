"""CI outputs (issue #27 item 5), each read back by a reader of its format: SARIF 2.1.0 by ``sarif-pydantic`` (the
SARIF object model; no key it does not know), JUnit XML by ``junitparser``, GitHub Actions workflow commands by a
reader written from the runner's own parser (actions/runner ``src/Runner.Common/ActionCommand.cs``,
``TryParseV2`` and ``UnescapeProperty`` / ``UnescapeData``: no Python library reads workflow commands)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import junitparser
import pytest
from pydantic import BaseModel
from sarif_pydantic import Sarif

from gpuready.ci_report.formats import Finding, Report, github, junit, render, sarif
from tests.cli.test_plan_command import run_cli

ROOT = Path(__file__).resolve().parents[2]
TRICKY = "values.tolerations: got [{'key': 'a,b', 'x': 'y:z'}]; 100% wrong\nsecond line\r"
REPORT = Report(
    "gpuready plan",
    {"rule-a": "Rule A.", "rule-b": "Rule B.", "rule-clean": "Nothing found."},
    (
        Finding("rule-a", "error", TRICKY, "urn:pulumi:dev::p::aws:eks/nodeGroup:NodeGroup::gpu, nodes", "s,t:a.yaml"),
        Finding("rule-b", "warning", "advisory thing", "urn:pulumi:dev::p::kubernetes:core/v1:Pod::train", "s.yaml"),
    ),
)


def no_unknown_keys(model: BaseModel, where: str = "log") -> None:
    """sarif-pydantic keeps keys it does not know as extras: a misspelt SARIF key would hide there."""
    assert not model.model_extra, f"{where}: keys SARIF does not define: {sorted(model.model_extra)}"
    for name, value in model:
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, BaseModel):
                no_unknown_keys(item, f"{where}.{name}")


def test_sarif_reads_back_with_the_sarif_object_model() -> None:
    log = Sarif.model_validate_json(render("sarif", REPORT))
    no_unknown_keys(log)
    (run,) = log.runs
    rules = [r.id for r in run.tool.driver.rules or []]
    assert rules == ["rule-a", "rule-b", "rule-clean"]
    results = run.results or []
    assert [(r.rule_id, r.level.value if r.level else None) for r in results] == [
        ("rule-a", "error"),
        ("rule-b", "warning"),
    ]
    assert results[0].message.text == TRICKY
    assert rules[results[1].rule_index or 0] == "rule-b"
    location = (results[0].locations or [])[0]
    assert location.physical_location is not None and location.physical_location.artifact_location is not None
    assert location.physical_location.artifact_location.uri == "s,t:a.yaml"
    assert sarif(REPORT)["version"] == "2.1.0"


def test_junit_reads_back_with_junitparser(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    path.write_text(junit(REPORT), "utf-8")
    xml = junitparser.JUnitXml.fromfile(str(path))
    (suite,) = list(xml)
    cases = {(c.classname, c.name): c for c in suite}
    assert suite.tests == 3 and suite.failures == 1
    failing = cases[("rule-a", REPORT.findings[0].subject)]
    (failure,) = failing.result
    assert isinstance(failure, junitparser.Failure) and TRICKY.splitlines()[0] in (failure.message or "")
    warned = cases[("rule-b", REPORT.findings[1].subject)]
    assert warned.result == [] and "warning: advisory thing" in (warned.system_out or "")
    assert cases[("rule-clean", "rule-clean")].is_passed


@dataclass(frozen=True)
class WorkflowCommand:
    command: str
    properties: dict[str, str]
    data: str


def read_workflow_command(line: str) -> WorkflowCommand | None:
    """One workflow command as the Actions runner reads it (``::name k=v,k=v::data``, properties split on ``,``
    and ``=``, then ``%0D %0A %3A %2C %25`` undone in properties and ``%0D %0A %25`` in data, in that order)."""
    line = line.lstrip()
    if not line.startswith("::"):
        return None
    end = line.find("::", 2)
    if end < 0:
        return None
    info = line[2:end]
    name, _, rest = info.partition(" ")
    properties: dict[str, str] = {}
    for part in filter(None, rest.strip().split(",")):
        key, sep, value = part.partition("=")
        if sep and key and value:
            properties[key] = _undo(value, ("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%"))
    return WorkflowCommand(name, properties, _undo(line[end + 2 :], ("%0D", "\r"), ("%0A", "\n"), ("%25", "%")))


def _undo(text: str, *pairs: tuple[str, str]) -> str:
    for escaped, plain in pairs:
        text = text.replace(escaped, plain)
    return text


def test_github_annotations_read_back_as_the_runner_reads_them() -> None:
    lines = github(REPORT.findings).splitlines()
    commands = [read_workflow_command(line) for line in lines]
    assert [c.command if c else None for c in commands] == ["error", "warning"]
    first = commands[0]
    assert first is not None
    assert first.properties == {"file": "s,t:a.yaml", "title": "rule-a: aws:eks/nodeGroup:NodeGroup::gpu, nodes"}
    assert first.data == TRICKY


@pytest.mark.parametrize("output", ["sarif", "junit", "github"])
def test_plan_of_the_wrong_program_in_each_ci_format(output: str, tmp_path: Path) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        result = run_cli("plan", "--program", "examples/wrong_program", "--stack", "dev", "-o", output)
        table = run_cli("plan", "--program", "examples/wrong_program", "--stack", "dev", "-o", "json")
    violations: list[dict[str, Any]] = json.loads(table.out)["violations"]
    assert result.code == table.code == 1
    mandatory = sum(v["level"] == "mandatory" for v in violations)
    if output == "sarif":
        results = Sarif.model_validate_json(result.out).runs[0].results or []
        assert len(results) == len(violations)
        assert sum(r.level is not None and r.level.value == "error" for r in results) == mandatory
    elif output == "junit":
        path = tmp_path / "plan.xml"
        path.write_text(result.out, "utf-8")
        (suite,) = list(junitparser.JUnitXml.fromfile(str(path)))
        assert suite.failures == mandatory and suite.tests >= len({v["policy"] for v in violations})
    else:
        commands = [read_workflow_command(line) for line in result.out.splitlines()]
        assert [c.command for c in commands if c] == ["error"] * mandatory + ["warning"] * (len(violations) - mandatory)
        assert all(c.properties["file"] == "examples/wrong_program/Pulumi.dev.yaml" for c in commands if c)


@pytest.mark.parametrize("output", ["sarif", "junit", "github"])
def test_diff_capacity_at_risk_in_each_ci_format(output: str, tmp_path: Path) -> None:
    golden = json.loads((ROOT / "tests" / "golden" / "data" / "plan-eks-dev.json").read_text("utf-8"))["stdout"]
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    before.write_text(json.dumps(golden), "utf-8")
    after.write_text(json.dumps({**golden, "resources": [], "pools": []}), "utf-8")
    result = run_cli("diff", str(before), str(after), "-o", output)
    assert result.code == 1
    if output == "sarif":
        results = Sarif.model_validate_json(result.out).runs[0].results or []
        assert {r.rule_id for r in results} == {"gpu-capacity-at-risk"} and len(results) == 3
    elif output == "junit":
        path = tmp_path / "diff.xml"
        path.write_text(result.out, "utf-8")
        (suite,) = list(junitparser.JUnitXml.fromfile(str(path)))
        assert suite.failures == 3
    else:
        commands = [read_workflow_command(line) for line in result.out.splitlines()]
        assert len(commands) == 3 and all(c is not None and c.command == "error" for c in commands)
        assert all(c is not None and "deleted" in c.data for c in commands)
