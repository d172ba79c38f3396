"""``BinPackSchedulerSpec`` validation: the release it resolves, and every refused input with a pointed problem.

Each refused value must name its field path, show the bad value, list what is allowed and give a hint.
"""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.binpack.scheduler_config import BinPackSchedulerSpec, SchedulerToleration
from gpuready.errors import Problem, SpecError

VERSION: dict[str, Any] = {"kube_scheduler_version": "v1.33.4"}


def typed(value: object) -> Any:
    """A value as a user could write it, passed where the type checker expects another type."""
    return value


@pytest.mark.parametrize(
    ("fields", "version"),
    [
        pytest.param({"kube_scheduler_version": "v1.33.4"}, "v1.33.4", id="explicit"),
        pytest.param({"kube_scheduler_version": "v1.25.0"}, "v1.25.0", id="explicit-oldest-minor"),
        pytest.param({"cluster_version": "v1.33.4"}, "v1.33.4", id="cluster-v-prefix"),
        pytest.param({"cluster_version": "1.33.4"}, "v1.33.4", id="cluster-plain"),
        pytest.param({"cluster_version": "1.33.4-eks-abcdef"}, "v1.33.4", id="cluster-eks"),
        pytest.param({"cluster_version": "v1.33.5-gke.1000"}, "v1.33.5", id="cluster-gke"),
        pytest.param({"cluster_version": "1.33", "patch_version": 2}, "v1.33.2", id="cluster-minor-and-patch"),
        pytest.param({"cluster_version": "1.33.4", "patch_version": 4}, "v1.33.4", id="cluster-patch-said-twice"),
        pytest.param({"cluster_version": "1.34", "kube_scheduler_version": "v1.34.1"}, "v1.34.1", id="same-minor"),
        pytest.param(
            {"cluster_version": "1.34.2-eks-x", "kube_scheduler_version": "v1.33.6"}, "v1.33.6", id="one-minor-older"
        ),
    ],
)
def test_the_release_and_image(fields: dict[str, Any], version: str) -> None:
    spec = BinPackSchedulerSpec(**fields)
    assert spec.version == version
    assert spec.image == f"registry.k8s.io/kube-scheduler:{version}"


def test_defaults() -> None:
    spec = BinPackSchedulerSpec(**VERSION)
    assert (spec.name, spec.namespace, spec.scheduler_name) == (
        "gpu-binpack-scheduler",
        "gpu-scheduling",
        "gpu-binpack",
    )
    assert spec.replicas == 2
    assert spec.scored_gpu_resources == ("nvidia.com/gpu",)


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"gpu_resources": ("nvidia.com/gpu.shared", "nvidia.com/mig-1g.10gb")}, id="gpu-resources"),
        pytest.param({"namespace": "ml-scheduling", "name": "binpack", "scheduler_name": "ml.example.com"}, id="names"),
        pytest.param({"replicas": 1, "cpu_request": "0.5", "memory_request": "1Gi", "memory_limit": "1Gi"}, id="pod"),
        pytest.param({"memory_request": "512M", "memory_limit": "1e9"}, id="decimal-quantities"),
        pytest.param({"node_selector": {"node-role.example.com/system": "true"}}, id="node-selector"),
        pytest.param(
            {
                "tolerations": (
                    SchedulerToleration(key="CriticalAddonsOnly", operator="Exists"),
                    SchedulerToleration(key="dedicated", value="system", effect="NoSchedule"),
                )
            },
            id="system-tolerations",
        ),
        pytest.param({"image_repository": "123456789012.dkr.ecr.us-east-1.amazonaws.com/kube-scheduler"}, id="mirror"),
        pytest.param({"image_repository": "localhost:5000/kube-scheduler"}, id="mirror-with-port"),
    ],
)
def test_accepted(fields: dict[str, Any]) -> None:
    BinPackSchedulerSpec(**{**VERSION, **fields})


BAD = [
    # (fields, path, text in the problem)
    pytest.param({"namespace": "default"}, "namespace", "not default", id="namespace-default"),
    pytest.param({"namespace": "kube-system"}, "namespace", "not a kube- namespace", id="namespace-kube-system"),
    pytest.param({"namespace": "GPU"}, "namespace", "not a valid namespace name", id="namespace-uppercase"),
    pytest.param({"name": "gpu_binpack"}, "name", "not a valid object name", id="name-underscore"),
    pytest.param({"name": "a" * 64}, "name", "not a valid object name", id="name-64"),
    pytest.param({"scheduler_name": "default-scheduler"}, "schedulerName", "unique name", id="scheduler-default"),
    pytest.param({"scheduler_name": "GPU Pack"}, "schedulerName", "DNS subdomain", id="scheduler-name-space"),
    pytest.param({"kube_scheduler_version": None}, "kubeSchedulerVersion", "required", id="version-missing"),
    pytest.param({"kube_scheduler_version": "1.33.4"}, "kubeSchedulerVersion", "image tag", id="version-no-v"),
    pytest.param({"kube_scheduler_version": "v1.33"}, "kubeSchedulerVersion", "image tag", id="version-minor-only"),
    pytest.param(
        {"kube_scheduler_version": "v1.33.4-eks-1"}, "kubeSchedulerVersion", "image tag", id="version-cloud-suffix"
    ),
    pytest.param({"kube_scheduler_version": "v1.24.9"}, "kubeSchedulerVersion", "only from v1.25", id="version-old"),
    pytest.param(
        {"kube_scheduler_version": None, "cluster_version": "1.33"}, "clusterVersion", "names only a minor",
        id="cluster-minor-only",
    ),
    pytest.param(
        {"kube_scheduler_version": None, "cluster_version": "1.33-eks"}, "clusterVersion", "not a Kubernetes version",
        id="cluster-suffix-without-patch",
    ),
    pytest.param(
        {"kube_scheduler_version": None, "cluster_version": "2.0.1"}, "clusterVersion", "not a Kubernetes version",
        id="cluster-major-2",
    ),
    pytest.param(
        {"kube_scheduler_version": None, "cluster_version": "1.24.3"}, "clusterVersion", "only from v1.25",
        id="cluster-old",
    ),
    pytest.param(
        {"kube_scheduler_version": "v1.34.0", "cluster_version": "1.33.4"}, "kubeSchedulerVersion",
        "version skew policy", id="scheduler-newer-than-cluster",
    ),
    pytest.param(
        {"kube_scheduler_version": "v1.31.0", "cluster_version": "1.33.4"}, "kubeSchedulerVersion",
        "version skew policy", id="scheduler-two-minors-older",
    ),
    pytest.param({"patch_version": 4}, "patchVersion", "already names the patch", id="patch-with-explicit"),
    pytest.param(
        {"kube_scheduler_version": None, "cluster_version": "1.33.4", "patch_version": 5}, "patchVersion",
        "disagrees", id="patch-disagrees",
    ),
    pytest.param(
        {"kube_scheduler_version": None, "cluster_version": "1.33", "patch_version": -1}, "patchVersion",
        "0 or more", id="patch-negative",
    ),
    pytest.param({"gpu_resources": ("nvidia.com/gpu",)}, "gpuResources[0]", "listed twice", id="gpu-resource-default"),
    pytest.param(
        {"gpu_resources": ("nvidia.com/gpu.shared", "nvidia.com/gpu.shared")}, "gpuResources[1]", "listed twice",
        id="gpu-resource-duplicate",
    ),
    pytest.param({"gpu_resources": ("gpu",)}, "gpuResources[0]", "domain prefix", id="gpu-resource-no-domain"),
    pytest.param(
        {"gpu_resources": ("kubernetes.io/gpu",)}, "gpuResources[0]", "outside the kubernetes.io", id="gpu-resource-k8s"
    ),
    pytest.param({"replicas": 0}, "replicas", "1 or more", id="replicas-0"),
    pytest.param({"cpu_request": "100 m"}, "cpuRequest", "not a Kubernetes quantity", id="cpu-space"),
    pytest.param({"cpu_request": "0"}, "cpuRequest", "more than 0", id="cpu-zero"),
    pytest.param({"memory_request": "256MB"}, "memoryRequest", "not a Kubernetes quantity", id="memory-MB"),
    pytest.param({"memory_limit": "128Mi"}, "memoryLimit", "below memoryRequest", id="limit-below-request"),
    pytest.param(
        {"node_selector": {"gpuready.io/gpu-pool": "false"}}, "nodeSelector['gpuready.io/gpu-pool']",
        "keeps the scheduler off GPU nodes", id="selector-gpu-pool",
    ),
    pytest.param({"node_selector": {"role": "sys tem"}}, "nodeSelector['role']", "a value must", id="selector-value"),
    pytest.param(
        {"tolerations": (SchedulerToleration(key="nvidia.com/gpu", operator="Exists"),)}, "tolerations[0].key",
        "tolerates the nvidia.com/gpu taint", id="toleration-gpu",
    ),
    pytest.param(
        {"tolerations": (SchedulerToleration(key="", operator="Exists"),)}, "tolerations[0].key",
        "tolerates every taint", id="toleration-everything",
    ),
    pytest.param(
        {"tolerations": (SchedulerToleration(key="sku", operator="Exists"),), "gpu_taint_keys": ("sku",)},
        "tolerations[0].key", "tolerates the sku taint", id="toleration-teams-gpu-taint",
    ),
    pytest.param(
        {"tolerations": (SchedulerToleration(key="dedicated", operator="Exists", value="system"),)},
        "tolerations[0].value", "empty with operator Exists", id="toleration-exists-with-value",
    ),
    pytest.param(
        {"tolerations": (SchedulerToleration(key="dedicated", operator=typed("In")),)}, "tolerations[0].operator",
        "unknown operator", id="toleration-operator",
    ),
    pytest.param(
        {"tolerations": (SchedulerToleration(key="dedicated", effect=typed("NoExec")),)}, "tolerations[0].effect",
        "unknown taint effect", id="toleration-effect",
    ),
    pytest.param(
        {"image_repository": "registry.k8s.io/kube-scheduler:v1.33.4"}, "imageRepository", "without tag",
        id="image-with-tag",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("fields", "path", "text"), BAD)
def test_refused_with_path_value_allowed_and_hint(fields: dict[str, Any], path: str, text: str) -> None:
    with pytest.raises(SpecError) as info:
        BinPackSchedulerSpec(**{**VERSION, **fields})
    matching = [p for p in info.value.problems if p.path == path]
    assert len(matching) == 1, "\n".join(map(str, info.value.problems))
    problem: Problem = matching[0]
    rendered = str(problem)
    assert text in rendered
    assert problem.allowed, "the problem lists what is allowed"
    assert problem.hint, "the problem says how to fix it"
    if problem.value is not None:
        assert repr(problem.value) in rendered
    assert rendered.startswith(f"{path}: ")


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(SpecError) as info:
        BinPackSchedulerSpec(namespace="default", cluster_version="1.33", replicas=0, gpu_resources=("gpu",))
    assert [p.path for p in info.value.problems] == ["namespace", "clusterVersion", "gpuResources[0]", "replicas"]
    assert "patchVersion" in info.value.problems[1].hint


def test_minor_only_error_says_how_to_give_the_patch() -> None:
    with pytest.raises(SpecError) as info:
        BinPackSchedulerSpec(cluster_version="1.33")
    message = str(info.value)
    assert "1.33" in message
    assert "patchVersion" in message
    assert "kubeSchedulerVersion: v1.33.4" in message
    assert "registry lookup" in message
