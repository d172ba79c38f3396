"""``gpuready plan`` as a policy gate: exit 1 on mandatory violations, 0 on the example stacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuready.cli import plan_command
from gpuready.cli.main import build_parser, main
from gpuready.policy.rules.elastic_pools import elastic_pools
from tests.offline.projects import run_project

ROOT = Path(__file__).resolve().parents[2]
WRONG_PROGRAM = ROOT / "examples" / "wrong_program"
WRONG = ["plan", "--program", str(WRONG_PROGRAM), "--stack", "dev"]


def test_wrong_program_fails_the_gate_with_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(WRONG) == 1
    out = capsys.readouterr().out
    assert "LEVEL      POLICY" in out and "RESOURCE" in out and "MESSAGE" in out
    for policy in (
        "gpu-node-pool-requires-gpu-taint",
        "eks-gpu-node-group-requires-nvidia-ami",
        "gpu-helm-release-timeout",
        "gpu-helm-release-nfd-values-key",
        "gpu-workload-gpu-limits-whole",
        "gpu-workload-tolerates-gpu-taint",
    ):
        assert f"mandatory  {policy}" in out


def test_wrong_program_violations_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*WRONG, "-o", "json"]) == 1
    violations = json.loads(capsys.readouterr().out)["violations"]
    assert violations and all(set(v) == {"policy", "level", "resource", "message"} for v in violations)
    assert {v["level"] for v in violations} == {"mandatory", "advisory"}
    assert all(v["resource"].startswith("urn:pulumi:dev::wrong-gpu-program::") for v in violations)


@pytest.mark.parametrize("stack", ["eks-dev", "aks-dev", "gke-dev"])
def test_example_stacks_pass_the_gate(stack: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--stack", stack, "--project-dir", str(ROOT), "-o", "json"]) == 0
    violations = json.loads(capsys.readouterr().out)["violations"]
    assert [v for v in violations if v["level"] == "mandatory"] == []
    # The example stacks add pools to existing clusters; only the advisory "no GPU stack here" may show.
    assert {v["policy"] for v in violations} <= {"gpu-pool-served-by-gpu-stack"}


def test_no_policy_skips_the_gate(capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args([*WRONG, "-o", "json"])
    args.no_policy = True
    assert plan_command.run(args) == 0
    assert json.loads(capsys.readouterr().out)["violations"] == []


def test_policy_config_sets_levels_like_policy_pack_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "policy.json"
    config.write_text(json.dumps({"all": "advisory", "gpu-helm-release-timeout": {"minTimeoutSeconds": 60}}))
    args = build_parser().parse_args([*WRONG, "-o", "json"])
    args.policy_config = str(config)
    assert plan_command.run(args) == 0
    violations = json.loads(capsys.readouterr().out)["violations"]
    assert {v["level"] for v in violations} == {"advisory"}
    assert "gpu-helm-release-timeout" not in {v["policy"] for v in violations}


def test_bad_policy_config_is_invalid_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "policy.json"
    config.write_text(json.dumps({"gpu-no-such-policy": "mandatory"}))
    args = build_parser().parse_args(WRONG)
    args.policy_config = str(config)
    assert plan_command.run(args) == 2
    assert "unknown policies ['gpu-no-such-policy']" in capsys.readouterr().err


def test_the_karpenter_example_passes_every_elastic_rule(capsys: pytest.CaptureFixture[str]) -> None:
    """gpuready's own NodePools are GPU NodePools the elastic rules read, and they pass them all."""
    run = run_project(ROOT, "eks-karpenter")
    pools = [e for r in run.resources for e in elastic_pools(r.type, r.inputs)]
    assert sorted(e.name for e in pools) == sorted(
        r.inputs["metadata"]["name"] for r in run.resources if r.type == "kubernetes:karpenter.sh/v1:NodePool"
    )
    assert pools and all(e.title == "Karpenter (EKS)" for e in pools)
    assert main(["plan", "--stack", "eks-karpenter", "--project-dir", str(ROOT), "-o", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["violations"] == []
