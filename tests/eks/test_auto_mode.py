"""``provisioner: eks-auto-mode``: spec -> NodePool / NodeClass, table-driven, every emitted object validated
strictly (the NodePool against the upstream karpenter CRD, the NodeClass against the CRDs-catalog schema), and what
Auto Mode's own NVIDIA stack cannot do refused."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core import scheduling
from gpuready.core.capacity import registry
from gpuready.core.specs import GpuSharing, MigPartitioning
from gpuready.eks import auto_mode, karpenter
from gpuready.errors import SpecError
from tests.core.conftest import build_spec
from tests.crd_schemas import crd_problems, schema_problems, with_field
from tests.plan_diff.capacity_of import read_capacity

NODE_POOL_CRD = "karpenter-aws/karpenter.sh_nodepools.v1.14.1.yaml"
NODE_CLASS_SCHEMA = "crds-catalog/eks.amazonaws.com/nodeclass_v1.json"
WIRING = karpenter.KarpenterWiring(
    cluster_name="ml", node_role="arn:aws:iam::123456789012:role/AmazonEKSAutoNodeRole", subnet_ids=("subnet-a1",)
)

CASES: list[tuple[str, dict[str, Any], dict[str, str], str]] = [
    # id, spec fields, requirement key -> value, GPU limit
    (
        "g6-on-demand",
        {"instance_type": "g6.xlarge", "max_size": 4},
        {"node.kubernetes.io/instance-type": "g6.xlarge", "eks.amazonaws.com/instance-gpu-count": "1",
         "kubernetes.io/arch": "amd64", "karpenter.sh/capacity-type": "on-demand"},
        "4",
    ),
    (
        "g5-12xlarge-spot",
        {"instance_type": "g5.12xlarge", "max_size": 2, "capacity": "spot"},
        {"node.kubernetes.io/instance-type": "g5.12xlarge", "eks.amazonaws.com/instance-gpu-count": "4",
         "kubernetes.io/arch": "amd64", "karpenter.sh/capacity-type": "spot"},
        "8",
    ),
    (
        "g5g-arm",
        {"instance_type": "g5g.xlarge", "max_size": 3},
        {"node.kubernetes.io/instance-type": "g5g.xlarge", "eks.amazonaws.com/instance-gpu-count": "1",
         "kubernetes.io/arch": "arm64", "karpenter.sh/capacity-type": "on-demand"},
        "3",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("fields", "wanted", "limit"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_spec_to_node_pool_and_node_class(fields: dict[str, Any], wanted: dict[str, str], limit: str) -> None:
    spec = build_spec("eks", provisioner="eks-auto-mode", **fields)
    pool = auto_mode.node_pool(spec)
    template = pool["spec"]["template"]
    assert {r["key"]: r["values"] for r in template["spec"]["requirements"]} == {k: [v] for k, v in wanted.items()}
    assert template["spec"]["nodeClassRef"] == {"group": "eks.amazonaws.com", "kind": "NodeClass", "name": "gpu"}
    assert template["metadata"]["labels"] == scheduling.pool_labels(spec)
    assert template["spec"]["taints"][0] == {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
    assert pool["spec"]["limits"] == {"nvidia.com/gpu": limit, "nodes": str(spec.max_size)}
    node_class = auto_mode.node_class(spec, WIRING)
    assert (node_class["apiVersion"], node_class["kind"]) == ("eks.amazonaws.com/v1", "NodeClass")
    assert node_class["spec"] == {
        "role": "AmazonEKSAutoNodeRole",
        "subnetSelectorTerms": [{"id": "subnet-a1"}],
        "securityGroupSelectorTerms": [{"tags": {"aws:eks:cluster-name": "ml"}}],
        "ephemeralStorage": {"size": "200Gi"},  # capacity.node_disk.DEFAULT_GB, not Auto Mode's 80Gi
    }
    # Auto Mode caps a node's life at 21 days: the longest it allows, not Never; budgets by reason.
    assert (template["spec"]["expireAfter"], template["spec"]["terminationGracePeriod"]) == ("504h", "168h")
    assert [b["reasons"] for b in pool["spec"]["disruption"]["budgets"]] == [["Drifted"], ["Underutilized"], ["Empty"]]
    assert crd_problems(NODE_POOL_CRD, pool) == []
    assert schema_problems(NODE_CLASS_SCHEMA, node_class) == []


def test_disk_tags_and_security_groups_reach_the_node_class() -> None:
    spec = build_spec("eks", provisioner="eks-auto-mode", disk_size_gb=200)
    wiring = karpenter.KarpenterWiring(
        cluster_name="ml", node_role="nodes", subnet_ids=("subnet-a1",), security_group_ids=("sg-1",),
        tags={"team": "ml"},
    )  # fmt: skip
    node_class = auto_mode.node_class(spec, wiring)
    assert node_class["spec"]["ephemeralStorage"] == {"size": "200Gi"}
    assert node_class["spec"]["securityGroupSelectorTerms"] == [{"id": "sg-1"}]
    assert node_class["spec"]["tags"] == {"team": "ml"}
    assert schema_problems(NODE_CLASS_SCHEMA, node_class) == []


@pytest.mark.parametrize(("path", "bad_key"), [(("spec",), "amiSelectorTerms"), (("spec",), "subnetSelectors")])
def test_the_strict_schema_refuses_what_an_ec2nodeclass_has_but_a_nodeclass_not(
    path: tuple[str, ...], bad_key: str
) -> None:
    obj = with_field(auto_mode.node_class(build_spec("eks", provisioner="eks-auto-mode"), WIRING), path, bad_key)
    problems = schema_problems(NODE_CLASS_SCHEMA, obj)
    assert len(problems) == 1 and repr(bad_key) in problems[0]


def test_a_node_class_without_subnets_fails_the_schema() -> None:
    obj = auto_mode.node_class(build_spec("eks", provisioner="eks-auto-mode"), WIRING)
    del obj["spec"]["subnetSelectorTerms"]
    assert ["'subnetSelectorTerms' is a required property" in p for p in schema_problems(NODE_CLASS_SCHEMA, obj)] == [
        True
    ]


def test_the_registry_chooses_auto_mode_and_capacity_reads_the_pool_back() -> None:
    spec = build_spec("eks", provisioner="eks-auto-mode", instance_type="g5.12xlarge", max_size=3)
    chosen = registry.provisioner_for(spec)
    assert chosen is auto_mode.PROVISIONER
    assert chosen.bounds(spec).expected_nodes == 0 and chosen.summary(spec).max_gpus == 12
    found = read_capacity(chosen.pool_table.type, auto_mode.node_pool(spec))
    assert found is not None
    assert (found.accelerator, found.gpus_per_node, found.max_nodes) == (spec.resolved.gpu.model.key, 4, 3)
    assert read_capacity(chosen.pool_table.type, {"spec": {}}) is None


@pytest.mark.parametrize(
    ("fields", "path", "words"),
    [
        ({"min_size": 1}, "minSize", "must be 0 for an elastic pool"),
        ({"driver": "operator"}, "driver", "EKS Auto Mode installs and manages the NVIDIA driver"),
        ({"sharing": GpuSharing(mode="time-slicing", replicas=2)}, "sharing", "its own NVIDIA device plugin"),
        ({"instance_type": "p4d.24xlarge", "sharing": MigPartitioning(profile="1g.5gb")}, "sharing",
         "provisioner: karpenter"),
        ({"image": "bottlerocket"}, "image", "chooses the node image itself"),
        ({"release_version": "1.31.0-20250101"}, "releaseVersion", "not supported by the eks-auto-mode"),
        ({"labels": {"karpenter.sh/x": "y"}}, "labels['karpenter.sh/x']", "Karpenter refuses"),
        ({"image_version": "v20260714"}, "imageVersion", "its NodeClass has no image field"),
        ({"expire_after": "Never"}, "expireAfter", "longer than this provisioner lets a node live (504h)"),
        ({"expire_after": "600h"}, "expireAfter", "longer than this provisioner lets a node live (504h)"),
    ],
)  # fmt: skip
def test_what_auto_mode_cannot_do_is_refused(fields: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(SpecError) as raised:
        build_spec("eks", provisioner="eks-auto-mode", **fields)
    assert any(p.path == path and words in str(p) for p in raised.value.problems), raised.value.problems
