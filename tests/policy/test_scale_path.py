"""The scale-path policies on any program's NodePools, workloads and ComputeClasses (issue #24), through the
analyzer: one row per finding, the upstream rule beside it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy.builders import AKS, COMPUTE_CLASS, EKS, GKE, NODE_POOL, aks, compute_class, eks, gke, node_pool
from tests.policy.harness import messages

LIMIT = "gpu-nodepool-limit-counts-reported-gpus"
DRA = "gpu-nodepool-not-dra"
DRA_GROUP = "gpu-dra-node-group-keeps-a-node"
WORKLOAD = "gpu-workload-requests-what-karpenter-makes"
SELECTED = "gpu-compute-class-selected"
DEPLOYMENT = "kubernetes:apps/v1:Deployment"
G6_12 = [{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["g6.12xlarge"]}]
P5 = [{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["p5.48xlarge"]}]


def _pool(
    requirements: list[dict[str, Any]] | None = None, labels: dict[str, str] | None = None, **spec: Any
) -> dict[str, Any]:
    """The builders' NodePool with extra template labels."""
    props = node_pool(requirements, **spec)
    props["spec"]["template"]["metadata"]["labels"].update(labels or {})
    return props


# kubernetes-sigs/karpenter v1.14.1 statenode.go L359-375 + scheduler.go L1069-1085: the limit is spent as nodes report
LIMITS: list[tuple[str, dict[str, Any], str]] = [
    ("time-sliced-physical-limit", _pool(G6_12, {
        "nvidia.com/device-plugin.config": "time-slicing-x4"}, limits={"nvidia.com/gpu": "16"}),
     "stops after 1 node(s) of the 4"),
    ("mps-physical-limit", _pool(None, {"nvidia.com/device-plugin.config": "mps-x2"},
                                     limits={"nvidia.com/gpu": "3"}), "stops after 2 node(s) of the 3"),
    ("mig-single-physical-limit", _pool(P5, {"nvidia.com/mig.config": "all-1g.10gb"},
                                            limits={"nvidia.com/gpu": "16"}), "stops after 1 node(s) of the 2"),
    ("time-sliced-reported-limit", _pool(G6_12, {
        "nvidia.com/device-plugin.config": "time-slicing-x4"}, limits={"nvidia.com/gpu": "64", "nodes": "4"}), ""),
    ("renamed-shares-report-none", _pool(G6_12, {
        "nvidia.com/device-plugin.config": "time-slicing-x4-renamed"}, limits={"nvidia.com/gpu": "16"}), ""),
    ("whole-gpus", node_pool(G6_12, limits={"nvidia.com/gpu": "16"}), ""),
]  # fmt: skip


@pytest.mark.parametrize(("props", "words"), [r[1:] for r in LIMITS], ids=[r[0] for r in LIMITS])
def test_a_limit_that_stops_a_shared_pool_early(props: dict[str, Any], words: str) -> None:
    found = messages(LIMIT, [(NODE_POOL, props)])
    assert (found != []) is (words != "")
    assert all(words in m and "statenode.go" in m for m in found), found


def test_a_dra_node_pool_is_refused() -> None:
    # kubernetes-sigs/karpenter v1.14.1 scheduler.go L583-586, options.go L133 (IGNORE_DRA_REQUESTS default true)
    found = messages(DRA, [(NODE_POOL, _pool(None, {"gpuready.io/advertise": "dra"}))])
    assert len(found) == 1 and "IGNORE_DRA_REQUESTS" in found[0]
    assert messages(DRA, [(NODE_POOL, node_pool())]) == []


def _deployment(resources: dict[str, Any], selector: dict[str, str], **pod: Any) -> dict[str, Any]:
    container = {"name": "c", "image": "x", "resources": resources}
    return {"spec": {"template": {"spec": {"nodeSelector": selector, "containers": [container], **pod}}}}


MIG = {"limits": {"nvidia.com/mig-1g.10gb": 1}, "requests": {"nvidia.com/mig-1g.10gb": 1}}
WHOLE = {"limits": {"nvidia.com/gpu": 1}, "requests": {"nvidia.com/gpu": 1}}
ON_NODE_POOL = {"karpenter.sh/nodepool": "h100"}
# aws/karpenter-provider-aws v1.14.1 types.go L336-349: instance types have nvidia.com/gpu only; DRA as above
WORKLOADS: list[tuple[str, dict[str, Any], str]] = [
    ("mig-on-a-node-pool", _deployment(MIG, ON_NODE_POOL), "requests nvidia.com/mig-1g.10gb on NodePool 'h100'"),
    ("shared-on-a-node-pool", _deployment({"limits": {"nvidia.com/gpu.shared": 1}}, ON_NODE_POOL),
     "nvidia.com/gpu.shared"),
    ("claim-on-a-node-pool", _deployment({"claims": [{"name": "gpus"}]}, ON_NODE_POOL,
                                         resourceClaims=[{"name": "gpus", "resourceClaimTemplateName": "t"}]),
     "ignores pods with ResourceClaims"),
    ("whole-gpu-on-a-node-pool", _deployment(WHOLE, ON_NODE_POOL), ""),
    ("mig-on-a-node-group", _deployment(MIG, {"gpuready.io/pool": "h100"}), ""),
]  # fmt: skip
OVERLAY_TYPE = "kubernetes:karpenter.sh/v1alpha1:NodeOverlay"
MIG_OVERLAY = {"spec": {"requirements": [{"key": "karpenter.sh/nodepool", "operator": "In", "values": ["l4"]}],
                        "capacity": {"nvidia.com/mig-1g.10gb": "56"}}}  # fmt: skip


@pytest.mark.parametrize(("props", "words"), [r[1:] for r in WORKLOADS], ids=[r[0] for r in WORKLOADS])
def test_pods_requesting_what_no_autoscaler_creates(props: dict[str, Any], words: str) -> None:
    found = messages(WORKLOAD, [(DEPLOYMENT, props)])
    assert (found != []) is (words != "")
    assert all(words in m for m in found), found


# GKE docs "About custom ComputeClasses": GKE creates a class's nodes only for pods that select it
CLASS_LABEL = "cloud.google.com/compute-class"
SELECTIONS: list[tuple[str, dict[str, str], bool]] = [
    ("selects-the-class-labels-only", {"gpuready.io/gpu-pool": "true"}, True),
    ("selects-the-class", {"gpuready.io/gpu-pool": "true", CLASS_LABEL: "l4"}, False),
    ("selects-something-else", {"team": "ml"}, False),
]


@pytest.mark.parametrize(("selector", "refused"), [r[1:] for r in SELECTIONS], ids=[r[0] for r in SELECTIONS])
def test_an_unselected_compute_class(selector: dict[str, str], refused: bool) -> None:
    found = messages(SELECTED, [(COMPUTE_CLASS, compute_class()), (DEPLOYMENT, _deployment(WHOLE, selector))])
    assert (found != []) is refused
    assert all(f"{CLASS_LABEL}: l4" in m for m in found), found


DRA_LABELS = {"nvidia.com/gpu.present": "true", "gpuready.io/advertise": "dra"}
# kubernetes/autoscaler@55c37cd docs/dra_support.md L70-73: no DRA scale-up from zero without the provider's support
DRA_GROUPS: list[tuple[str, str, dict[str, Any], str]] = [
    ("eks-at-zero", EKS, eks(labels=DRA_LABELS), "scalingConfig.minSize: 0"),
    ("eks-with-a-node", EKS, eks(labels=DRA_LABELS, scalingConfig={"minSize": 1, "maxSize": 2}), ""),
    ("eks-device-plugin-at-zero", EKS, eks(), ""),
    ("aks-at-zero", AKS, aks(nodeLabels=DRA_LABELS, enableAutoScaling=True, minCount=0, maxCount=2), "minCount: 0"),
    ("aks-fixed", AKS, aks(nodeLabels=DRA_LABELS), ""),
    (
        "gke-at-zero",
        GKE,
        {**gke(labels=DRA_LABELS), "autoscaling": {"minNodeCount": 0, "maxNodeCount": 2}},
        "autoscaling.minNodeCount: 0",
    ),
]


@pytest.mark.parametrize(("kind", "props", "words"), [r[1:] for r in DRA_GROUPS], ids=[r[0] for r in DRA_GROUPS])
def test_a_dra_node_group_at_zero(kind: str, props: dict[str, Any], words: str) -> None:
    found = messages(DRA_GROUP, [(kind, props)])
    assert (found != []) is (words != "")
    assert all(words in m and "dra_support.md" in m for m in found), found


@pytest.mark.parametrize(
    ("others", "words"),
    [([(NODE_POOL, node_pool())], "on NodePool 'l4'"), ([(NODE_POOL, node_pool()), (OVERLAY_TYPE, MIG_OVERLAY)], ""),
     ([], "")],
    ids=["by-the-node-pool-labels", "the-stack-adds-a-node-overlay", "no-node-pool"],
)  # fmt: skip
def test_a_pod_on_a_node_pool_by_its_labels(others: list[tuple[str, dict[str, Any]]], words: str) -> None:
    # the builders' NodePool carries gpuready.io/gpu-pool=true: a pod selecting it lands on the NodePool
    found = messages(WORKLOAD, [*others, (DEPLOYMENT, _deployment(MIG, {"gpuready.io/gpu-pool": "true"}))])
    assert (found != []) is (words != "")
    assert all(words in m for m in found), found
