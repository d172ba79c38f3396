"""``EksKarpenterGpuPool`` under Pulumi's mock runtime: the NodePool and EC2NodeClass registered as custom resources
on the cluster's provider, exactly as the pure builder makes them, strictly valid against the upstream CRDs."""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_kubernetes as k8s
import pytest

from gpuready.core.capacity import node_overlay
from gpuready.core.scale_path.model import DEFAULT_CLUSTER, ClusterFacts
from gpuready.core.specs import GpuSharing, MigPartitioning
from gpuready.eks import karpenter
from gpuready.eks.karpenter_pool import EksKarpenterGpuPool, EksKarpenterGpuPoolArgs
from gpuready.errors import SpecError
from tests.core.conftest import build_spec
from tests.crd_schemas import crd_problems
from tests.pulumi_mocks import CapturingMonitor, runtime_test

COMPONENT = "gpuready:index:EksKarpenterGpuPool"
NODE_POOL = "kubernetes:karpenter.sh/v1:NodePool"
NODE_CLASS = "kubernetes:karpenter.k8s.aws/v1:EC2NodeClass"
ROLE_ARN = "arn:aws:iam::123456789012:role/gpu-nodes"


def build(spec: Any, *, security_group_ids: tuple[str, ...] = (), cluster: ClusterFacts = DEFAULT_CLUSTER) -> None:
    @runtime_test
    def program() -> None:
        provider = k8s.Provider("cluster", kubeconfig="{}")
        EksKarpenterGpuPool(
            "inference",
            EksKarpenterGpuPoolArgs(
                pool=spec, provider=provider, cluster_name="ml-cluster", node_role=ROLE_ARN,
                subnet_ids=pulumi.Output.from_input(["subnet-a", "subnet-b"]), security_group_ids=security_group_ids,
                cluster=cluster,
            ),
        )  # fmt: skip

    program()


def _object(registration: Any) -> dict[str, Any]:
    inputs = dict(registration.inputs)
    return {key: inputs[key] for key in ("apiVersion", "kind", "metadata", "spec")}


def test_the_pool_registers_the_builder_s_objects_on_the_cluster_provider(mocked: CapturingMonitor) -> None:
    spec = build_spec("eks", name="l4", instance_type="g6.12xlarge", max_size=3, provisioner="karpenter")
    build(spec)
    component = mocked.one(COMPONENT)
    pool, node_class = mocked.one(NODE_POOL), mocked.one(NODE_CLASS)
    assert {pool.parent, node_class.parent} == {component.urn}
    assert pool.provider.startswith("urn:") and "pulumi:providers:kubernetes::cluster" in pool.provider
    assert node_class.provider == pool.provider
    assert node_class.urn in pool.dependencies
    expected_pool = karpenter.node_pool(spec)
    assert _object(pool) == expected_pool
    assert pool.inputs["spec"]["limits"] == {"nvidia.com/gpu": "12", "nodes": "3"}
    wiring = karpenter.KarpenterWiring(
        cluster_name="ml-cluster", node_role=ROLE_ARN, subnet_ids=("subnet-a", "subnet-b")
    )
    assert _object(node_class) == karpenter.node_class(spec, wiring)
    assert node_class.inputs["spec"]["role"] == "gpu-nodes"
    for obj, crd in ((pool, "karpenter.sh_nodepools"), (node_class, "karpenter.k8s.aws_ec2nodeclasses")):
        assert crd_problems(f"karpenter-aws/{crd}.v1.14.1.yaml", _object(obj)) == []
    outputs = mocked.outputs_of(component)
    assert outputs["node_pool_name"] == "l4"
    assert outputs["node_labels"] == pool.inputs["spec"]["template"]["metadata"]["labels"]
    assert outputs["gpus_per_node"] == 4.0
    assert "elastic: Karpenter makes 0-3 nodes" in outputs["lifecycle"]


def test_security_groups_given_replace_the_cluster_group(mocked: CapturingMonitor) -> None:
    build(build_spec("eks", provisioner="karpenter"), security_group_ids=("sg-1",))
    assert mocked.one(NODE_CLASS).inputs["spec"]["securityGroupSelectorTerms"] == [{"id": "sg-1"}]


def test_a_node_group_spec_is_refused_before_anything_registers(mocked: CapturingMonitor) -> None:
    with pytest.raises(SpecError, match="provisioner: karpenter"):
        build(build_spec("eks"))
    assert mocked.of_type(COMPONENT) == [] and mocked.of_type(NODE_POOL) == []


NODE_OVERLAY = "kubernetes:karpenter.sh/v1alpha1:NodeOverlay"
OVERLAY_GATE = ClusterFacts(karpenter_feature_gates=frozenset({"NodeOverlay"}))


@pytest.mark.parametrize(
    ("sharing", "capacity"),
    [
        (MigPartitioning(profile="1g.10gb", strategy="mixed"), {"nvidia.com/mig-1g.10gb": "56"}),
        (GpuSharing(mode="time-slicing", replicas=4, rename_by_default=True), {"nvidia.com/gpu.shared": "32"}),
    ],
    ids=["mig-mixed", "renamed-time-slicing"],
)
def test_with_the_node_overlay_gate_the_pool_adds_its_node_overlay(
    mocked: CapturingMonitor, sharing: Any, capacity: dict[str, str]
) -> None:
    spec = build_spec("eks", name="h100", instance_type="p5.48xlarge", max_size=1, provisioner="karpenter",
                      sharing=sharing)  # fmt: skip
    build(spec, cluster=OVERLAY_GATE)
    overlay = mocked.one(NODE_OVERLAY)
    assert overlay.parent == mocked.one(COMPONENT).urn and overlay.provider == mocked.one(NODE_POOL).provider
    assert _object(overlay) == node_overlay.node_overlay(spec)
    assert overlay.inputs["spec"]["capacity"] == capacity
    assert overlay.inputs["spec"]["requirements"] == [
        {"key": "karpenter.sh/nodepool", "operator": "In", "values": ["h100"]}
    ]


def test_without_the_gate_or_the_need_no_node_overlay(mocked: CapturingMonitor) -> None:
    build(build_spec("eks", name="l4", instance_type="g6.12xlarge", max_size=3, provisioner="karpenter"),
          cluster=OVERLAY_GATE)  # fmt: skip
    assert [r for r in mocked.registrations if r.type == NODE_OVERLAY] == []
