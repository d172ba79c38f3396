"""An honest offline plan (issue #27 item 4): transforms the mock monitor does not run are named as warnings (in the
table and in ``-o json``), and the table ends with what the policy gate ran over."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from tests.cli.test_plan_command import run_cli

PROGRAM = """
import pulumi
import pulumi_aws as aws

def tag(args):
    return pulumi.ResourceTransformResult(props={**args.props, "tags": {"team": "ml"}}, opts=args.opts)

aws.sqs.Queue("before")
aws.sqs.Queue("own", opts=pulumi.ResourceOptions(transforms=[tag]))
STACK_TRANSFORM
aws.sqs.Queue("after")
"""


def plan(tmp_path: Path, stack_transform: bool, *flags: str) -> tuple[int, str, str]:
    body = PROGRAM.replace("STACK_TRANSFORM", "pulumi.runtime.register_stack_transform(tag)" if stack_transform else "")
    (tmp_path / "Pulumi.yaml").write_text("name: transformed\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(textwrap.dedent(body))
    result = run_cli("plan", "--program", str(tmp_path), "--stack", "dev", *flags)
    return result.code, result.out, result.err


@pytest.mark.parametrize("stack_transform", [False, True], ids=["resource-transform", "stack-transform"])
def test_transforms_the_plan_does_not_run_are_named(tmp_path: Path, stack_transform: bool) -> None:
    code, out, _ = plan(tmp_path, stack_transform, "-o", "json")
    assert code == 0
    document = json.loads(out)
    warnings = document["warnings"]
    assert any(
        w.startswith("aws:sqs/queue:Queue 'own': registers transforms, which the offline plan does not run")
        for w in warnings
    )
    stacked = [w for w in warnings if "stack transform" in w]
    if stack_transform:
        (warning,) = stacked
        assert warning.endswith(
            "the 1 resource registered after it is shown (and judged) before it: aws:sqs/queue:Queue 'after'"
        )
    else:
        assert stacked == []
    # What the plan shows is what the program gave, before the transform.
    own = next(r for r in document["resources"] if r["name"] == "own")
    assert "tags" not in own["inputs"]


def test_the_table_shows_the_warnings_and_ends_with_the_gate(tmp_path: Path) -> None:
    code, out, _ = plan(tmp_path, True)
    assert code == 0
    assert "Warnings (2):" in out
    last = out.rstrip().splitlines()[-1]
    assert re.match(r"Policy gate: \d+ of the \d+ rules of gpuready-gpu-conventions ran, over 0 of the plan's 3 ", last)


def test_without_the_gate_the_table_says_so(tmp_path: Path) -> None:
    _, out, _ = plan(tmp_path, False, "--no-policy")
    assert out.rstrip().splitlines()[-1] == "Policy gate: not run (--no-policy)"
    _, out, _ = plan(tmp_path, False, "--no-policy", "-o", "json")
    assert json.loads(out)["policyGate"] is None
