"""Real-world GPU failures (shared reference anchors.md 5) as tiny Pulumi programs, run offline under the mock
runtime and judged by the pack through the engine's Analyzer protocol: each broken program is caught, and its
fix passes."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.policy.harness import pack_violations

PRELUDE = """
import pulumi_aws as aws
import pulumi_azure_native.containerservice as aks
import pulumi_gcp as gcp
import pulumi_kubernetes as k8s

GPU_TAINT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}
LABELS = {"nvidia.com/gpu.present": "true", "gpuready.io/accelerator": "l4"}
EXISTS = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}


def node_group(name, taints, labels=LABELS, ami="AL2023_x86_64_NVIDIA"):
    return aws.eks.NodeGroup(name, cluster_name="ml", node_role_arn="arn:aws:iam::123456789012:role/gpu",
        subnet_ids=["subnet-a"], instance_types=["g6.xlarge"], ami_type=ami, labels=labels, taints=taints,
        scaling_config={"min_size": 0, "max_size": 2, "desired_size": 1})


def release(chart, version, namespace, values, timeout=1800):
    return k8s.helm.v3.Release(chart, chart=chart, version=version, namespace=namespace, create_namespace=True,
        timeout=timeout, atomic=True, values=values)


def device_plugin(values):
    return release("nvidia-device-plugin", "0.20.0", "nvidia-device-plugin", values, timeout=900)


def karpenter_pool(name, template_spec, limits=None, disruption=None):
    spec = {"template": {"metadata": {"labels": LABELS}, "spec": {"nodeClassRef": {"group": "karpenter.k8s.aws",
        "kind": "EC2NodeClass", "name": name}, **template_spec}}}
    spec.update({k: v for k, v in {"limits": limits, "disruption": disruption}.items() if v is not None})
    return k8s.apiextensions.CustomResource(name, api_version="karpenter.sh/v1", kind="NodePool",
        metadata={"name": name}, spec=spec)
"""

SCENARIOS: list[tuple[str, str, str, dict[str, str]]] = [
    (
        "5-gke-custom-taint-without-the-gke-gpu-taint",  # hashicorp/terraform-provider-google#7928
        """
        gcp.container.NodePool("l4", cluster="ml", node_config={"machine_type": "g2-standard-8",
            "guest_accelerators": [{"type": "nvidia-l4", "count": 1}], "labels": LABELS,
            "taints": [{"key": "dedicated", "value": "ml", "effect": "NO_SCHEDULE"}]})""",
        """
        gcp.container.NodePool("l4", cluster="ml", node_config={"machine_type": "g2-standard-8",
            "guest_accelerators": [{"type": "nvidia-l4", "count": 1}], "labels": LABELS,
            "taints": [{"key": "dedicated", "value": "ml", "effect": "NO_SCHEDULE"}, GPU_TAINT]})""",
        {"gpu-node-pool-requires-gpu-taint": "terraform-provider-google#7928"},
    ),
    (
        "6-gpu-pool-without-any-taint",  # terraform-google-kubernetes-engine#703
        """
        gcp.container.NodePool("a100", cluster="ml", node_config={"machine_type": "a2-highgpu-1g",
            "labels": {**LABELS, "gpuready.io/accelerator": "a100"}})""",
        """
        gcp.container.NodePool("a100", cluster="ml", node_config={"machine_type": "a2-highgpu-1g",
            "labels": {**LABELS, "gpuready.io/accelerator": "a100"}, "taints": [GPU_TAINT]})""",
        {"gpu-node-pool-requires-gpu-taint": "only when the cluster already has a non-GPU pool"},
    ),
    (
        "10-aks-gpu-pod-without-toleration",  # Azure/AKS#1449
        """
        aks.AgentPool("t4", resource_group_name="rg", resource_name_="aks", agent_pool_name="t4",
            vm_size="Standard_NC4as_T4_v3", node_taints=["nvidia.com/gpu=present:NoSchedule"],
            node_labels={**LABELS, "gpuready.io/accelerator": "t4"})
        k8s.core.v1.Pod("train", spec={"containers": [{"name": "c", "image": "cuda",
            "resources": {"limits": {"nvidia.com/gpu": "1"}}}]})""",
        """
        aks.AgentPool("t4", resource_group_name="rg", resource_name_="aks", agent_pool_name="t4",
            vm_size="Standard_NC4as_T4_v3", node_taints=["nvidia.com/gpu=present:NoSchedule"],
            node_labels={**LABELS, "gpuready.io/accelerator": "t4"})
        k8s.core.v1.Pod("train", spec={"containers": [{"name": "c", "image": "cuda",
            "resources": {"limits": {"nvidia.com/gpu": "1"}}}], "tolerations": [EXISTS]})""",
        {"gpu-workload-tolerates-gpu-taint": "Azure/AKS#1449"},
    ),
    (
        "12-aks-preinstalled-driver-and-operator-driver",  # NVIDIA/gpu-operator#525
        """
        aks.AgentPool("a100", resource_group_name="rg", resource_name_="aks", agent_pool_name="a100",
            vm_size="Standard_NC24ads_A100_v4", node_taints=["nvidia.com/gpu=present:NoSchedule"],
            node_labels={**LABELS, "gpuready.io/accelerator": "a100-80gb"}, gpu_profile={"driver": "Install"})
        release("gpu-operator", "v26.7.0", "gpu-operator", {})""",
        """
        aks.AgentPool("a100", resource_group_name="rg", resource_name_="aks", agent_pool_name="a100",
            vm_size="Standard_NC24ads_A100_v4", node_taints=["nvidia.com/gpu=present:NoSchedule"],
            node_labels={**LABELS, "gpuready.io/accelerator": "a100-80gb"}, gpu_profile={"driver": "Install"})
        release("gpu-operator", "v26.7.0", "gpu-operator", {"driver": {"enabled": False},
            "toolkit": {"enabled": False}})""",
        {"gpu-stack-single-driver-owner": "two NVIDIA driver owners: AKS"},
    ),
    (
        "13-helm-timeout-300s",  # METR/hawk#1363
        """
        release("gpu-operator", "v26.7.0", "gpu-operator", {"driver": {"enabled": False}}, timeout=300)""",
        """
        release("gpu-operator", "v26.7.0", "gpu-operator", {"driver": {"enabled": False}}, timeout=1800)""",
        {"gpu-helm-release-timeout": "300 s is too short"},
    ),
    (
        "15-nfd-toleration-equal-present-vs-taint-true",  # NVIDIA/k8s-device-plugin#1934
        """
        node_group("gpu", [{**GPU_TAINT, "value": "true"}])
        device_plugin({"gfd": {"enabled": True}})""",
        """
        node_group("gpu", [{**GPU_TAINT, "value": "true"}])
        device_plugin({"gfd": {"enabled": True}, "nfd": {"worker": {"tolerations": [EXISTS],
            "nodeSelector": {"nvidia.com/gpu.present": "true"}}}})""",
        {
            "gpu-stack-tolerates-pool-taints": "does not tolerate taint nvidia.com/gpu=true:NoSchedule",
            "gpu-helm-release-tolerations-use-exists": "only with value 'present'",
        },
    ),
    (
        "16-extra-pool-taint-not-tolerated-by-the-device-plugin",  # eksctl-io/eksctl#5277
        """
        node_group("gpu", [GPU_TAINT, {"key": "dedicated", "value": "gpu", "effect": "NO_SCHEDULE"}])
        device_plugin({})""",
        """
        node_group("gpu", [GPU_TAINT, {"key": "dedicated", "value": "gpu", "effect": "NO_SCHEDULE"}])
        device_plugin({"tolerations": [EXISTS, {"key": "dedicated", "operator": "Exists", "effect": "NoSchedule"}]})""",
        {"gpu-stack-tolerates-pool-taints": "does not tolerate taint dedicated=gpu:NoSchedule"},
    ),
    (
        "issue-14-karpenter-gpu-nodepool-untainted-and-unbounded",  # aws/karpenter-provider-aws#6884, #5527
        """
        karpenter_pool("gpu", {"requirements": [{"key": "karpenter.k8s.aws/instance-gpu-count", "operator": "Gt",
            "values": ["0"]}]})""",
        """
        karpenter_pool("gpu", {"requirements": [{"key": "karpenter.k8s.aws/instance-gpu-count", "operator": "Gt",
            "values": ["0"]}], "taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]},
            limits={"nvidia.com/gpu": "16"}, disruption={"consolidationPolicy": "WhenEmpty",
            "consolidateAfter": "10m"})""",
        {
            "gpu-node-pool-requires-gpu-taint": "Karpenter adds no taint of its own",
            "gpu-nodepool-requires-gpu-limit": "no nvidia.com/gpu limit",
        },
    ),
    (
        "issue-14-gke-computeclass-gpu-without-taint",  # cloudpilot-ai/karpenter-provider-gcp#166 (same trap)
        """
        k8s.apiextensions.CustomResource("l4", api_version="cloud.google.com/v1", kind="ComputeClass",
            metadata={"name": "l4"}, spec={"priorities": [{"gpu": {"type": "nvidia-l4", "count": 1}}],
            "nodePoolAutoCreation": {"enabled": True}})""",
        """
        k8s.apiextensions.CustomResource("l4", api_version="cloud.google.com/v1", kind="ComputeClass",
            metadata={"name": "l4"}, spec={"priorities": [{"gpu": {"type": "nvidia-l4", "count": 1}}],
            "nodePoolAutoCreation": {"enabled": True}, "nodePoolConfig": {"taints": [{"key": "nvidia.com/gpu",
            "value": "present", "effect": "NoSchedule"}]}})""",
        {"gpu-node-pool-requires-gpu-taint": "GKE taints its GPU nodes only in clusters"},
    ),
]


@pytest.mark.parametrize(("name", "broken", "fixed", "expected"), SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_scenario_is_caught_and_its_fix_passes(
    tmp_path: Path, name: str, broken: str, fixed: str, expected: dict[str, str]
) -> None:
    found = pack_violations(tmp_path / "broken", PRELUDE + _body(broken))
    for policy, text in expected.items():
        messages = [v.message for v in found if v.policy == policy]
        assert any(text in m for m in messages), (policy, found)
        assert all(v.level == "mandatory" for v in found if v.policy == policy)
    after = pack_violations(tmp_path / "fixed", PRELUDE + _body(fixed))
    assert [v for v in after if v.level == "mandatory"] == []


def test_preview_unknowns_become_advisory_diagnostics(tmp_path: Path) -> None:
    source = PRELUDE + _body(
        """
        role = aws.iam.Role("role", assume_role_policy="{}")
        node_group("gpu", [GPU_TAINT])
        aws.eks.NodeGroup("late", cluster_name="ml", node_role_arn="arn", subnet_ids=["s"],
            instance_types=[role.arn], ami_type="AL2023_x86_64_NVIDIA",
            scaling_config={"min_size": 0, "max_size": 1, "desired_size": 0})"""
    )
    found = pack_violations(tmp_path / "p", source, preview=True)
    unknown = [v for v in found if "during preview" in v.message]
    assert unknown and all(v.level == "advisory" for v in unknown)
    # Analyze names the resource; AnalyzeStack's diagnostic has no URN, so it lands on the stack.
    assert {v.resource.rsplit("::", 1)[-1] for v in unknown} == {"late", "policytest-dev"}
    assert "can't run policy 'gpu-node-pool-requires-gpu-taint'" in " ".join(v.message for v in unknown)


def _body(text: str) -> str:
    return textwrap.dedent(text)
