"""The bin-packing scheduler's Kubernetes objects: valid (strict schema) and wired as the docs describe.

Schemas: kubernetes-validate 1.37.0, which ships Kubernetes 1.25-1.37; ``strict=True`` refuses unknown fields.
Every object is checked against 1.33 and against the oldest and newest minors the scheduler supports there.
"""

from __future__ import annotations

from typing import Any

import kubernetes_validate
import pytest
import yaml

from gpuready.core.binpack.scheduler_config import (
    CONFIG_PATH,
    BinPackSchedulerSpec,
    SchedulerToleration,
    scheduler_configuration,
)
from gpuready.core.binpack.scheduler_objects import CONFIG_HASH_ANNOTATION, scheduler_objects

SPECS = [
    BinPackSchedulerSpec(kube_scheduler_version="v1.33.4"),
    BinPackSchedulerSpec(
        cluster_version="1.33.5-gke.1000",
        name="packer",
        namespace="ml-scheduling",
        replicas=3,
        memory_limit="1Gi",
        gpu_resources=("nvidia.com/gpu.shared",),
        node_selector={"cloud.google.com/gke-nodepool": "system"},
        tolerations=(SchedulerToleration(key="gpuready.gke.io/gke-managed-components", operator="Exists"),),
    ),
]
ALL = [(spec, key) for spec in SPECS for key in scheduler_objects(spec)]


@pytest.mark.parametrize("k8s_version", ["1.25", "1.33", "1.37"])
@pytest.mark.parametrize(("spec", "key"), ALL, ids=[f"{s.name}-{k}" for s, k in ALL])
def test_every_object_is_valid_kubernetes(spec: BinPackSchedulerSpec, key: str, k8s_version: str) -> None:
    kubernetes_validate.validate(scheduler_objects(spec)[key], k8s_version, strict=True)


def test_objects_and_their_order() -> None:
    objects = scheduler_objects(SPECS[0])
    assert [(o["kind"], o["metadata"]["name"], o["metadata"].get("namespace")) for o in objects.values()] == [
        ("Namespace", "gpu-scheduling", None),
        ("ServiceAccount", "gpu-binpack-scheduler", "gpu-scheduling"),
        ("ClusterRoleBinding", "gpu-binpack-scheduler-as-kube-scheduler", None),
        ("ClusterRoleBinding", "gpu-binpack-scheduler-as-volume-scheduler", None),
        ("RoleBinding", "gpu-binpack-scheduler-auth-reader", "kube-system"),
        ("Role", "gpu-binpack-scheduler-leader-election", "gpu-scheduling"),
        ("RoleBinding", "gpu-binpack-scheduler-leader-election", "gpu-scheduling"),
        ("ConfigMap", "gpu-binpack-scheduler-config", "gpu-scheduling"),
        ("Deployment", "gpu-binpack-scheduler", "gpu-scheduling"),
    ]


def test_rbac_binds_the_service_account_to_what_a_second_scheduler_needs() -> None:
    objects = scheduler_objects(SPECS[1])
    subject = [{"kind": "ServiceAccount", "name": "packer", "namespace": "ml-scheduling"}]
    refs = {
        key: (o["roleRef"]["kind"], o["roleRef"]["name"])
        for key, o in objects.items()
        if o["kind"] in ("ClusterRoleBinding", "RoleBinding")
    }
    assert refs == {
        "as-kube-scheduler": ("ClusterRole", "system:kube-scheduler"),
        "as-volume-scheduler": ("ClusterRole", "system:volume-scheduler"),
        "auth-reader": ("Role", "extension-apiserver-authentication-reader"),
        "leader-election-binding": ("Role", "packer-leader-election"),
    }
    assert all(objects[key]["subjects"] == subject for key in refs)
    assert objects["leader-election"]["rules"] == [
        {"apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "verbs": ["create"]},
        {"apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "resourceNames": ["packer"],
         "verbs": ["get", "update"]},
    ]  # fmt: skip


def test_the_lease_the_role_grants_is_the_one_the_configuration_names() -> None:
    spec = SPECS[1]
    objects = scheduler_objects(spec)
    election = scheduler_configuration(spec)["leaderElection"]
    role = objects["leader-election"]
    assert role["metadata"]["namespace"] == election["resourceNamespace"]
    assert role["rules"][1]["resourceNames"] == [election["resourceName"]]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_config_map_holds_the_configuration_the_deployment_reads(spec: BinPackSchedulerSpec) -> None:
    objects = scheduler_objects(spec)
    config_map, deployment = objects["config"], objects["deployment"]
    assert yaml.safe_load(config_map["data"]["config.yaml"]) == scheduler_configuration(spec)
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    assert container["command"] == ["kube-scheduler", f"--config={CONFIG_PATH}"]
    assert CONFIG_PATH == "/etc/kubernetes/gpu-binpack/config.yaml"
    (mount,) = container["volumeMounts"]
    (volume,) = pod["volumes"]
    assert (mount["name"], mount["mountPath"], mount["readOnly"]) == ("config", "/etc/kubernetes/gpu-binpack", True)
    assert volume == {"name": "config", "configMap": {"name": config_map["metadata"]["name"]}}
    assert pod["serviceAccountName"] == objects["service-account"]["metadata"]["name"]


def test_deployment_stays_off_gpu_nodes() -> None:
    pod = scheduler_objects(SPECS[1])["deployment"]["spec"]["template"]["spec"]
    required = pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    assert required == {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": "gpuready.io/gpu-pool", "operator": "DoesNotExist"}]}]
    }
    assert pod["nodeSelector"] == {"kubernetes.io/os": "linux", "cloud.google.com/gke-nodepool": "system"}
    assert [t["key"] for t in pod["tolerations"]] == ["gpuready.gke.io/gke-managed-components"]
    assert "tolerations" not in scheduler_objects(SPECS[0])["deployment"]["spec"]["template"]["spec"]


def test_deployment_pod() -> None:
    deployment = scheduler_objects(SPECS[1])["deployment"]
    assert deployment["spec"]["replicas"] == 3
    template = deployment["spec"]["template"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= template["metadata"]["labels"].items()
    pod = template["spec"]
    (container,) = pod["containers"]
    assert container["image"] == "registry.k8s.io/kube-scheduler:v1.33.5"
    probe = {"path": "/healthz", "port": 10259, "scheme": "HTTPS"}
    assert container["livenessProbe"]["httpGet"] == probe
    assert container["readinessProbe"]["httpGet"] == probe
    assert container["resources"] == {"requests": {"cpu": "100m", "memory": "256Mi"}, "limits": {"memory": "1Gi"}}
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert container["securityContext"] == {
        "allowPrivilegeEscalation": False,
        "readOnlyRootFilesystem": True,
        "capabilities": {"drop": ["ALL"]},
    }
    assert "schedulerName" not in pod, "the default scheduler places the scheduler itself"


def test_a_new_configuration_rolls_the_pods() -> None:
    def digest(spec: BinPackSchedulerSpec) -> Any:
        return scheduler_objects(spec)["deployment"]["spec"]["template"]["metadata"]["annotations"]

    first = digest(BinPackSchedulerSpec(kube_scheduler_version="v1.33.4"))
    assert first == digest(BinPackSchedulerSpec(kube_scheduler_version="v1.33.4"))
    changed = digest(BinPackSchedulerSpec(kube_scheduler_version="v1.33.4", gpu_resources=("nvidia.com/gpu.shared",)))
    assert first[CONFIG_HASH_ANNOTATION] != changed[CONFIG_HASH_ANNOTATION]


def test_namespace_enforces_restricted_pod_security() -> None:
    namespace = scheduler_objects(SPECS[0])["namespace"]
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"
