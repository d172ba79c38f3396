"""A gpuready stack that follows Microsoft's ``sku=gpu:NoSchedule`` convention (issue #27 item 3): with
``gpuready:conventions`` saying so, the plan's policy gate holds the pools, the GPU stack and workloads to it, and
the stack plans clean; a bad conventions value is invalid input."""

from __future__ import annotations

import json
from pathlib import Path
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


RAW_SKU_PROGRAM = """
import pulumi_azure_native.containerservice as aks
import pulumi_kubernetes as k8s

SKU = {"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}
aks.AgentPool("t4", resource_group_name="rg", resource_name_="aks", agent_pool_name="t4",
    vm_size="Standard_NC4as_T4_v3", node_taints=["sku=gpu:NoSchedule"],
    node_labels={"nvidia.com/gpu.present": "true", "gpuready.io/accelerator": "t4"})
k8s.helm.v3.Release("nvidia-device-plugin", chart="nvidia-device-plugin", version="0.20.0",
    namespace="nvidia-device-plugin", create_namespace=True, timeout=900, values={"tolerations": [SKU]})
"""


def test_policy_config_sets_the_gpu_taint_of_a_raw_program(tmp_path: Path) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: sku\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(RAW_SKU_PROGRAM)
    taint = {"key": "sku", "value": "gpu", "effect": "NoSchedule"}
    config = tmp_path / "policy.json"
    policies = ("gpu-node-pool-requires-gpu-taint", "gpu-helm-release-tolerations-use-exists")
    config.write_text(json.dumps({name: {"gpuTaint": taint} for name in policies}))
    unsaid = run_cli("plan", "--program", str(tmp_path), "--stack", "dev", "-o", "json")
    said = run_cli("plan", "--program", str(tmp_path), "--stack", "dev", "-o", "json", "--policy-config", str(config))
    assert unsaid.code == 1
    assert (said.code, [v for v in json.loads(said.out)["violations"] if v["level"] == "mandatory"]) == (0, [])
    config.write_text(json.dumps({"gpu-node-pool-requires-gpu-taint": {"gpuTaint": "sku=gpu:NoSchedule"}}))
    wrong = run_cli("plan", "--program", str(tmp_path), "--stack", "dev", "--policy-config", str(config))
    assert wrong.code == 2 and "gpuTaint" in wrong.err
