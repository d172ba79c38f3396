"""A gpuready stack that follows Microsoft's ``sku=gpu:NoSchedule`` convention (issue #27 item 3): with
``gpuready:conventions`` saying so, gpuready's pools carry that taint on every cloud and provisioner (and SkyPilot's
label only when asked), the GPU stack and the workload placement tolerate it, the plan's policy gate holds them to
it, and the stack plans clean; a bad conventions value is invalid input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_plan_command import ROOT, run_cli

SKU = {"key": "sku", "operator": "Exists", "effect": "NoSchedule"}
TEAM = "gpuready:conventions={gpuTaint: sku=gpu:NoSchedule}"
GOLDEN = ROOT / "tests" / "golden" / "data"


def plan(stack: str, *sets: str) -> tuple[int, dict[str, Any], str]:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        flags = [flag for value in sets for flag in ("--set", value)]
        result = run_cli("plan", "--stack", stack, "-o", "json", *flags)
    return result.code, json.loads(result.out), result.err


def inputs_of(document: dict[str, Any], suffix: str) -> list[dict[str, Any]]:
    return [r["inputs"] for r in document["resources"] if r["type"].endswith(suffix)]


def test_the_sku_gpu_example_stack_plans_clean_and_its_pools_carry_the_teams_taint() -> None:
    code, document, _ = plan("aks-sku")
    assert (code, document["violations"]) == (0, [])
    assert document["policyGate"]["rules"] > 0  # the gate ran, with the stack's conventions
    pools = inputs_of(document, ":AgentPool")
    assert len(pools) == 2
    for pool in pools:
        assert pool["nodeTaints"] == ["sku=gpu:NoSchedule"]  # the team's taint, not nvidia.com/gpu's
        template = {k: v for k, v in pool["tags"].items() if "_taint_" in k}
        assert template == {"k8s.io_cluster-autoscaler_node-template_taint_sku": "gpu:NoSchedule"}
    (release,) = inputs_of(document, "helm.sh/v3:Release")
    values = release["values"]
    assert SKU in values["tolerations"] and values["nfd"]["worker"]["tolerations"] == [SKU]
    assert "nvidia.com/gpu" not in json.dumps(values["tolerations"])
    for name, pool in document["outputs"]["pools"].items():  # what the workload helper places pods with
        assert pool["taint"] == {"key": "sku", "value": "gpu", "effect": "NoSchedule"}, name
        assert pool["tolerations"] == [SKU], name


def test_skypilot_labels_off_leave_them_off_the_pools() -> None:
    code, document, _ = plan("aks-sku", "gpuready:conventions={gpuTaint: sku=gpu:NoSchedule, skypilotLabels: false}")
    assert (code, document["violations"]) == (0, [])
    for pool in inputs_of(document, ":AgentPool"):
        assert "skypilot.co/accelerator" not in pool["nodeLabels"]
        assert not [k for k in pool["tags"] if "skypilot" in k]
        assert pool["nodeLabels"]["gpuready.io/accelerator"]  # gpuready's own label stays


# One stack per cloud and provisioner: node groups, Karpenter, GKE node pools and ComputeClasses, AKS pools and NAP.
@pytest.mark.parametrize("stack", ["eks-dev", "eks-karpenter", "gke-dev", "gke-compute-class", "aks-nap"])
def test_every_cloud_and_provisioner_carries_the_teams_taint(stack: str) -> None:
    code, document, _ = plan(stack, TEAM)
    golden = json.loads((GOLDEN / f"plan-{stack}.json").read_text("utf-8"))
    # The same verdict as with gpuready's own taint: the conventions add no violation and hide none.
    assert code == golden["code"]
    assert sorted(v["policy"] for v in document["violations"]) == sorted(
        v["policy"] for v in golden["stdout"]["violations"]
    )
    text = json.dumps(document["resources"])
    for spelling in ('"value": "present"', "=present:", '"present:'):  # nvidia.com/gpu=present in every encoding
        assert spelling not in text, spelling
    assert '"key": "sku"' in text or "sku=gpu:NoSchedule" in text or "taint_sku" in text
    for pool in document["outputs"]["pools"].values():
        assert pool["taint"]["key"] == "sku"
        assert SKU in pool["tolerations"]


API_SKU = {"key": "sku", "value": "gpu", "effect": "NO_SCHEDULE"}  # the EKS and GKE API spelling
K8S_SKU = {"key": "sku", "value": "gpu", "effect": "NoSchedule"}


@pytest.mark.parametrize(("stack", "resource_type", "path", "first"), [
    ("eks-dev", "aws:eks/nodeGroup:NodeGroup", ("taints",), API_SKU),
    ("gke-dev", "gcp:container/nodePool:NodePool", ("nodeConfig", "taints"), API_SKU),
    ("eks-karpenter", "kubernetes:karpenter.sh/v1:NodePool", ("spec", "template", "spec", "taints"), K8S_SKU),
    ("aks-nap", "kubernetes:karpenter.sh/v1:NodePool", ("spec", "template", "spec", "taints"), K8S_SKU),
    ("gke-compute-class", "kubernetes:cloud.google.com/v1:ComputeClass", ("spec", "nodePoolConfig", "taints"), K8S_SKU),
])  # fmt: skip
def test_each_cloud_encodes_the_teams_taint_first(
    stack: str, resource_type: str, path: tuple[str, ...], first: dict[str, str]
) -> None:
    _, document, _ = plan(stack, TEAM)
    pools = [r["inputs"] for r in document["resources"] if r["type"] == resource_type]
    assert pools
    for inputs in pools:
        taints = inputs
        for key in path:
            taints = taints[key]
        assert taints[0] == first


def test_eks_node_template_tags_carry_the_teams_taint() -> None:
    _, document, _ = plan("eks-dev", TEAM)
    tags = [r["inputs"]["tag"] for r in document["resources"] if r["type"] == "aws:autoscaling/tag:Tag"]
    taint_tags = {t["key"]: t["value"] for t in tags if "/node-template/taint/" in t["key"]}
    assert taint_tags == {"k8s.io/cluster-autoscaler/node-template/taint/sku": "gpu:NoSchedule"}
    assert sum("/node-template/taint/" in t["key"] for t in tags) == len(inputs_of(document, "nodeGroup:NodeGroup"))


def test_the_teams_taint_key_given_again_as_an_extra_taint_is_refused() -> None:
    pools = [{"name": "t4", "instanceType": "Standard_NC4as_T4_v3", "minSize": 0, "maxSize": 1,
              "taints": ["sku=gpu:NoSchedule"]}]  # fmt: skip
    code, document, _ = plan("aks-sku", f"gpuready:nodePools={json.dumps(pools)}")
    assert code == 2
    (problem,) = document["error"]["problems"]
    assert problem["path"] == "gpuready:nodePools[0].taints[0].key"
    assert "gpuready sets this taint itself" in problem["problem"]


def test_a_bad_conventions_value_is_invalid_input() -> None:
    code, document, _ = plan("aks-dev", "gpuready:conventions={gpuTaint: sku=gpu:Sometimes}")
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
