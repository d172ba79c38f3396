"""``gpuready plan`` shows the pool component's offering warning (``pulumi.log.warn``, as ``pulumi preview`` would)
and, for clouds without offerings data, what is not checked; the plan goes on with exit code 0."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from gpuready.cli.program_log import ProgramLog
from gpuready.core import offerings
from tests.cli.test_plan_command import run_cli

ROOT = Path(__file__).resolve().parents[2]
STACK = ("plan", "--project-dir", str(ROOT), "--stack")


def _offering(instance_type: str) -> str:
    data = offerings.load("gpuready.eks")
    return ", ".join(sorted(r for r, types in data.regions.items() if instance_type in types))


def test_eks_pools_in_a_region_without_their_type_warn_and_the_plan_goes_on() -> None:
    result = run_cli(*STACK, "eks-dev", "--set", "aws:region=eu-west-1")
    assert result.code == 0, result.err
    section = result.out[result.out.index("Warnings (2):") :]
    assert (
        f"  - pool l4-shared: EKS region 'eu-west-1' does not offer g6.12xlarge, so creating the pool would fail; "
        f"regions offering it: {_offering('g6.12xlarge')} (" in section
    )
    assert "pool h100-mig: EKS region 'eu-west-1' does not offer p5.48xlarge" in section
    assert "a10g-br" not in section  # g5.2xlarge is offered in eu-west-1
    assert "Not checked" not in result.out


def test_json_plan_keeps_stdout_json_and_puts_the_warnings_on_stderr() -> None:
    result = run_cli(*STACK, "eks-dev", "--set", "aws:region=eu-west-1", "-o", "json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["stack"] == "eks-dev"
    lines = result.err.splitlines()
    assert [line.split(":", 2)[1].strip() for line in lines] == ["pool h100-mig", "pool l4-shared"]
    assert all(line.startswith("warning: ") for line in lines)
    # The same warnings are part of the JSON document (issue #27).
    assert json.loads(result.out)["warnings"] == [line.removeprefix("warning: ") for line in lines]


def test_an_offered_region_plans_without_warnings() -> None:
    result = run_cli(*STACK, "eks-dev")  # aws:region us-east-1 offers all three types
    assert result.code == 0, result.err
    assert "Warnings" not in result.out and "Not checked" not in result.out


def test_a_region_outside_the_data_says_it_is_not_checked() -> None:
    result = run_cli(*STACK, "eks-dev", "--set", "aws:region=us-gov-west-1")
    assert result.code == 0, result.err
    assert (
        "EKS region 'us-gov-west-1' is not in gpuready's offerings data, so whether it offers g5.2xlarge" in result.out
    )


@pytest.mark.parametrize(("stack", "title"), [("aks-dev", "AKS"), ("gke-dev", "GKE")])
def test_clouds_without_offerings_data_say_once_what_is_not_checked(stack: str, title: str) -> None:
    result = run_cli(*STACK, stack)
    assert result.code == 0, result.err
    section = result.out[result.out.index("Not checked (1):") :]
    assert f"  - {title}: whether the cluster's " in section
    assert "Warnings" not in result.out


def test_program_log_keeps_each_message_once_and_shows_them_sorted() -> None:
    log = ProgramLog()
    for level, message in [(logging.WARNING, "b"), (logging.INFO, "x"), (logging.WARNING, "a"), (logging.INFO, "x"),
                           (logging.WARNING, "b")]:  # fmt: skip
        log.add(level, message)
    assert (log.warnings, log.infos) == (["b", "a"], ["x"])
    assert log.render() == "Warnings (2):\n  - a\n  - b\n\nNot checked (1):\n  - x"
    assert log.stderr_lines() == ["warning: a", "warning: b", "info: x"]
    assert ProgramLog().render() == ""
