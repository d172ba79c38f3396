"""The Kueue objects of a stack's pools (issue #28), each validated strictly against Kueue v0.19.2's CRDs with their
CEL rules, and the ProvisioningRequest class against the cluster-autoscaler's ProvisioningRequest CRD."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from gpuready.core.capacity.registry import provisioners
from gpuready.core.health.repair import RepairPolicy
from gpuready.core.kueue.objects import KueueSpec, flavored, kueue_objects, problems
from gpuready.core.specs import GpuPoolSpec, GpuSharing
from gpuready.core.stack_settings import parse_stack_settings
from tests.core.conftest import build_spec
from tests.crd_schemas import crd_problems, crd_schema

CRDS = {
    "ResourceFlavor": "kueue/kueue.x-k8s.io_resourceflavors.v0.19.2.yaml",
    "ProvisioningRequestConfig": "kueue/kueue.x-k8s.io_provisioningrequestconfigs.v0.19.2.yaml",
    "AdmissionCheck": "kueue/kueue.x-k8s.io_admissionchecks.v0.19.2.yaml",
}
PROVISIONING_REQUEST = "cluster-autoscaler/autoscaling.x-k8s.io_provisioningrequests.1.34.5.yaml"
OFF = RepairPolicy(enabled=False)


def pools() -> tuple[GpuPoolSpec, ...]:
    return (
        build_spec("gke", name="train", instance_type="a3-highgpu-8g", capacity="queued", repair=OFF),
        build_spec("gke", name="burst", instance_type="a3-highgpu-8g", capacity="flex-start", repair=OFF,
                   sharing=GpuSharing(mode="time-slicing", replicas=2)),
        build_spec("gke", name="serve", instance_type="g2-standard-8"),
    )  # fmt: skip


def test_a_queued_pool_gets_a_flavor_a_config_and_a_check_and_a_flex_start_pool_a_flavor() -> None:
    objects = kueue_objects(pools(), KueueSpec())
    assert list(objects) == [
        "resourceflavor-train",
        "provisioningrequestconfig-train",
        "admissioncheck-train",
        "resourceflavor-burst",
    ]
    flavor = objects["resourceflavor-train"]["spec"]
    assert flavor["nodeLabels"] == {"gpuready.io/pool": "train"}
    assert {"key": "cloud.google.com/gke-queued", "operator": "Exists", "effect": "NoSchedule"} in flavor["tolerations"]
    assert {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"} in flavor["tolerations"]
    config = objects["provisioningrequestconfig-train"]["spec"]
    assert config == {"provisioningClassName": "queued-provisioning.gke.io", "managedResources": ["nvidia.com/gpu"]}
    check = objects["admissioncheck-train"]["spec"]
    assert check["controllerName"] == "kueue.x-k8s.io/provisioning-request"
    assert check["parameters"] == {"apiGroup": "kueue.x-k8s.io", "kind": "ProvisioningRequestConfig", "name": "train"}
    burst = objects["resourceflavor-burst"]["spec"]
    assert {"key": "cloud.google.com/gke-queued", "operator": "Exists", "effect": "NoSchedule"} not in burst[
        "tolerations"
    ]


@pytest.mark.parametrize(("choice", "names"), [("queued", ["train", "burst"]), ("all", ["train", "burst", "serve"]),
                                               ("none", [])])  # fmt: skip
def test_the_stack_key_chooses_the_flavored_pools(choice: Any, names: list[str]) -> None:
    assert [pool.name for pool in flavored(pools(), KueueSpec(flavors=choice))] == names


@pytest.mark.parametrize("choice", ["queued", "all"])
def test_every_object_passes_its_strict_crd_with_cel(choice: Any) -> None:
    eks = build_spec("eks", name="inference")
    objects = kueue_objects((*pools(), eks), KueueSpec(flavors=choice))
    assert objects
    for key, obj in objects.items():
        assert crd_problems(CRDS[obj["kind"]], obj) == [], key


def test_the_crd_check_catches_an_unknown_field() -> None:
    obj = kueue_objects(pools(), KueueSpec())["resourceflavor-train"]
    obj["spec"]["nodeSelector"] = {"a": "b"}
    assert crd_problems(CRDS["ResourceFlavor"], obj)


def test_every_provisioning_class_is_one_the_provisioning_request_crd_takes() -> None:
    classes = [p.provisioning_class for p in provisioners() if p.provisioning_class is not None]
    assert classes == ["queued-provisioning.gke.io"]
    field = crd_schema(PROVISIONING_REQUEST, "autoscaling.x-k8s.io/v1")["properties"]["spec"]["properties"][
        "provisioningClassName"
    ]
    for name in classes:
        jsonschema.validate(name, {k: v for k, v in field.items() if k != "x-kubernetes-validations"})


def test_a_pool_name_that_is_no_object_name_is_refused_for_all() -> None:
    eks = build_spec("eks", name="Inference_A")
    found = problems((eks,), KueueSpec(flavors="all"), "gpuready:kueue")
    assert [p.path for p in found] == ["gpuready:kueue.flavors"]
    assert "rename the pool" in found[0].hint
    assert problems((eks,), KueueSpec(), "gpuready:kueue") == []


def test_the_documented_cluster_queue_is_the_example_stack_s_and_passes_its_crd() -> None:
    root = Path(__file__).resolve().parents[3]
    text = (root / "docs" / "capacity.md").read_text("utf-8")
    blocks = [yaml.safe_load(b.split("```", 1)[0]) for b in text.split("```yaml\n")[1:]]
    (queue,) = [b for b in blocks if isinstance(b, dict) and b.get("kind") == "ClusterQueue"]
    assert crd_problems("kueue/kueue.x-k8s.io_clusterqueues.v0.19.2.yaml", queue) == []
    stack = yaml.safe_load((root / "stacks" / "Pulumi.gke-queued.yaml").read_text("utf-8"))["config"]
    (documented,) = [b["gpuready:kueue"] for b in blocks if isinstance(b, dict) and "gpuready:kueue" in b]
    assert yaml.safe_load(documented) == yaml.safe_load(stack["gpuready:kueue"])
    values = {key.split(":", 1)[1]: value for key, value in stack.items() if key.startswith("gpuready:")}
    values = {k: json.dumps(v) if isinstance(v, list) else v for k, v in values.items()}
    settings = parse_stack_settings(values)
    assert kueue_objects(settings.pools, settings.kueue)["clusterqueue-ml"] == queue
