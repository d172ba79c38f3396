"""The hostile half of the bad-input corpus (bad_inputs.yaml ``hostile``): alias bombs, deep nesting, megabyte
values and over-quota pool counts are refused fast, with a short error, by the Pulumi-free reader (``gpuready
verify --stack``) and by ``gpuready plan``; nothing registers, nothing is echoed whole, no traceback."""

from __future__ import annotations

import shutil
import time
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
HOSTILE: list[dict[str, Any]] = yaml.safe_load((Path(__file__).with_name("bad_inputs.yaml")).read_text("utf-8"))[
    "hostile"
]
BASE: dict[str, dict[str, object]] = {
    "eks": {
        "aws:region": "us-east-1",
        "gpuready:cloud": "eks",
        "gpuready:clusterName": "test",
        "gpuready:eksNodeRoleArn": "arn:aws:iam::123456789012:role/test-gpu-nodes",
        "gpuready:eksSubnetIds": ["subnet-0a1b2c3d4e5f60718"],
        "gpuready:gpuStack": "external",
        "gpuready:nodePools": "- {name: gpu, instanceType: g6.xlarge, minSize: 0, maxSize: 1}\n",
    },
    "aks": {
        "azure-native:location": "eastus",
        "gpuready:cloud": "aks",
        "gpuready:clusterName": "test",
        "gpuready:aksResourceGroup": "rg",
        "gpuready:gpuStack": "external",
        "gpuready:nodePools": "- {name: gpu, instanceType: Standard_NC4as_T4_v3, minSize: 0, maxSize: 1}\n",
    },
}
"""A valid stack per cloud that each case spoils."""


def stack_text(case: dict[str, Any]) -> str:
    config: dict[str, object] = dict(BASE[case["cloud"]])
    if "nodePools" in case:
        config["gpuready:nodePools"] = "".join(
            "".join(text.replace("{i}", str(i)) for i in range(times)) if "{i}" in text else text * times
            for text, times in case["nodePools"]
        )
    text = yaml.safe_dump({"config": config}, width=2**31, sort_keys=False)
    extra = case.get("config", "")
    return text + "".join(f"  {line}\n" for line in extra.splitlines())


def cli(*argv: str) -> tuple[int, str, float]:
    out, err = StringIO(), StringIO()
    start = time.monotonic()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue() + err.getvalue(), time.monotonic() - start


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    return tmp_path


def test_hostile_cases_are_well_formed() -> None:
    ids = [case["id"] for case in HOSTILE]
    assert len(ids) == len(set(ids)) >= 6
    for case in HOSTILE:
        assert set(case) <= {"id", "cloud", "config", "nodePools", "expect", "max_seconds", "max_output"}
        assert "config" in case or "nodePools" in case


@pytest.mark.parametrize("case", HOSTILE, ids=[case["id"] for case in HOSTILE])
def test_refused_fast_and_short_without_pulumi(project: Path, case: dict[str, Any]) -> None:
    (project / "stacks" / "Pulumi.hostile.yaml").write_text(stack_text(case), encoding="utf-8")
    code, output, took = cli("verify", "--stack", "hostile", "--project-dir", str(project), "--timeout", "1")
    assert code == 2, output
    assert case["expect"] in output
    assert took < case["max_seconds"]
    assert len(output) <= case["max_output"], output[:2000]
    assert "Traceback" not in output


@pytest.mark.parametrize("case", HOSTILE, ids=[case["id"] for case in HOSTILE])
def test_refused_by_plan_before_anything_registers(tmp_path: Path, case: dict[str, Any]) -> None:
    config = tmp_path / "Pulumi.hostile.yaml"
    config.write_text(stack_text(case), encoding="utf-8")
    code, output, _ = cli("plan", "--config", str(config), "--stack-name", "hostile", "--project-dir", str(ROOT))
    assert code == 2, output[:2000]
    assert case["expect"] in output
    assert len(output) <= case["max_output"] + 200, output[:2000]  # plan adds a header line
    assert "Traceback" not in output
