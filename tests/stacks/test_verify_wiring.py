"""``gpuready:verify`` wires one GpuPoolVerification per pool into the stack program; bad values are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuready.cli.main import main
from gpuready.core.stack_settings import parse_stack_settings
from gpuready.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]
POOLS = [
    {"name": "l4-ts", "instanceType": "g2-standard-8", "minSize": 0, "maxSize": 2},
    {"name": "t4-mps", "instanceType": "n1-standard-8", "gpu": {"model": "t4", "count": 1}, "minSize": 0, "maxSize": 2},
]


def _stack_file(tmp_path: Path, extra: str) -> Path:
    text = (ROOT / "stacks" / "Pulumi.gke-dev.yaml").read_text(encoding="utf-8")
    path = tmp_path / "Pulumi.verified.yaml"
    path.write_text(text + extra, encoding="utf-8")
    return path


def _plan(capsys: pytest.CaptureFixture[str], stack_file: Path) -> tuple[int, dict[str, object], str]:
    code = main(["plan", "--config", str(stack_file), "--project-dir", str(ROOT), "-o", "json", "--no-policy"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else {}), err


def test_verify_adds_one_verification_per_pool_not_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    extra = "  gpuready:verify: true\n  gpuready:verifyTimeoutSeconds: 600\n  gpuready:verifySkipPools: [t4-mps]\n"
    code, plan, _ = _plan(capsys, _stack_file(tmp_path, extra))
    assert code == 0
    resources = plan["resources"]
    assert isinstance(resources, list)
    verifications = sorted(r["name"] for r in resources if r["type"] == "pulumi-python:dynamic:Resource")
    assert verifications == ["a100-mig-verify", "l4-ts-verify"]


def test_verify_is_off_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, plan, _ = _plan(capsys, _stack_file(tmp_path, ""))
    assert code == 0
    resources = plan["resources"]
    assert isinstance(resources, list)
    assert not [r for r in resources if r["type"] == "pulumi-python:dynamic:Resource"]


def test_skipping_an_unknown_pool_is_refused_before_anything_registers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, plan, err = _plan(
        capsys, _stack_file(tmp_path, "  gpuready:verify: true\n  gpuready:verifySkipPools: [nope]\n")
    )
    assert code == 2
    assert set(plan) == {"error"}  # -o json: the error object, never a plan (docs/plan.md "Error contract")
    assert "gpuready:verifySkipPools[0]: names no pool of this stack; got 'nope'" in err
    assert "Allowed: a100-mig, l4-ts, t4-mps" in err


BASE = {"cloud": "gke", "clusterName": "c", "gkeLocation": "us-central1-a", "nodePools": json.dumps(POOLS)}


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({}, ("", "")),
        (
            {"verifySmokeImage": "registry.example.com/cuda:12", "verifySmokeNcclImage": "registry.example.com/pt:1"},
            ("registry.example.com/cuda:12", "registry.example.com/pt:1"),
        ),
    ],
)
def test_verify_smoke_image_settings_parse(values: dict[str, object], expected: tuple[str, str]) -> None:
    settings = parse_stack_settings({**BASE, **values})
    assert (settings.verify_smoke_image, settings.verify_smoke_nccl_image) == expected


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"verify": "true", "verifyTimeoutSeconds": "120", "verifySkipPools": ["t4-mps"]}, (True, 120, ("t4-mps",))),
        ({"verify": False}, (False, 900, ())),
        ({}, (False, 900, ())),
    ],
)
def test_verify_settings_parse(values: dict[str, object], expected: tuple[bool, int, tuple[str, ...]]) -> None:
    settings = parse_stack_settings({**BASE, **values})
    assert (settings.verify, settings.verify_timeout_seconds, settings.verify_skip_pools) == expected


@pytest.mark.parametrize(
    ("values", "path", "text"),
    [
        ({"verify": "yes"}, "gpuready:verify", "must be true or false"),
        ({"verifyTimeoutSeconds": "0"}, "gpuready:verifyTimeoutSeconds", "at least 1"),
        ({"verifyTimeoutSeconds": "ten"}, "gpuready:verifyTimeoutSeconds", "whole number"),
        ({"verifySkipPools": ["l4"]}, "gpuready:verifySkipPools[0]", "names no pool"),
        ({"verifySmokeImage": "not an image"}, "gpuready:verifySmokeImage", "is not an image reference"),
        ({"verifySmokeNcclImage": "not an image"}, "gpuready:verifySmokeNcclImage", "is not an image reference"),
        ({"verifySmokeNcclImage": "Registry/pt"}, "gpuready:verifySmokeNcclImage", "is not an image reference"),
        ({"verifySmokeNcclImage": ["a/b:1"]}, "gpuready:verifySmokeNcclImage", "must be a string"),
    ],
)
def test_bad_verify_settings_are_refused(values: dict[str, object], path: str, text: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_stack_settings({**BASE, **values})
    assert any(p.path == path and text in str(p) for p in caught.value.problems), str(caught.value)


def test_verify_smoke_plans_each_pools_smoke_job(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    extra = (
        "  gpuready:verify: true\n  gpuready:verifySmoke: true\n"
        "  gpuready:verifySmokeImage: registry.example.com/cuda:12\n"
    )
    code, plan, _ = _plan(capsys, _stack_file(tmp_path, extra))
    assert code == 0
    resources = plan["resources"]
    assert isinstance(resources, list)
    checks = [r for r in resources if r["type"] == "pulumi-python:dynamic:Resource"]
    assert checks and all(r["inputs"]["smoke"]["pool"] == r["name"].removesuffix("-verify") for r in checks)
    job = checks[0]["inputs"]["smoke"]["objects"][-1]
    assert job["spec"]["template"]["spec"]["containers"][0]["image"] == "registry.example.com/cuda:12"


def test_verify_smoke_is_off_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, plan, _ = _plan(capsys, _stack_file(tmp_path, "  gpuready:verify: true\n"))
    assert code == 0
    resources = plan["resources"]
    assert isinstance(resources, list)
    assert not [r for r in resources if "smoke" in r.get("inputs", {})]


def test_verify_smoke_nccl_image_reaches_each_fabric_pools_all_reduce(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (ROOT / "stacks" / "Pulumi.eks-efa.yaml").read_text(encoding="utf-8")
    extra = (
        "  gpuready:verify: true\n  gpuready:verifySmoke: true\n"
        "  gpuready:verifySmokeNcclImage: registry.example.com/pt:1\n"
    )
    path = tmp_path / "Pulumi.efa-verified.yaml"
    path.write_text(text.replace("config:\n", "config:\n" + extra, 1), encoding="utf-8")
    code, plan, err = _plan(capsys, path)
    assert code == 0, err
    resources = plan["resources"]
    assert isinstance(resources, list)
    checks = [r for r in resources if r["type"] == "pulumi-python:dynamic:Resource"]
    assert sorted(r["name"] for r in checks) == ["h100-train-verify", "h200-train-verify"]
    for check in checks:
        job = check["inputs"]["smoke"]["objects"][-1]
        assert job["spec"]["completionMode"] == "Indexed"  # the two-node all-reduce
        assert [c["image"] for c in job["spec"]["template"]["spec"]["containers"]] == ["registry.example.com/pt:1"]
