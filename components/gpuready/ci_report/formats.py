"""Policy violations and GPU capacity at risk as CI systems read them. Pure (standard library only).

- SARIF 2.1.0 (OASIS ``sarif-v2.1.0-os``; what GitHub code scanning uploads): one run of tool ``gpuready``, a rule
  per policy, a result per finding with a physical location (the stack file or plan file) and a logical one (the
  resource URN or pool).
- JUnit XML (the Jenkins / GitLab / Azure Pipelines reading: ``testsuites`` > ``testsuite`` > ``testcase`` with
  ``failure``): a test case per rule and subject; an error fails it, a warning is written to its ``system-out``;
  every rule that found nothing is a passing case, so a clean run still shows what was checked.
- GitHub Actions workflow commands (``::error file=F,title=T::message``), escaped as actions/toolkit does
  (``packages/core/src/command.ts``: ``escapeData`` ``%``, ``\\r``, ``\\n``; ``escapeProperty`` also ``:`` and
  ``,``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal
from xml.etree import ElementTree

from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.plan_diff.diff import PlanDiff

Level = Literal["error", "warning"]
TOOL = "gpuready"
TOOL_URI = "https://github.com/gpuready/gpuready"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
CAPACITY_RULE = "gpu-capacity-at-risk"
CAPACITY_RULE_TEXT = "A change replaces, deletes or reduces a GPU pool's schedulable capacity."


@record(frozen=True, slots=True)
class Finding:
    """One thing CI should show: which rule, how bad, what to fix, where."""

    rule: str
    level: Level
    message: str
    subject: str
    """The resource URN or pool the finding is about."""
    file: str
    """The file a person edits to fix it (the stack config, or the plan that was compared)."""


@record(frozen=True, slots=True)
class Report:
    """Findings of one command run, and every rule that ran (rule -> one-line description)."""

    command: str
    rules: Mapping[str, str]
    findings: tuple[Finding, ...]


def plan_findings(violations: Iterable[object], rules: Mapping[str, str], file: str) -> Report:
    """A plan's policy violations: mandatory ones are errors, advisory ones warnings."""
    found = tuple(
        Finding(
            rule=str(v.get("policy", "")),
            level="error" if v.get("level") == "mandatory" else "warning",
            message=str(v.get("message", "")),
            subject=str(v.get("resource", "")),
            file=file,
        )
        for v in violations
        if isinstance(v, Mapping)
    )
    return Report("gpuready plan", rules, found)


def diff_findings(diff: PlanDiff, file: str, *, allowed: bool = False) -> Report:
    """A diff's GPU capacity at risk: errors that fail CI, warnings once accepted (``--allow-capacity-loss``)."""
    level: Level = "warning" if allowed else "error"
    found = tuple(
        Finding(
            rule=CAPACITY_RULE,
            level=level,
            message=f"GPU pool {r.pool} ({r.action}): " + "; ".join(r.losses or (r.meanwhile,)),
            subject=f"pool {r.pool}",
            file=file,
        )
        for r in diff.at_risk
    )
    return Report("gpuready diff", {CAPACITY_RULE: CAPACITY_RULE_TEXT}, found)


def render(output: str, report: Report) -> str:
    """The report in ``output`` format: ``sarif``, ``junit`` or ``github``."""
    if output == "sarif":
        return json.dumps(sarif(report), indent=2) + "\n"
    if output == "junit":
        return junit(report)
    if output == "github":
        return github(report.findings)
    raise ValueError(f"unknown CI format {output!r}")


def sarif(report: Report) -> dict[str, object]:
    """A SARIF 2.1.0 log of one run."""
    rule_ids = sorted({*report.rules, *(f.rule for f in report.findings)})
    index = {rule: i for i, rule in enumerate(rule_ids)}
    rules = [{"id": rule, "shortDescription": {"text": report.rules.get(rule) or rule}} for rule in rule_ids]
    results = [
        {
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": f.level,
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {"artifactLocation": {"uri": f.file}},
                    "logicalLocations": [{"fullyQualifiedName": f.subject, "kind": "resource"}],
                }
            ],
        }
        for f in report.findings
    ]
    driver = {"name": TOOL, "informationUri": TOOL_URI, "rules": rules}
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [{"tool": {"driver": driver}, "results": results}]}


def junit(report: Report) -> str:
    """A JUnit XML document: one suite, a case per rule and subject (passing rules as one passing case each)."""
    suites = ElementTree.Element("testsuites", name=report.command)
    errors = [f for f in report.findings if f.level == "error"]
    cases = _cases(report)
    suite = ElementTree.SubElement(
        suites, "testsuite", name=report.command, tests=str(len(cases)), failures=str(len(errors)),
        errors="0", skipped="0",
    )  # fmt: skip
    for (rule, subject), findings in cases.items():
        case = ElementTree.SubElement(suite, "testcase", classname=rule, name=subject or rule)
        for f in findings:
            if f.level == "error":
                failure = ElementTree.SubElement(case, "failure", message=_first_line(f.message), type=f.rule)
                failure.text = f"{f.message}\nfile: {f.file}"
        warnings = [f"warning: {f.message}" for f in findings if f.level == "warning"]
        if warnings:
            ElementTree.SubElement(case, "system-out").text = "\n".join(warnings)
    suites.set("tests", suite.get("tests", "0"))
    suites.set("failures", suite.get("failures", "0"))
    return ElementTree.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def _cases(report: Report) -> dict[tuple[str, str], list[Finding]]:
    cases: dict[tuple[str, str], list[Finding]] = {}
    for f in report.findings:
        cases.setdefault((f.rule, f.subject), []).append(f)
    for rule in sorted(report.rules):
        if not any(key[0] == rule for key in cases):
            cases[(rule, "")] = []
    return dict(sorted(cases.items()))


def github(findings: Sequence[Finding]) -> str:
    """One ``::error`` / ``::warning`` workflow command per finding."""
    lines = [
        f"::{f.level} file={_property(f.file)},title={_property(f'{f.rule}: {short(f.subject)}')}::{_data(f.message)}"
        for f in findings
    ]
    return "".join(f"{line}\n" for line in lines)


def short(subject: str) -> str:
    """``<type>::<name>`` of a URN (the last type of its chain); anything else unchanged."""
    parts = subject.split("::")
    if not subject.startswith("urn:pulumi:") or len(parts) < 4:
        return subject
    return f"{parts[2].rsplit('$', 1)[-1]}::{'::'.join(parts[3:])}"


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def _first_line(text: str) -> str:
    return text.splitlines()[0] if text else ""
