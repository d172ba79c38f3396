"""``provisioner: compute-class`` on GKE: spec -> ComputeClass, table-driven, every emitted object validated strictly
against the upstream schema (datreeio/CRDs-catalog ``cloud.google.com/computeclass_v1.json``): an unknown field
fails."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core import scheduling
from gpuready.core.capacity import registry
from gpuready.core.pool_summary import pool_outputs
from gpuready.core.specs import GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.core.workload import gpu_workload
from gpuready.errors import SpecError
from gpuready.gke import compute_class
from tests.core.conftest import build_spec
from tests.crd_schemas import schema_problems, with_field
from tests.plan_diff.capacity_of import read_capacity

SCHEMA = "crds-catalog/cloud.google.com/computeclass_v1.json"
GPU_TAINT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}

CASES: list[tuple[str, dict[str, Any], dict[str, Any], list[bool]]] = [
    # id, spec fields, the priority's gpu, spot flags in priority order
    (
        "l4-on-demand",
        {"instance_type": "g2-standard-4", "max_size": 3},
        {"type": "nvidia-l4", "count": 1, "driverVersion": "default"},
        [False],
    ),
    (
        "a100-spot-falls-back-to-on-demand-latest-driver",
        {"instance_type": "a2-highgpu-2g", "max_size": 2, "capacity": "spot", "driver_version": "latest"},
        {"type": "nvidia-tesla-a100", "count": 2, "driverVersion": "latest"},
        [True, False],
    ),
    (
        "time-sliced",
        {"instance_type": "g2-standard-4", "max_size": 4, "sharing": GpuSharing(mode="time-slicing", replicas=4)},
        {
            "type": "nvidia-l4",
            "count": 1,
            "driverVersion": "default",
            "gpuSharing": {"sharingStrategy": "TIME_SHARING", "maxSharedClientsPerGPU": 4},
        },
        [False],
    ),
    (
        "mps",
        {"instance_type": "g2-standard-4", "max_size": 1, "sharing": GpuSharing(mode="mps", replicas=2)},
        {
            "type": "nvidia-l4",
            "count": 1,
            "driverVersion": "default",
            "gpuSharing": {"sharingStrategy": "MPS", "maxSharedClientsPerGPU": 2},
        },
        [False],
    ),
    (
        "mig-one-profile",
        {"instance_type": "a2-highgpu-1g", "max_size": 2, "sharing": MigPartitioning(profile="1g.5gb")},
        {
            "type": "nvidia-tesla-a100",
            "count": 1,
            "driverVersion": "default",
            "gpuSharing": {"gpuPartitionSize": "1g.5gb"},
        },
        [False],
    ),
]


@pytest.mark.parametrize(("fields", "gpu", "spots"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_spec_to_compute_class(fields: dict[str, Any], gpu: dict[str, Any], spots: list[bool]) -> None:
    spec = build_spec("gke", provisioner="compute-class", **fields)
    obj = compute_class.compute_class(spec)
    assert (obj["apiVersion"], obj["kind"], obj["metadata"]) == ("cloud.google.com/v1", "ComputeClass", {"name": "gpu"})
    body = obj["spec"]
    assert [p["spot"] for p in body["priorities"]] == spots
    assert all(p["gpu"] == gpu and p["machineType"] == spec.instance_type for p in body["priorities"])
    assert body["nodePoolAutoCreation"] == {"enabled": True}
    assert body["whenUnsatisfiable"] == "DoNotScaleUp"
    config = body["nodePoolConfig"]
    assert config["imageType"] == "cos_containerd"
    # The nodes carry what node-pool nodes carry: asked of scheduling, the one home of labels and taints.
    assert config["nodeLabels"] == scheduling.pool_labels(spec)
    assert config["taints"] == [scheduling.to_k8s_taint(t) for t in scheduling.pool_taints(spec)]
    assert config["taints"][0] == GPU_TAINT
    assert "serviceAccount" not in config
    # capacity.node_disk.DEFAULT_GB on every priority's boot disk, not the node pool's 100 GB
    assert all(p["storage"] == {"bootDiskSize": 200} for p in body["priorities"])
    assert schema_problems(SCHEMA, obj) == []


@pytest.mark.parametrize(
    ("fields", "stack_zones", "words"),
    [
        ({}, (), "names no zones: GKE may try every zone of the cluster's region"),
        ({"zones": ("us-central1-a",)}, (), "whether its zones (us-central1-a) offer nvidia-l4 is not checked"),
        ({}, ("us-central1-b", "us-central1-c"), "whether its zones (us-central1-b, us-central1-c) offer nvidia-l4"),
    ],
)
def test_the_plan_warns_that_the_class_zones_are_not_checked_for_the_gpu(
    fields: dict[str, Any], stack_zones: tuple[str, ...], words: str
) -> None:
    """GKE has no offline data of GPU types per zone (``GkeProfile.offerings_unchecked``): warned, never narrowed."""
    spec = build_spec("gke", provisioner="compute-class", instance_type="g2-standard-4", **fields)
    warning = compute_class.zone_warning(spec, stack_zones)
    assert words in warning and "gcloud compute accelerator-types list --filter=name=nvidia-l4" in warning


def test_zones_disk_image_extra_taint_labels_and_service_account() -> None:
    spec = build_spec(
        "gke", provisioner="compute-class", image="ubuntu", zones=("us-central1-a", "us-central1-b"),
        disk_size_gb=200, taints=(Taint(key="team", value="mlteam", effect="NoSchedule"),),
        labels={"example.com/team": "ml"},
    )  # fmt: skip
    obj = compute_class.compute_class(spec, service_account="nodes@p.iam.gserviceaccount.com")
    (priority,) = obj["spec"]["priorities"]
    assert priority["location"] == {"zones": ["us-central1-a", "us-central1-b"]}
    assert priority["storage"] == {"bootDiskSize": 200}
    config = obj["spec"]["nodePoolConfig"]
    assert config["imageType"] == "ubuntu_containerd"
    assert config["serviceAccount"] == "nodes@p.iam.gserviceaccount.com"
    assert config["nodeLabels"]["example.com/team"] == "ml"
    assert {"key": "team", "value": "mlteam", "effect": "NoSchedule"} in config["taints"]
    assert schema_problems(SCHEMA, obj) == []


@pytest.mark.parametrize(
    ("path", "bad_key"),
    [(("spec",), "priority"), (("spec", "nodePoolConfig"), "labels"), (("spec", "nodePoolAutoCreation"), "enable")],
)
def test_the_strict_schema_refuses_unknown_fields(path: tuple[str, ...], bad_key: str) -> None:
    obj = with_field(compute_class.compute_class(build_spec("gke", provisioner="compute-class")), path, bad_key)
    problems = schema_problems(SCHEMA, obj)
    assert len(problems) == 1
    assert problems[0].startswith(".".join(path)) and repr(bad_key) in problems[0]


def test_a_bad_enum_value_fails_the_schema_too() -> None:
    obj = compute_class.compute_class(build_spec("gke", provisioner="compute-class"))
    obj["spec"]["priorities"][0]["gpu"]["driverVersion"] = "INSTALLATION_DISABLED"
    assert [p.split(":")[0] for p in schema_problems(SCHEMA, obj)] == ["spec.priorities.0.gpu.driverVersion"]


def test_the_registry_chooses_the_compute_class_and_its_summary_is_elastic() -> None:
    spec = build_spec("gke", provisioner="compute-class", instance_type="a2-highgpu-2g", max_size=3)
    chosen = registry.provisioner_for(spec)
    assert chosen is compute_class.PROVISIONER
    bounds = chosen.bounds(spec)
    assert (bounds.min, bounds.max, bounds.elastic, bounds.expected_nodes) == (0, 3, True, 0)
    assert chosen.summary(spec).max_gpus == 6
    assert chosen.lifecycle(spec).table.type == "kubernetes:cloud.google.com/v1:ComputeClass"
    assert registry.provisioner_for(build_spec("gke")).key == "node-pool"


def test_capacity_reads_a_planned_compute_class_back() -> None:
    spec = build_spec("gke", provisioner="compute-class", instance_type="a2-highgpu-2g", capacity="spot")
    found = read_capacity(compute_class.COMPUTE_CLASS.type, compute_class.compute_class(spec))
    assert found is not None
    assert (found.accelerator, found.gpus_per_node, found.max_nodes) == (spec.resolved.gpu.model.key, 2, None)
    assert read_capacity(compute_class.COMPUTE_CLASS.type, {"spec": {"priorities": []}}) is None
    assert read_capacity(compute_class.COMPUTE_CLASS.type, {"spec": {"priorities": [{"machineType": "n9-x"}]}}) is None


@pytest.mark.parametrize(
    ("fields", "path", "words"),
    [
        ({"min_size": 1}, "minSize", "must be 0 for an elastic pool"),
        ({"desired_size": 0}, "desiredSize", "an elastic pool has no desired size"),
        ({"name": "GPU_pool"}, "name", "names the ComputeClass"),
        ({"name": "g" * 64}, "name", "a value must be at most 63 characters (got 64)"),
        ({"driver": "operator"}, "driver", "no INSTALLATION_DISABLED"),
        ({"instance_type": "a2-highgpu-1g", "sharing": MigPartitioning(layout="all-balanced")}, "sharing.layout",
         "one size (gpuPartitionSize)"),
        ({"overrides": {"placementPolicy": {"type": "COMPACT"}}}, "overrides", "not supported by the compute-class"),
        ({"taints": (Taint(key="team", value="ml", effect="NoSchedule"),)}, "taints[0].value", "1 or 3-63 characters"),
        ({"fixed_name": True}, "fixedName", "not supported by the compute-class provisioner"),
        ({"image_version": "1.33.5-gke.100"}, "imageVersion", "a ComputeClass has no image version field"),
        ({"expire_after": "720h"}, "expireAfter", "only a Karpenter NodePool has it (no provisioner on GKE makes one)"),
        ({"disruption_budgets": {"Drifted": "1"}}, "disruptionBudgets", "not supported by the compute-class"),
        ({"disk_size_gb": 5}, "diskSizeGb", "must be at least 10 GB"),
    ],
)  # fmt: skip
def test_what_a_compute_class_cannot_do_is_refused(fields: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(SpecError) as raised:
        build_spec("gke", provisioner="compute-class", **fields)
    assert any(p.path == path and words in str(p) for p in raised.value.problems), raised.value.problems


@pytest.mark.parametrize(("fields", "branch"), [({}, "default"), ({"driver_version": "latest"}, "latest")])
def test_the_driver_summary_names_the_class_driver_branch(fields: dict[str, Any], branch: str) -> None:
    spec = build_spec("gke", provisioner="compute-class", **fields)
    assert compute_class.driver_summary(spec) == f"GKE (ComputeClass driverVersion={branch})"
    assert compute_class.compute_class(spec)["spec"]["priorities"][0]["gpu"]["driverVersion"] == branch


def test_the_schema_cel_rules_are_evaluated_on_the_class() -> None:
    """A negative control for the CEL rules: a priority naming a machine family beside its machine type breaks the
    schema's ``!(has(self.machineFamily) && has(self.machineType))``, which no structural check catches."""
    obj = compute_class.compute_class(build_spec("gke", provisioner="compute-class"))
    assert schema_problems(SCHEMA, obj) == []
    obj["spec"]["priorities"][0]["machineFamily"] = "g2"
    problems = schema_problems(SCHEMA, obj)
    assert len(problems) == 1 and problems[0].startswith("spec.priorities[0]:"), problems


def test_pods_select_the_class_and_tolerate_its_taint() -> None:
    # GKE docs, "About custom ComputeClasses": GKE creates a class's nodes only for pods that select it, tainted
    # cloud.google.com/compute-class=<class>:NoSchedule (issue #24: nothing selected the class before).
    spec = build_spec("gke", name="l4", provisioner="compute-class", instance_type="g2-standard-8")
    selected = {scheduling.LABEL_POOL: "l4", "cloud.google.com/compute-class": "l4"}
    toleration = {"key": "cloud.google.com/compute-class", "operator": "Exists", "effect": "NoSchedule"}
    pod = gpu_workload(spec).pod_spec()
    assert pod["nodeSelector"] == selected
    assert toleration in pod["tolerations"]
    outputs = pool_outputs(spec, driver="d", lifecycle="l")
    assert outputs.node_selector == selected and toleration in outputs.tolerations
    assert outputs.scales == "yes 0->2 nodes"
    node_pool = build_spec("gke", name="l4", instance_type="g2-standard-8")  # a node pool is selected by its label
    assert gpu_workload(node_pool).pod_spec()["nodeSelector"] == {scheduling.LABEL_POOL: "l4"}
