"""``provisioner: nap`` on AKS: spec -> NodePool / AKSNodeClass, table-driven, and every emitted object validated
strictly against the upstream CRDs (Azure/karpenter-provider-azure v1.14.2): an unknown field fails."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.aks import nap
from gpuready.core import scheduling
from gpuready.core.capacity import registry
from gpuready.core.specs import GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.errors import SpecError
from tests.core.conftest import build_spec
from tests.crd_schemas import crd_problems, with_field
from tests.plan_diff.capacity_of import read_capacity

NODE_POOL_CRD = "karpenter-azure/karpenter.sh_nodepools.v1.14.2.yaml"
NODE_CLASS_CRD = "karpenter-azure/karpenter.azure.com_aksnodeclasses.v1.14.2.yaml"

CASES: list[tuple[str, dict[str, Any], dict[str, str], str, dict[str, Any]]] = [
    # id, spec fields, requirement key -> value, GPU limit, AKSNodeClass spec
    (
        "t4-on-demand",
        {"instance_type": "Standard_NC4as_T4_v3", "max_size": 3},
        {
            "node.kubernetes.io/instance-type": "Standard_NC4as_T4_v3",
            "karpenter.azure.com/sku-gpu-count": "1",
            "kubernetes.io/arch": "amd64",
            "karpenter.sh/capacity-type": "on-demand",
        },
        "3",
        {"imageFamily": "Ubuntu", "gpu": {"mode": "Driver"}, "osDiskSizeGB": 200},
    ),
    (
        "a100-spot-azurelinux-disk",
        {"instance_type": "Standard_NC48ads_A100_v4", "max_size": 2, "capacity": "spot", "image": "azurelinux",
         "disk_size_gb": 256},
        {
            "node.kubernetes.io/instance-type": "Standard_NC48ads_A100_v4",
            "karpenter.azure.com/sku-gpu-count": "2",
            "kubernetes.io/arch": "amd64",
            "karpenter.sh/capacity-type": "spot",
        },
        "4",
        {"imageFamily": "AzureLinux", "gpu": {"mode": "Driver"}, "osDiskSizeGB": 256},
    ),
    (
        "mig-by-the-operator",
        {"instance_type": "Standard_NC24ads_A100_v4", "max_size": 4, "driver": "operator",
         "sharing": MigPartitioning(profile="1g.10gb")},
        {
            "node.kubernetes.io/instance-type": "Standard_NC24ads_A100_v4",
            "karpenter.azure.com/sku-gpu-count": "1",
            "kubernetes.io/arch": "amd64",
            "karpenter.sh/capacity-type": "on-demand",
        },
        "28",  # 4 nodes x 7 MIG devices, each reported as nvidia.com/gpu
        {"imageFamily": "Ubuntu", "gpu": {"mode": "None"}, "osDiskSizeGB": 200},
    ),
    (
        "time-sliced-extra-taint",
        {"instance_type": "Standard_NC8as_T4_v3", "max_size": 5, "sharing": GpuSharing(mode="time-slicing", replicas=4),
         "taints": (Taint(key="team", value="ml", effect="NoSchedule"),), "labels": {"example.com/team": "ml"}},
        {
            "node.kubernetes.io/instance-type": "Standard_NC8as_T4_v3",
            "karpenter.azure.com/sku-gpu-count": "1",
            "kubernetes.io/arch": "amd64",
            "karpenter.sh/capacity-type": "on-demand",
        },
        "20",  # 5 nodes x 4 shares
        {"imageFamily": "Ubuntu", "gpu": {"mode": "Driver"}, "osDiskSizeGB": 200},
    ),
]  # fmt: skip


@pytest.mark.parametrize(("fields", "wanted", "limit", "class_spec"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_spec_to_node_pool_and_node_class(
    fields: dict[str, Any], wanted: dict[str, str], limit: str, class_spec: dict[str, Any]
) -> None:
    spec = build_spec("aks", provisioner="nap", **fields)
    pool = nap.node_pool(spec)
    assert (pool["apiVersion"], pool["kind"], pool["metadata"]) == ("karpenter.sh/v1", "NodePool", {"name": "gpu"})
    template = pool["spec"]["template"]
    assert {r["key"]: r["values"] for r in template["spec"]["requirements"]} == {k: [v] for k, v in wanted.items()}
    assert template["metadata"]["labels"] == scheduling.pool_labels(spec)
    assert template["spec"]["taints"] == [scheduling.to_k8s_taint(t) for t in scheduling.pool_taints(spec)]
    assert template["spec"]["taints"][0] == {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
    assert template["spec"]["nodeClassRef"] == {"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "gpu"}
    assert pool["spec"]["limits"] == {"nvidia.com/gpu": limit, "nodes": str(spec.max_size)}
    assert pool["spec"]["disruption"]["consolidationPolicy"] == "WhenEmpty"
    assert (template["spec"]["expireAfter"], template["spec"]["terminationGracePeriod"]) == ("Never", "168h")
    node_class = nap.node_class(spec)
    assert (node_class["apiVersion"], node_class["kind"]) == ("karpenter.azure.com/v1beta1", "AKSNodeClass")
    assert node_class["spec"] == class_spec
    assert crd_problems(NODE_POOL_CRD, pool) == []
    assert crd_problems(NODE_CLASS_CRD, node_class) == []


def test_sharing_and_mig_labels_reach_the_template() -> None:
    (sliced,) = [c[1] for c in CASES if c[0] == "time-sliced-extra-taint"]
    labels = nap.node_pool(build_spec("aks", provisioner="nap", **sliced))["spec"]["template"]["metadata"]["labels"]
    assert scheduling.LABEL_DEVICE_PLUGIN_CONFIG in labels and labels["example.com/team"] == "ml"
    (mig,) = [c[1] for c in CASES if c[0] == "mig-by-the-operator"]
    labels = nap.node_pool(build_spec("aks", provisioner="nap", **mig))["spec"]["template"]["metadata"]["labels"]
    assert scheduling.LABEL_MIG_CONFIG in labels


def test_tags_reach_the_node_class() -> None:
    node_class = nap.node_class(build_spec("aks", provisioner="nap"), {"team": "ml"})
    assert node_class["spec"]["tags"] == {"team": "ml"}
    assert crd_problems(NODE_CLASS_CRD, node_class) == []


@pytest.mark.parametrize(
    ("crd", "path", "bad_key"),
    [
        (NODE_POOL_CRD, ("spec", "disruption"), "consolidationPolcy"),
        (NODE_POOL_CRD, ("spec", "template", "spec"), "taint"),
        (NODE_CLASS_CRD, ("spec",), "imagefamily"),
        (NODE_CLASS_CRD, ("spec", "gpu"), "driver"),
    ],
)
def test_strict_schemas_refuse_unknown_fields(crd: str, path: tuple[str, ...], bad_key: str) -> None:
    spec = build_spec("aks", provisioner="nap")
    obj = with_field(nap.node_pool(spec) if crd == NODE_POOL_CRD else nap.node_class(spec), path, bad_key)
    problems = crd_problems(crd, obj)
    assert len(problems) == 1
    assert problems[0].startswith(".".join(path)) and repr(bad_key) in problems[0]


def test_an_os_disk_outside_the_crd_range_fails_the_schema() -> None:
    node_class = nap.node_class(build_spec("aks", provisioner="nap"))
    node_class["spec"]["osDiskSizeGB"] = 4096
    assert [p.split(":")[0] for p in crd_problems(NODE_CLASS_CRD, node_class)] == ["spec.osDiskSizeGB"]


def test_the_registry_chooses_nap_and_capacity_reads_the_pool_back() -> None:
    spec = build_spec("aks", provisioner="nap", instance_type="Standard_NC48ads_A100_v4", max_size=3)
    chosen = registry.provisioner_for(spec)
    assert chosen is nap.PROVISIONER
    assert chosen.bounds(spec).expected_nodes == 0 and chosen.summary(spec).max_gpus == 6
    found = read_capacity(chosen.pool_table.type, nap.node_pool(spec))
    assert found is not None
    assert (found.accelerator, found.gpus_per_node, found.max_nodes) == (spec.resolved.gpu.model.key, 2, 3)
    assert read_capacity(chosen.pool_table.type, {"spec": {}}) is None
    assert registry.provisioner_for(build_spec("aks")).key == "node-pool"


@pytest.mark.parametrize(
    ("fields", "path", "words"),
    [
        ({"min_size": 1}, "minSize", "must be 0 for an elastic pool"),
        ({"desired_size": 0}, "desiredSize", "an elastic pool has no desired size"),
        ({"name": "GPU_pool"}, "name", "names the NodePool"),
        ({"name": "g" * 64}, "name", "a value must be at most 63 characters (got 64)"),
        ({"instance_type": "Standard_NC24ads_A100_v4", "sharing": MigPartitioning(profile="1g.10gb")}, "driver",
         "AKS partitions MIG GPUs only in agent pools"),
        ({"labels": {"karpenter.azure.com/team": "ml"}}, "labels['karpenter.azure.com/team']", "Karpenter refuses"),
        ({"zones": ("1",)}, "zones", "not supported by the nap provisioner"),
        ({"fixed_name": True}, "fixedName", "not supported by the nap provisioner"),
        ({"disk_size_gb": 20}, "diskSizeGb", "outside what AKSNodeClass osDiskSizeGB takes (at least 30)"),
        ({"image_version": "202607.14.0"}, "imageVersion", "an AKSNodeClass has no image version field"),
        ({"disruption_budgets": {"Drifted": "-1"}}, "disruptionBudgets['Drifted']", "not a node count"),
    ],
)  # fmt: skip
def test_what_nap_cannot_do_is_refused(fields: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(SpecError) as raised:
        build_spec("aks", provisioner="nap", **fields)
    assert any(p.path == path and words in str(p) for p in raised.value.problems), raised.value.problems


@pytest.mark.parametrize(
    ("driver", "summary"),
    [("cloud", "AKS (AKSNodeClass gpu.mode=Driver)"), ("operator", "GPU Operator (AKSNodeClass gpu.mode=None)")],
)
def test_the_driver_summary_names_the_node_class_gpu_mode(driver: str, summary: str) -> None:
    spec = build_spec("aks", provisioner="nap", driver=driver)
    assert nap.driver_summary(spec) == summary
    assert nap.node_class(spec)["spec"]["gpu"]["mode"] in summary
