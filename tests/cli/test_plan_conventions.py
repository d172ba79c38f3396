"""A gpuready stack that follows Microsoft's ``sku=gpu:NoSchedule`` convention (issue #27 item 3): with
``gpuready:conventions`` saying so, the plan's policy gate holds the pools, the GPU stack and workloads to it, and
the stack plans clean; a bad conventions value is invalid input."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from tests.cli.test_plan_command import ROOT, run_cli

POOLS: list[dict[str, Any]] = yaml.safe_load(
    yaml.safe_load((ROOT / "stacks" / "Pulumi.aks-dev.yaml").read_text("utf-8"))["config"]["gpuready:nodePools"]
)
SKU_POOLS = [{**p, "taints": [*p.get("taints", []), "sku=gpu:NoSchedule"]} for p in POOLS]


def plan(*sets: str) -> tuple[int, dict[str, Any], str]:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        flags = [flag for value in sets for flag in ("--set", value)]
        result = run_cli("plan", "--stack", "aks-dev", "-o", "json", *flags)
    return result.code, json.loads(result.out), result.err


def test_a_stack_with_the_sku_gpu_convention_plans_clean_once_it_says_so() -> None:
    code, document, _ = plan(
        f"gpuready:nodePools={json.dumps(SKU_POOLS)}", "gpuready:conventions={gpuTaint: sku=gpu:NoSchedule}"
    )
    assert code == 0
    assert document["violations"] == []
    # The GPU stack tolerates the pools' sku taint (it tolerates every pool taint).
    release = next(r for r in document["resources"] if r["type"] == "kubernetes:helm.sh/v3:Release")
    tolerations = json.dumps(release["inputs"]["values"])
    assert '"key": "sku"' in tolerations


def test_said_but_not_on_the_pools_is_caught() -> None:
    code, document, _ = plan("gpuready:conventions={gpuTaint: sku=gpu:NoSchedule}")
    assert code == 1
    taint = [v for v in document["violations"] if v["policy"] == "gpu-node-pool-requires-gpu-taint"]
    assert taint and all("no sku NoSchedule taint" in v["message"] for v in taint)


def test_a_bad_conventions_value_is_invalid_input() -> None:
    code, document, _ = plan("gpuready:conventions={gpuTaint: sku=gpu:Sometimes}")
    assert code == 2
    problems = document["error"]["problems"]
    assert [p["path"] for p in problems] == ["gpuready:conventions.gpuTaint"]
