"""The labels, taints, tolerations and node selector a pool publishes are valid Kubernetes (strict schema).

Source: kubernetes-validate 1.37.0's bundled Kubernetes 1.32 schemas, ``strict=True`` (unknown fields refused).
The schema has no enum for taint/toleration effects, so those are checked against the Kubernetes spellings too.
"""

from __future__ import annotations

from typing import Any

import kubernetes_validate
import pytest

from gpuready.core import scheduling
from gpuready.core.k8s_syntax import TAINT_EFFECTS
from gpuready.core.pool_summary import pool_outputs
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint

K8S = "1.32.0"
SPECS = [
    GpuPoolSpec(cloud="eks", name="l4", instance_type="g6.12xlarge", min_size=0, max_size=2,
                sharing=GpuSharing(mode="time-slicing", replicas=4), taints=(Taint(key="dedicated", value="ml"),)),
    GpuPoolSpec(cloud="eks", name="a10g-br", instance_type="g5.2xlarge", min_size=0, max_size=2, image="bottlerocket"),
    GpuPoolSpec(cloud="aks", name="a100mig", instance_type="Standard_NC24ads_A100_v4", min_size=0, max_size=2,
                capacity="spot", sharing=MigPartitioning(profile="1g.10gb", strategy="mixed")),
    GpuPoolSpec(cloud="gke", name="h100-op", instance_type="a3-highgpu-8g", min_size=0, max_size=1, image="ubuntu",
                driver="operator", sharing=MigPartitioning(layout="all-balanced", strategy="mixed")),
]  # fmt: skip


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s.cloud}-{s.name}")
def test_a_node_of_the_pool_is_a_valid_node(spec: GpuPoolSpec) -> None:
    node: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": f"{spec.name}-node-1", "labels": scheduling.pool_labels(spec)},
        "spec": {"taints": [scheduling.to_k8s_taint(t) for t in scheduling.pool_taints(spec)]},
    }
    kubernetes_validate.validate(node, K8S, strict=True)
    assert all(t["effect"] in TAINT_EFFECTS for t in node["spec"]["taints"])


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s.cloud}-{s.name}")
def test_a_pod_using_the_pools_outputs_is_a_valid_pod(spec: GpuPoolSpec) -> None:
    values = pool_outputs(spec, driver="test", lifecycle="test")
    resource = values.resource_name
    pod: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "trainer"},
        "spec": {
            "nodeSelector": values.node_selector,
            "tolerations": values.tolerations,
            "containers": [
                {"name": "main", "image": "nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04",
                 "resources": {"limits": {resource: "1"}, "requests": {resource: "1"}}},
            ],
        },
    }  # fmt: skip
    kubernetes_validate.validate(pod, K8S, strict=True)
    assert all(t["effect"] in TAINT_EFFECTS and t["operator"] == "Exists" for t in values.tolerations)
