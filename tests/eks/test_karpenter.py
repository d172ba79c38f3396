"""``provisioner: karpenter`` on EKS: spec -> NodePool / EC2NodeClass, table-driven, and every emitted object
validated strictly against the upstream CRDs (aws/karpenter-provider-aws v1.14.1): an unknown field fails."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core import scheduling
from gpuready.core.capacity import registry
from gpuready.core.capacity.karpenter_nodepool import NODE_POOL_TABLE
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.eks import karpenter
from gpuready.errors import SpecError
from tests.core.conftest import build_spec
from tests.crd_schemas import crd_problems
from tests.plan_diff.capacity_of import read_capacity

NODE_POOL_CRD = "karpenter-aws/karpenter.sh_nodepools.v1.14.1.yaml"
NODE_CLASS_CRD = "karpenter-aws/karpenter.k8s.aws_ec2nodeclasses.v1.14.1.yaml"
WIRING = karpenter.KarpenterWiring(
    cluster_name="ml", node_role="arn:aws:iam::123456789012:role/eks/gpu-nodes", subnet_ids=("subnet-a", "subnet-b")
)

GP3 = {"volumeType": "gp3", "encrypted": True}
STORAGE: dict[tuple[str, bool], dict[str, Any]] = {
    # (image family, a type with NVMe instance storage) -> blockDeviceMappings and instanceStorePolicy
    ("al2023", True): {
        "blockDeviceMappings": [{"deviceName": "/dev/xvda", "ebs": {"volumeSize": "200Gi", **GP3}, "rootVolume": True}],
        "instanceStorePolicy": "RAID0",
    },
    ("bottlerocket", False): {
        "blockDeviceMappings": [
            {"deviceName": "/dev/xvda", "ebs": {"volumeSize": "4Gi", **GP3}},
            {"deviceName": "/dev/xvdb", "ebs": {"volumeSize": "200Gi", **GP3}},
        ],
    },
}

CASES: list[tuple[str, dict[str, Any], dict[str, str], str, str]] = [
    # id, spec fields, requirement key -> value, GPU limit (in the units the nodes report), AMI alias
    (
        "g5-12xlarge-spot",
        {"instance_type": "g5.12xlarge", "max_size": 3, "capacity": "spot"},
        {
            "node.kubernetes.io/instance-type": "g5.12xlarge",
            "karpenter.k8s.aws/instance-gpu-count": "4",
            "kubernetes.io/arch": "amd64",
            "karpenter.sh/capacity-type": "spot",
        },
        "12",
        "al2023@v20260714",
    ),
    (
        "g5g-arm-bottlerocket",
        {"instance_type": "g5g.xlarge", "max_size": 5, "image": "bottlerocket"},
        {
            "node.kubernetes.io/instance-type": "g5g.xlarge",
            "karpenter.k8s.aws/instance-gpu-count": "1",
            "kubernetes.io/arch": "arm64",
            "karpenter.sh/capacity-type": "on-demand",
        },
        "5",
        "bottlerocket@v1.61.0",
    ),
    (
        "p4d-mig",
        {"instance_type": "p4d.24xlarge", "max_size": 2, "sharing": MigPartitioning(profile="1g.5gb")},
        {
            "node.kubernetes.io/instance-type": "p4d.24xlarge",
            "karpenter.k8s.aws/instance-gpu-count": "8",
            "kubernetes.io/arch": "amd64",
            "karpenter.sh/capacity-type": "on-demand",
        },
        "112",  # 2 nodes x 8 GPUs x 7 MIG devices, each reported as nvidia.com/gpu (MIG single)
        "al2023@v20260714",
    ),
    (
        "time-sliced-with-extra-taint",
        {
            "instance_type": "g6.xlarge",
            "max_size": 4,
            "sharing": GpuSharing(mode="time-slicing", replicas=4),
            "taints": (Taint(key="team", value="ml", effect="NoSchedule"),),
            "labels": {"example.com/team": "ml"},
        },
        {
            "node.kubernetes.io/instance-type": "g6.xlarge",
            "karpenter.k8s.aws/instance-gpu-count": "1",
            "kubernetes.io/arch": "amd64",
            "karpenter.sh/capacity-type": "on-demand",
        },
        "16",  # 4 nodes x 4 shares
        "al2023@v20260714",
    ),
]


@pytest.mark.parametrize(("fields", "wanted", "limit", "alias"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_spec_to_node_pool_and_node_class(
    fields: dict[str, Any], wanted: dict[str, str], limit: str, alias: str
) -> None:
    spec = build_spec("eks", provisioner="karpenter", **fields)
    pool = karpenter.node_pool(spec)
    assert (pool["apiVersion"], pool["kind"], pool["metadata"]) == ("karpenter.sh/v1", "NodePool", {"name": "gpu"})
    template = pool["spec"]["template"]
    assert {r["key"]: r["values"] for r in template["spec"]["requirements"]} == {k: [v] for k, v in wanted.items()}
    assert {r["operator"] for r in template["spec"]["requirements"]} == {"In"}
    # The nodes carry what node-group nodes carry: asked of scheduling, the one home of labels and taints.
    assert template["metadata"]["labels"] == scheduling.pool_labels(spec)
    assert template["spec"]["taints"] == [scheduling.to_k8s_taint(t) for t in scheduling.pool_taints(spec)]
    assert template["spec"]["taints"][0] == {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
    assert template["spec"]["nodeClassRef"] == {"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "gpu"}
    assert pool["spec"]["limits"] == {"nvidia.com/gpu": limit, "nodes": str(spec.max_size)}
    assert pool["spec"]["disruption"] == {
        "consolidationPolicy": "WhenEmpty",
        "consolidateAfter": "10m",
        "budgets": [
            {"nodes": "1", "reasons": ["Drifted"]},
            {"nodes": "0", "reasons": ["Underutilized"]},
            {"nodes": "1", "reasons": ["Empty"]},
        ],
    }
    assert (template["spec"]["expireAfter"], template["spec"]["terminationGracePeriod"]) == ("Never", "168h")
    node_class = karpenter.node_class(spec, WIRING)
    assert (node_class["apiVersion"], node_class["kind"]) == ("karpenter.k8s.aws/v1", "EC2NodeClass")
    storage = {k: v for k, v in node_class["spec"].items() if k in ("blockDeviceMappings", "instanceStorePolicy")}
    assert node_class["spec"] == {
        "role": "gpu-nodes",
        "amiSelectorTerms": [{"alias": alias}],
        "subnetSelectorTerms": [{"id": "subnet-a"}, {"id": "subnet-b"}],
        "securityGroupSelectorTerms": [{"tags": {"aws:eks:cluster-name": "ml"}}],
        **storage,
    }
    assert storage == STORAGE[alias.split("@", maxsplit=1)[0], fields["instance_type"] != "g5g.xlarge"]
    assert crd_problems(NODE_POOL_CRD, pool) == []
    assert crd_problems(NODE_CLASS_CRD, node_class) == []


def _case_spec(case_id: str) -> GpuPoolSpec:
    (fields,) = [c[1] for c in CASES if c[0] == case_id]
    return build_spec("eks", provisioner="karpenter", **fields)


def test_sharing_and_mig_labels_reach_the_template() -> None:
    sliced = karpenter.node_pool(_case_spec("time-sliced-with-extra-taint"))["spec"]["template"]["metadata"]["labels"]
    assert scheduling.LABEL_DEVICE_PLUGIN_CONFIG in sliced
    assert sliced["example.com/team"] == "ml"
    mig = karpenter.node_pool(_case_spec("p4d-mig"))["spec"]["template"]["metadata"]["labels"]
    assert scheduling.LABEL_MIG_CONFIG in mig


def test_node_class_wiring_security_groups_tags_and_role_names() -> None:
    spec = build_spec("eks", provisioner="karpenter")
    wiring = karpenter.KarpenterWiring(
        cluster_name="ml", node_role="gpu-nodes", subnet_ids=("subnet-a",), security_group_ids=("sg-1", "sg-2"),
        tags={"team": "ml"},
    )  # fmt: skip
    node_class = karpenter.node_class(spec, wiring)
    assert node_class["spec"]["role"] == "gpu-nodes"
    assert node_class["spec"]["securityGroupSelectorTerms"] == [{"id": "sg-1"}, {"id": "sg-2"}]
    assert node_class["spec"]["tags"] == {"team": "ml"}
    assert crd_problems(NODE_CLASS_CRD, node_class) == []


@pytest.mark.parametrize(
    ("crd", "path", "bad_key"),
    [
        (NODE_POOL_CRD, ("spec", "disruption"), "consolidationPolcy"),
        (NODE_POOL_CRD, ("spec", "template", "spec"), "taint"),
        (NODE_POOL_CRD, ("spec",), "limit"),
        (NODE_CLASS_CRD, ("spec",), "subnetSelectors"),
    ],
)
def test_strict_schemas_refuse_unknown_fields(crd: str, path: tuple[str, ...], bad_key: str) -> None:
    spec = build_spec("eks", provisioner="karpenter")
    obj = karpenter.node_pool(spec) if crd == NODE_POOL_CRD else karpenter.node_class(spec, WIRING)
    where = obj
    for key in path:
        where = where[key]
    where[bad_key] = "x"
    problems = crd_problems(crd, obj)
    assert len(problems) == 1
    assert problems[0].startswith(".".join(path)) and repr(bad_key) in problems[0]


def test_a_bad_enum_value_fails_the_schema_too() -> None:
    pool = karpenter.node_pool(build_spec("eks", provisioner="karpenter"))
    pool["spec"]["disruption"]["consolidationPolicy"] = "WhenIdle"
    assert [p.split(":")[0] for p in crd_problems(NODE_POOL_CRD, pool)] == ["spec.disruption.consolidationPolicy"]


def test_the_registry_chooses_karpenter_from_the_spec_and_its_summary_is_elastic() -> None:
    spec = build_spec("eks", provisioner="karpenter", instance_type="g5.12xlarge", max_size=3)
    chosen = registry.provisioner_for(spec)
    assert chosen is karpenter.PROVISIONER
    bounds = chosen.bounds(spec)
    assert (bounds.min, bounds.max, bounds.elastic, bounds.expected_nodes) == (0, 3, True, 0)
    assert chosen.summary(spec).max_gpus == 12 == karpenter.gpu_limit(spec)
    assert chosen.lifecycle(spec).table.type == "kubernetes:karpenter.sh/v1:NodePool"
    assert registry.provisioner_for(build_spec("eks")).key == "node-group"


def test_capacity_reads_a_planned_node_pool_back() -> None:
    spec = build_spec("eks", provisioner="karpenter", instance_type="g5.12xlarge", max_size=3)
    found = read_capacity(NODE_POOL_TABLE.type, karpenter.node_pool(spec))
    assert found is not None
    assert (found.accelerator, found.gpus_per_node, found.max_nodes, found.max_gpus) == ("a10g", 4, 3, 12)
    assert read_capacity(NODE_POOL_TABLE.type, {"spec": {"template": {"spec": {"requirements": []}}}}) is None


@pytest.mark.parametrize(
    ("fields", "path", "words"),
    [
        ({"min_size": 1}, "minSize", "must be 0 for an elastic pool"),
        ({"desired_size": 0}, "desiredSize", "an elastic pool has no desired size"),
        ({"name": "GPU_pool"}, "name", "lowercase DNS subdomain"),
        ({"disk_size_gb": 0}, "diskSizeGb", "must be between 1 and 16384"),
        ({"name": "g" * 64}, "name", "also a node label value, and a value must be at most 63 characters (got 64)"),
        ({"release_version": "1.31.0-20250101"}, "releaseVersion", "not supported by the karpenter provisioner"),
        ({"image_version": "20260714"}, "imageVersion", "is not an amazon-eks-ami release"),
        ({"image": "bottlerocket", "image_version": "v20260714"}, "imageVersion", "is not a Bottlerocket release"),
        ({"image": "bottlerocket", "image_version": "v1.61"}, "imageVersion", "is not a Bottlerocket release"),
        ({"image": "bottlerocket", "image_version": "v2.0.0"}, "imageVersion", "is not a Bottlerocket release"),
        ({"image": "bottlerocket", "image_version": "1.61.0-nvidia"}, "imageVersion", "e.g. imageVersion: v1.61.0"),
        ({"expire_after": "30d"}, "expireAfter", "is not a Karpenter lifetime"),
        ({"termination_grace_period": "Never"}, "terminationGracePeriod", "is not a duration"),
        ({"disruption_budgets": {"Expired": "1"}}, "disruptionBudgets['Expired']", "is not a Karpenter disruption"),
        ({"disruption_budgets": {"Drifted": "150%"}}, "disruptionBudgets['Drifted']", "not a node count"),
        ({"overrides": {"launchTemplate": {"id": "lt-1"}}}, "overrides", "not supported by the karpenter"),
        ({"fixed_name": True}, "fixedName", "not supported by the karpenter provisioner"),
        ({"labels": {"karpenter.sh/team": "ml"}}, "labels['karpenter.sh/team']", "Karpenter refuses this label"),
    ],
)
def test_what_karpenter_cannot_do_is_refused(fields: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(SpecError) as raised:
        build_spec("eks", provisioner="karpenter", **fields)
    assert any(p.path == path and words in str(p) for p in raised.value.problems), raised.value.problems


def test_the_63_character_bound_on_pool_names_is_the_node_pool_crds() -> None:
    longest = karpenter.node_pool(build_spec("eks", provisioner="karpenter", name="g" * 63))
    assert crd_problems(NODE_POOL_CRD, longest) == []
    one_more = karpenter.node_pool(build_spec("eks", provisioner="karpenter", name="g" * 63))
    one_more["spec"]["template"]["metadata"]["labels"][scheduling.LABEL_POOL] = "g" * 64
    assert any("spec.template.metadata.labels" in p for p in crd_problems(NODE_POOL_CRD, one_more))
