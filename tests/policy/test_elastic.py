"""Policies on raw Karpenter / EKS Auto Mode / AKS NAP NodePools and GKE ComputeClasses, through the analyzer."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.policy.rules.elastic_pools import elastic_pools
from tests.policy.builders import (
    COMPUTE_CLASS,
    EXISTS,
    K8S_GPU_TAINT,
    NODE_POOL,
    RELEASE,
    compute_class,
    node_pool,
    operator,
    plugin,
)
from tests.policy.harness import messages

TAINT = "gpu-node-pool-requires-gpu-taint"
LIMIT = "gpu-nodepool-requires-gpu-limit"
DISRUPTION = "gpu-nodepool-consolidation-spares-running-pods"
SERVED = "gpu-pool-served-by-gpu-stack"
TOLERATED = "gpu-stack-tolerates-pool-taints"


def req(key: str, operator_: str, *values: str) -> dict[str, Any]:
    return {"key": key, "operator": operator_, **({"values": list(values)} if values else {})}


AUTO_MODE = {"nodeClassRef": {"group": "eks.amazonaws.com", "kind": "NodeClass", "name": "gpu"}}
NAP = {"nodeClassRef": {"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "gpu"}}
CPU = [req("node.kubernetes.io/instance-type", "In", "m5.large", "c6i.xlarge")]
NO_TAINT = {"taints": None}

RECOGNISED = [
    ([req("node.kubernetes.io/instance-type", "In", "m5.large", "p5.48xlarge")], {}, "p5.48xlarge"),
    ([req("node.kubernetes.io/instance-type", "In", "p6e-gb200.36xlarge")], {}, "p6e-gb200"),  # family not in catalog
    ([req("karpenter.k8s.aws/instance-gpu-count", "Gt", "0")], {}, "instance-gpu-count Gt"),
    ([req("karpenter.k8s.aws/instance-gpu-count", "In", "1", "2")], {}, "instance-gpu-count In"),
    ([req("karpenter.k8s.aws/instance-gpu-name", "In", "l4")], {}, "instance-gpu-name In"),
    ([req("karpenter.k8s.aws/instance-gpu-manufacturer", "In", "nvidia")], {}, "gpu-manufacturer"),
    ([req("karpenter.k8s.aws/instance-family", "In", "g6e", "g5")], {}, "instance-family In"),
    ([req("eks.amazonaws.com/instance-gpu-name", "Exists")], AUTO_MODE, "eks.amazonaws.com/instance-gpu-name"),
    ([req("karpenter.azure.com/sku-gpu-count", "Gt", "0")], NAP, "sku-gpu-count"),
    ([req("node.kubernetes.io/instance-type", "In", "Standard_NC24ads_A100_v4")], NAP, "Standard_NC24ads_A100_v4"),
]
NOT_GPU = [
    CPU,
    [req("karpenter.k8s.aws/instance-gpu-count", "In", "0")],
    [req("karpenter.k8s.aws/instance-gpu-count", "DoesNotExist")],
    [req("karpenter.k8s.aws/instance-gpu-name", "NotIn", "t4")],
    [req("karpenter.k8s.aws/instance-family", "In", "m5")],
    [req("karpenter.k8s.aws/instance-gpu-manufacturer", "In", "aws")],
    [],
]


@pytest.mark.parametrize(("requirements", "template", "why"), RECOGNISED, ids=[r[2] for r in RECOGNISED])
def test_gpu_nodepools_are_recognised_and_need_the_gpu_taint(
    requirements: list[dict[str, Any]], template: dict[str, Any], why: str
) -> None:
    found = messages(TAINT, [(NODE_POOL, node_pool(requirements, {**template, **NO_TAINT}))])
    assert len(found) == 1 and why in found[0], found
    assert "spec.template.spec.taints: GPU NodePool" in found[0]
    assert "Add {'key': 'nvidia.com/gpu', 'effect': 'NoSchedule', 'value': 'present'}" in found[0]
    assert messages(TAINT, [(NODE_POOL, node_pool(requirements, template))]) == []


@pytest.mark.parametrize("requirements", NOT_GPU)
def test_cpu_nodepools_are_left_alone(requirements: list[dict[str, Any]]) -> None:
    props = node_pool(requirements, NO_TAINT, limits=None, disruption=None)
    for policy in (TAINT, LIMIT, DISRUPTION, SERVED):
        assert messages(policy, [(NODE_POOL, props)]) == []


@pytest.mark.parametrize(
    ("props", "expected"),
    [
        (node_pool(template={"taints": [{**K8S_GPU_TAINT, "effect": "PreferNoSchedule"}]}), "'PreferNoSchedule'"),
        (node_pool(template={"taints": [{**K8S_GPU_TAINT, "effect": "NO_SCHEDULE"}]}), "taints[0].effect: 'NO_SCHED"),
        (node_pool(template={"taints": [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]}), "got ["),
        (node_pool(template={"taints": [{**K8S_GPU_TAINT, "value": "true"}]}), None),  # any value keeps pods off
    ],
)
def test_nodepool_taint_effect(props: dict[str, Any], expected: str | None) -> None:
    found = messages(TAINT, [(NODE_POOL, props)])
    assert (expected is None and found == []) or (expected is not None and expected in " ".join(found)), found


@pytest.mark.parametrize(
    ("priorities", "config", "expected"),
    [
        (None, {"taints": None}, "GKE taints its GPU nodes only in clusters that also have a non-GPU node pool"),
        ([{"machineType": "a3-highgpu-8g"}], {"taints": []}, "spec.priorities[0] a3-highgpu-8g"),
        ([{"machineFamily": "g2"}], {"taints": None}, "spec.priorities[0] g2"),
        (None, {}, None),
        ([{"machineFamily": "n2"}, {"machineType": "e2-standard-4"}], {"taints": None}, None),
    ],
)
def test_computeclass_gpu_taint(
    priorities: list[dict[str, Any]] | None, config: dict[str, Any], expected: str | None
) -> None:
    found = messages(TAINT, [(COMPUTE_CLASS, compute_class(priorities, **config))])
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1 and expected in found[0] and "spec.nodePoolConfig.taints" in found[0], found


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ({"limits": None}, "spec.limits: GPU NodePool (requirement node.kubernetes.io/instance-type In"),
        ({"limits": {"cpu": "1000"}}, "no nvidia.com/gpu limit"),
        ({"limits": {"nvidia.com/gpu": "lots"}}, "is not a quantity"),
        ({"limits": {"nvidia.com/gpu": 8}}, None),
        ({"limits": None, "replicas": 2}, None),  # a static NodePool: the count is fixed
    ],
)
def test_nodepool_gpu_limit(spec: dict[str, Any], expected: str | None) -> None:
    found = messages(LIMIT, [(NODE_POOL, node_pool(**spec))])
    assert (expected is None and found == []) or (expected is not None and expected in " ".join(found)), found
    assert messages(LIMIT, [(COMPUTE_CLASS, compute_class())]) == []  # a class has no limits


@pytest.mark.parametrize(
    ("disruption", "expected"),
    [
        (None, "not set (the default, 'WhenEmptyOrUnderutilized')"),
        ({"consolidationPolicy": "WhenEmptyOrUnderutilized", "consolidateAfter": "1h"}, "'WhenEmptyOrUnderutilized'"),
        ({"consolidationPolicy": "Balanced", "consolidateAfter": "0s"}, "'Balanced'"),
        ({"consolidateAfter": "0s", "budgets": [{"nodes": "0", "schedule": "0 9 * * *", "duration": "8h"}]}, "default"),
        ({"consolidateAfter": "0s", "budgets": [{"nodes": "1"}]}, "default"),
        ({"consolidateAfter": "0s", "budgets": [{"nodes": "0", "reasons": ["Drifted"]}]}, "default"),
        ({"consolidationPolicy": "WhenEmpty", "consolidateAfter": "10m"}, None),
        ({"consolidationPolicy": "WhenEmptyOrUnderutilized", "consolidateAfter": "Never"}, None),
        ({"consolidateAfter": "0s", "budgets": [{"nodes": "0"}]}, None),
        ({"consolidateAfter": "0s", "budgets": [{"nodes": "0%", "reasons": ["Underutilized", "Drifted"]}]}, None),
    ],
)
def test_nodepool_consolidation(disruption: dict[str, Any] | None, expected: str | None) -> None:
    found = messages(DISRUPTION, [(NODE_POOL, node_pool(disruption=disruption))])
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1 and expected in found[0] and "karpenter.sh/do-not-disrupt" in found[0], found


def test_static_nodepool_consolidation_is_ignored() -> None:
    assert messages(DISRUPTION, [(NODE_POOL, node_pool(disruption=None, replicas=2))]) == []


@pytest.mark.parametrize(
    ("stack", "expected"),
    [
        ([(NODE_POOL, node_pool())], "EKS NVIDIA AMIs ship the driver but no device plugin"),
        ([(NODE_POOL, node_pool(template=NAP, requirements=[req("karpenter.azure.com/sku-gpu-count", "Gt", "0")]))],
         "AKS installs the driver"),
        ([(NODE_POOL, node_pool()), (RELEASE, operator())], None),
        ([(NODE_POOL, node_pool()), (RELEASE, plugin())], None),  # its nodeSelector matches the template label
        ([(NODE_POOL, node_pool()), (RELEASE, plugin({"nodeSelector": {"team": "other"}}))], "nothing in this stack"),
        ([(NODE_POOL, node_pool(template=AUTO_MODE))], None),  # Auto Mode runs its own device plugin
        ([(COMPUTE_CLASS, compute_class())], None),  # GKE runs its own device plugin
        ([(COMPUTE_CLASS, compute_class(nodeLabels={"gke-no-default-nvidia-gpu-device-plugin": "true"}))],
         "nothing in this stack"),
    ],
)  # fmt: skip
def test_elastic_pools_are_served_by_a_gpu_stack(stack: list[tuple[str, dict[str, Any]]], expected: str | None) -> None:
    found = messages(SERVED, stack)
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1 and expected in found[0] and "GPU pool r0 (l4)" in found[0], found


def test_gpu_stack_tolerates_nodepool_taints() -> None:
    dedicated = {"key": "dedicated", "value": "ml", "effect": "NoSchedule"}
    pool = node_pool(template={"taints": [K8S_GPU_TAINT, dedicated]})
    found = messages(TOLERATED, [(NODE_POOL, pool), (RELEASE, plugin({"tolerations": [EXISTS]}))])
    assert any("does not tolerate taint dedicated=ml:NoSchedule of GPU pool(s) r0 (l4)" in m for m in found), found
    fixed = plugin({"tolerations": [EXISTS, {"key": "dedicated", "operator": "Exists"}]})
    assert messages(TOLERATED, [(NODE_POOL, pool), (RELEASE, fixed)]) == []


def test_the_provisioner_is_read_from_the_node_class() -> None:
    [auto] = elastic_pools(NODE_POOL, node_pool(template=AUTO_MODE))
    [nap] = elastic_pools(NODE_POOL, node_pool(template=NAP))
    [bare] = elastic_pools(NODE_POOL, node_pool(template={"nodeClassRef": None}))
    assert auto.title == "EKS Auto Mode"
    assert (auto.cloud, auto.provisioner) == ("eks", "eks-auto-mode")
    assert nap.title == "AKS node auto-provisioning" and (nap.cloud, nap.provisioner) == ("aks", "nap")
    assert bare.title == "" and bare.cloud == "eks"  # from the catalog's g6.xlarge
    assert bare.provisioner == ""
    assert bare.model is not None and bare.model.key == "l4"


OWNER = "gpu-stack-single-driver-owner"
OPT_OUT = {"nvidia.com/gpu.deploy.device-plugin": "false", "nvidia.com/gpu.present": "true"}


@pytest.mark.parametrize(
    ("stack", "expected"),
    [
        ([(NODE_POOL, node_pool(template=AUTO_MODE)), (RELEASE, operator())],
         "two device plugins: EKS Auto Mode's own NVIDIA device plugin already runs one"),
        ([(NODE_POOL, node_pool(template=AUTO_MODE)), (RELEASE, plugin())], "two device plugins"),
        ([(COMPUTE_CLASS, compute_class()), (RELEASE, operator())], "two device plugins: GKE's NVIDIA device plugin"),
        ([(NODE_POOL, {**node_pool(template=AUTO_MODE), "spec": {**node_pool(template=AUTO_MODE)["spec"],
           "template": {**node_pool(template=AUTO_MODE)["spec"]["template"], "metadata": {"labels": OPT_OUT}}}}),
          (RELEASE, operator())], None),  # the operator skips nodes labelled off
        ([(COMPUTE_CLASS, compute_class(nodeLabels=OPT_OUT)), (RELEASE, operator())], None),
        ([(NODE_POOL, node_pool()), (RELEASE, operator())], None),  # the driver is its EC2NodeClass's: not judged
        ([(NODE_POOL, node_pool(template=NAP)), (RELEASE, operator({"driver": {"enabled": False}}))], None),
    ],
)  # fmt: skip
def test_elastic_pools_have_one_device_plugin(stack: list[tuple[str, dict[str, Any]]], expected: str | None) -> None:
    found = messages(OWNER, stack)
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1 and expected in found[0], found
        assert "nvidia.com/gpu.deploy.device-plugin=false in its template labels" in found[0]
