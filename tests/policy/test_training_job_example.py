"""The components example (pool, GPU Operator, bin-packing scheduler, placed workloads) passes the policy gate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuready.cli.main import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "training_job"


def test_the_example_plans_clean_and_places_its_workloads(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["plan", "--program", str(EXAMPLE), "--stack", "dev", "-o", "json"])
    plan = json.loads(capsys.readouterr().out)
    assert code == 0
    assert plan["violations"] == []
    by_name = {(r["type"], r["name"]): r for r in plan["resources"]}
    job = by_name[("kubernetes:batch/v1:Job", "train")]["inputs"]["spec"]["template"]["spec"]
    assert job["schedulerName"] == "gpu-binpack"
    # 2 of a p4d's 8 GPUs: one of its 4 EFA interfaces, and the huge pages libfabric's EFA provider uses
    efa = {"vpc.amazonaws.com/efa": 1, "hugepages-2Mi": "5120Mi"}
    assert job["containers"][0]["resources"]["limits"] == {"nvidia.com/gpu": 2, **efa}
    assert {"name": "FI_PROVIDER", "value": "efa"} in job["containers"][0]["env"]
    serve = by_name[("kubernetes:apps/v1:Deployment", "serve")]["inputs"]["spec"]["template"]["spec"]
    assert "podAntiAffinity" in serve["affinity"] and serve["topologySpreadConstraints"]
    config = by_name[("kubernetes:core/v1:ConfigMap", "gpu-binpack-config")]["inputs"]["data"]
    assert "schedulerName: gpu-binpack" in next(iter(config.values()))


def test_without_the_scheduler_the_gate_fails_the_job(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "program"
    program.mkdir()
    for name in ("Pulumi.yaml", "Pulumi.dev.yaml"):
        (program / name).write_text((EXAMPLE / name).read_text(encoding="utf-8"), encoding="utf-8")
    source = (EXAMPLE / "__main__.py").read_text(encoding="utf-8")
    cut = source.replace("after_stack = pulumi.ResourceOptions(provider=provider, depends_on=[stack, scheduler])", "")
    start = cut.index("scheduler = GpuBinPackingScheduler(")  # keeps ``binpack``, the spec the workload names
    end = cut.index("train = gpu_workload(")
    stack_only = "after_stack = pulumi.ResourceOptions(provider=provider, depends_on=[stack])\n\n"
    patched = cut[:start] + stack_only + cut[end:]
    (program / "__main__.py").write_text(patched, encoding="utf-8")
    code = main(["plan", "--program", str(program), "--stack", "dev", "-o", "json"])
    plan = json.loads(capsys.readouterr().out)
    assert code == 1
    assert [v["policy"] for v in plan["violations"]] == ["gpu-workload-scheduler-exists"]
