"""The REAL stack program with an elastic pool: its custom resource goes on the stack's one Kubernetes provider,
made before the pools only when a pool needs it (a stack of fixed pools makes it where it always did)."""

from __future__ import annotations

import json

from tests.stacks.program_runs import config_bag, run_stack

PROVIDER = "pulumi:providers:kubernetes"
COMPUTE_CLASS = "kubernetes:cloud.google.com/v1:ComputeClass"
POOLS = [
    {"name": "l4-elastic", "instanceType": "g2-standard-8", "minSize": 0, "maxSize": 4, "provisioner": "compute-class",
     "capacity": "spot", "sharing": {"mode": "time-slicing", "replicas": 4}},
    {"name": "l4-fixed", "instanceType": "g2-standard-8", "minSize": 0, "maxSize": 2},
]  # fmt: skip


def test_a_compute_class_pool_lands_on_the_cluster_provider_beside_a_node_pool() -> None:
    config = config_bag("gke-dev", [f"gpuready:nodePools={json.dumps(POOLS)}"])
    run = run_stack("gke-dev", config)
    (provider,) = [r for r in run.resources if r.type == PROVIDER]
    (compute_class,) = [r for r in run.resources if r.type == COMPUTE_CLASS]
    assert compute_class.provider is not None and compute_class.provider.startswith(provider.urn)
    assert compute_class.inputs["metadata"] == {"name": "l4-elastic"}
    assert compute_class.inputs["spec"]["priorities"][0]["location"] == {"zones": ["us-central1-a"]}
    assert [r.name for r in run.resources if r.type == "gcp:container/nodePool:NodePool"] == ["l4-fixed-node-pool"]
    assert set(run.outputs["pools"]) == {"l4-elastic", "l4-fixed"}


def test_a_stack_of_fixed_pools_without_cluster_software_makes_no_provider() -> None:
    run = run_stack("gke-dev", config_bag("gke-dev"))
    assert [r for r in run.resources if r.type == PROVIDER] == []


def test_a_nap_pool_and_the_gpu_stack_share_the_one_provider() -> None:
    pools = [{"name": "t4nap", "instanceType": "Standard_NC4as_T4_v3", "minSize": 0, "maxSize": 3,
              "provisioner": "nap"}]  # fmt: skip
    run = run_stack("aks-dev", config_bag("aks-dev", [f"gpuready:nodePools={json.dumps(pools)}"]))
    (provider,) = [r for r in run.resources if r.type == PROVIDER]
    on_cluster = [r for r in run.resources if r.type.startswith("kubernetes:")]
    kinds = {r.type for r in on_cluster}
    assert {"kubernetes:karpenter.sh/v1:NodePool", "kubernetes:karpenter.azure.com/v1beta1:AKSNodeClass"} <= kinds
    assert all(r.provider is not None and r.provider.startswith(provider.urn) for r in on_cluster)


def test_a_karpenter_pool_is_built_by_the_stack_program_on_the_one_provider() -> None:
    pools = [{"name": "l4-karpenter", "instanceType": "g6.12xlarge", "minSize": 0, "maxSize": 2,
              "provisioner": "karpenter", "sharing": {"mode": "time-slicing", "replicas": 4}}]  # fmt: skip
    run = run_stack("eks-dev", config_bag("eks-dev", [f"gpuready:nodePools={json.dumps(pools)}"]))
    (provider,) = [r for r in run.resources if r.type == PROVIDER]
    (node_pool,) = [r for r in run.resources if r.type == "kubernetes:karpenter.sh/v1:NodePool"]
    (node_class,) = [r for r in run.resources if r.type == "kubernetes:karpenter.k8s.aws/v1:EC2NodeClass"]
    assert node_pool.provider is not None and node_pool.provider.startswith(provider.urn)
    assert node_class.provider is not None and node_class.provider.startswith(provider.urn)
    # maxSize 2 nodes, each reporting 4 GPUs x 4 shares (issue #24: the limit counts what nodes report)
    assert node_pool.inputs["spec"]["limits"] == {"nvidia.com/gpu": "32", "nodes": "2"}
    assert [r for r in run.resources if r.type == "aws:eks/nodeGroup:NodeGroup"] == []


def test_a_declared_node_overlay_gate_plans_a_mig_mixed_karpenter_pool_with_its_overlay() -> None:
    pools = [{"name": "h100-mixed", "instanceType": "p5.48xlarge", "maxSize": 1, "provisioner": "karpenter",
              "sharing": {"mode": "mig", "profile": "1g.10gb", "strategy": "mixed"}}]  # fmt: skip
    settings = [f"gpuready:nodePools={json.dumps(pools)}", 'gpuready:karpenterFeatureGates=["NodeOverlay"]']
    run = run_stack("eks-dev", config_bag("eks-dev", settings))
    (overlay,) = [r for r in run.resources if r.type == "kubernetes:karpenter.sh/v1alpha1:NodeOverlay"]
    assert overlay.inputs["spec"]["capacity"] == {"nvidia.com/mig-1g.10gb": "56"}
    (node_pool,) = [r for r in run.resources if r.type == "kubernetes:karpenter.sh/v1:NodePool"]
    assert overlay.provider == node_pool.provider
