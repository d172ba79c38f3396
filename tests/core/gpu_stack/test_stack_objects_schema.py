"""Every object the GPU stack plans create is valid Kubernetes (kubernetes-validate, strict: unknown fields refused).

Same schema version as tests/core/test_scheduling_k8s_schema.py. The schemas do not check name syntax or
ConfigMap keys, so those are checked against the apiserver's rules (DNS-1123 label for namespaces, DNS-1123
subdomain for ConfigMap and ResourceQuota names, ``[-._a-zA-Z0-9]+`` for ConfigMap keys) here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import kubernetes_validate
import pytest

from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.core.gpu_stack.stack_objects import ConfigMapObject, ResourceQuotaObject
from gpuready.core.gpu_stack.stack_plan import GpuStackPlan, plan_gpu_stack
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint

K8S = "1.32.0"
DNS_LABEL = re.compile(r"^[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?\Z")
DNS_SUBDOMAIN = re.compile(r"^(?=.{1,253}\Z)[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?\Z")
CONFIG_MAP_KEY = re.compile(r"^[-._a-zA-Z0-9]{1,253}\Z")

EKS_POOLS = [
    GpuPoolSpec(
        cloud="eks",
        name="l4",
        instance_type="g6.12xlarge",
        min_size=0,
        max_size=4,
        sharing=GpuSharing(mode="time-slicing", replicas=4, rename_by_default=True),
        taints=(Taint(key="dedicated", value="ml", effect="NoExecute"),),
    ),
    GpuPoolSpec(
        cloud="eks",
        name="mps",
        instance_type="g6.xlarge",
        min_size=0,
        max_size=2,
        sharing=GpuSharing(mode="mps", replicas=2),
    ),
    GpuPoolSpec(
        cloud="eks",
        name="a100",
        instance_type="p4d.24xlarge",
        min_size=0,
        max_size=1,
        sharing=MigPartitioning(layout={"3g.20gb": 1, "4g.20gb": 1}, strategy="mixed"),
    ),
    GpuPoolSpec(
        cloud="eks",
        name="h100",
        instance_type="p5.48xlarge",
        min_size=0,
        max_size=1,
        sharing=MigPartitioning(layout="all-balanced", strategy="mixed"),
    ),
    GpuPoolSpec(cloud="eks", name="br", instance_type="g6.xlarge", min_size=0, max_size=1, image="bottlerocket"),
]
EKS_OP_POOLS = [p for p in EKS_POOLS if p.name != "mps"]
"""MPS never beside MIG strategy mixed (stack_rules)."""
AKS_POOLS = [
    GpuPoolSpec(
        cloud="aks",
        name="t4",
        instance_type="Standard_NC4as_T4_v3",
        min_size=0,
        max_size=3,
        capacity="spot",
        sharing=GpuSharing(mode="time-slicing", replicas=2),
    ),
    GpuPoolSpec(
        cloud="aks",
        name="a100mig",
        instance_type="Standard_NC24ads_A100_v4",
        min_size=0,
        max_size=2,
        sharing=MigPartitioning(profile="1g.10gb", strategy="mixed"),
    ),
]
AKS_OPERATOR_POOLS = [
    GpuPoolSpec(
        cloud="aks",
        name="a100op",
        instance_type="Standard_NC24ads_A100_v4",
        min_size=0,
        max_size=2,
        driver="operator",
        sharing=MigPartitioning(layout={"1g.10gb": 3, "4g.40gb": 1}, strategy="mixed"),
    ),
]
GKE_POOLS = [
    GpuPoolSpec(cloud="gke", name="l4op", instance_type="g2-standard-24", min_size=0, max_size=40, image="ubuntu",
                driver="operator", sharing=GpuSharing(mode="time-slicing", replicas=3)),
    GpuPoolSpec(cloud="gke", name="a100op", instance_type="a2-highgpu-2g", min_size=0, max_size=5, image="ubuntu",
                driver="operator", sharing=MigPartitioning(layout={"3g.20gb": 1, "4g.20gb": 1}, strategy="mixed")),
]  # fmt: skip

SCENARIOS: list[tuple[str, Cloud, list[GpuPoolSpec], GpuStackSpec]] = [
    ("eks-operator", "eks", EKS_OP_POOLS, GpuStackSpec(kind="gpu-operator")),
    ("eks-operator-own-namespace", "eks", EKS_OP_POOLS, GpuStackSpec(kind="gpu-operator", namespace="nvidia-gpu")),
    ("eks-device-plugin", "eks", EKS_POOLS[:2], GpuStackSpec(kind="device-plugin")),
    ("aks-device-plugin", "aks", AKS_POOLS, GpuStackSpec(kind="device-plugin", namespace="nvdp")),
    ("aks-operator", "aks", AKS_POOLS, GpuStackSpec(kind="gpu-operator")),
    ("aks-operator-driver", "aks", AKS_OPERATOR_POOLS, GpuStackSpec(kind="gpu-operator")),
    ("gke-operator", "gke", GKE_POOLS, GpuStackSpec(kind="gpu-operator")),
    ("gke-operator-own-namespace", "gke", GKE_POOLS, GpuStackSpec(kind="gpu-operator", namespace="gpu")),
]
IDS = [s[0] for s in SCENARIOS]


def _plan(cloud: Cloud, pools: list[GpuPoolSpec], spec: GpuStackSpec) -> GpuStackPlan:
    return plan_gpu_stack(cloud_profile(cloud), pools, spec)


def _all_objects(plan: GpuStackPlan) -> list[Mapping[str, Any]]:
    assert plan.namespace is not None
    return [plan.namespace, *(o.manifest for o in plan.objects)]


def test_scenarios_build_every_kind_of_object() -> None:
    kinds = {o["kind"] for _, cloud, pools, spec in SCENARIOS for o in _all_objects(_plan(cloud, pools, spec))}
    assert kinds == {"Namespace", "ConfigMap", "ResourceQuota"}
    maps = [
        o
        for _, cloud, pools, spec in SCENARIOS
        for o in _plan(cloud, pools, spec).objects
        if isinstance(o, ConfigMapObject)
    ]
    assert all(o.manifest["kind"] == "ConfigMap" and o.name.startswith(o.base_name + "-") for o in maps)
    names = {o.base_name for o in maps}
    assert names == {"gpuready-device-plugin-config", "gpuready-mig-parted-config"}


@pytest.mark.parametrize(("name", "cloud", "pools", "spec"), SCENARIOS, ids=IDS)
def test_objects_are_valid_kubernetes(name: str, cloud: Cloud, pools: list[GpuPoolSpec], spec: GpuStackSpec) -> None:
    for obj in _all_objects(_plan(cloud, pools, spec)):
        kubernetes_validate.validate(dict(obj), K8S, strict=True)


@pytest.mark.parametrize(("name", "cloud", "pools", "spec"), SCENARIOS, ids=IDS)
def test_names_labels_and_namespace(name: str, cloud: Cloud, pools: list[GpuPoolSpec], spec: GpuStackSpec) -> None:
    plan = _plan(cloud, pools, spec)
    assert plan.namespace is not None
    namespace = plan.namespace["metadata"]["name"]
    assert namespace != "default"
    assert namespace == spec.effective_namespace
    assert DNS_LABEL.match(namespace)
    for obj in _all_objects(plan):
        assert obj["metadata"]["labels"]["app.kubernetes.io/managed-by"] == "gpuready"
    for obj in (o.manifest for o in plan.objects):
        assert obj["metadata"]["namespace"] == namespace
        assert DNS_SUBDOMAIN.match(obj["metadata"]["name"])
        for key in obj.get("data", {}):
            assert CONFIG_MAP_KEY.match(key), key
    assert plan.release is not None
    assert plan.release.namespace == namespace


def test_namespace_admits_privileged_node_agents() -> None:
    plan = _plan("eks", EKS_OP_POOLS, GpuStackSpec(kind="gpu-operator"))
    assert plan.namespace is not None
    labels = plan.namespace["metadata"]["labels"]
    for mode in ("enforce", "audit", "warn"):
        assert labels[f"pod-security.kubernetes.io/{mode}"] == "privileged"


def test_gke_quota_in_the_scenarios() -> None:
    _, cloud, pools, spec = SCENARIOS[IDS.index("gke-operator")]
    quotas = [o.manifest for o in _plan(cloud, pools, spec).objects if isinstance(o, ResourceQuotaObject)]
    assert len(quotas) == 1
    assert quotas[0]["kind"] == "ResourceQuota"
    assert int(quotas[0]["spec"]["hard"]["pods"]) >= 8 * sum(p.max_size for p in pools)


@pytest.mark.parametrize(
    "broken",
    [
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {"a": "b"}, "spec": {}},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {"replicas": 4}},
        {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "x"}, "spec": {"hard": {"pods": [1]}}},
    ],
)
def test_the_validator_is_strict(broken: dict[str, Any]) -> None:
    """Guards the check itself: an unknown field or a wrong type is refused (not silently accepted)."""
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, K8S, strict=True)
