"""``gpuready plan --set`` with JSON lists, ``--set-path``, keys of other namespaces, and ``--debug``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gpuready.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]
NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"


def _plan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    code = cli.main(["plan", "--project-dir", str(ROOT), "--no-policy", "-o", "json", *args])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def _subnets(plan: dict[str, Any]) -> set[tuple[str, ...]]:
    return {tuple(r["inputs"]["subnetIds"]) for r in plan["resources"] if r["type"] == NODE_GROUP}


def test_a_json_list_through_set_reaches_every_node_group(capsys: pytest.CaptureFixture[str]) -> None:
    code, plan, err = _plan(
        capsys, "--stack", "eks-dev", "--set", 'gpuready:eksSubnetIds=["subnet-0aaaaaaa","subnet-0bbbbbbb"]'
    )
    assert code == 0, err
    assert _subnets(plan) == {("subnet-0aaaaaaa", "subnet-0bbbbbbb")}


def test_set_path_appends_to_the_stack_file_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, plan, err = _plan(capsys, "--stack", "eks-dev", "--set-path", "gpuready:eksSubnetIds[2]=subnet-0ccccccc")
    assert code == 0, err
    assert _subnets(plan) == {("subnet-0a1b2c3d4e5f60718", "subnet-0f1e2d3c4b5a69788", "subnet-0ccccccc")}


def test_set_path_after_set(capsys: pytest.CaptureFixture[str]) -> None:
    code, plan, err = _plan(
        capsys,
        "--stack", "eks-dev",
        "--set-path", "gpuready:eksSubnetIds[0]=subnet-0fffffff",
        "--set", 'gpuready:eksSubnetIds=["subnet-0aaaaaaa"]',
    )  # fmt: skip
    assert code == 0, err
    assert _subnets(plan) == {("subnet-0fffffff",)}


def test_keys_of_other_namespaces_are_left_to_their_owners(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _plan(capsys, "--stack", "eks-dev", "--set", "aws:regoin=eu-west-1", "--set", "kubernetes:x=y")
    assert code == 0, err


def test_debug_shows_the_whole_traceback_of_a_failing_program(capsys: pytest.CaptureFixture[str]) -> None:
    program = str(ROOT / "tests" / "offline" / "fixtures" / "raising")
    assert cli.main(["plan", "--program", program, "--no-policy"]) == 3
    quiet = capsys.readouterr().err
    assert "Traceback" not in quiet
    assert "--debug" in quiet
    assert cli.main(["plan", "--program", program, "--no-policy", "--debug"]) == 3
    loud = capsys.readouterr().err
    assert "Traceback (most recent call last)" in loud
    assert 'sizes.py", line 7, in node_count' in loud
    assert loud.rstrip().endswith("sizes.py:7")  # the clean message still closes the output
