"""The workload helper: the resource a pool's nodes advertise, whole units with requests == limits, and refusals.

Facts (nvidia.md sections 5, 6; kubernetes.io "Consuming extended resources"): extended resources are whole
numbers (``0.5`` and ``500m`` are refused by the apiserver) and requests must equal limits; time-slicing/MPS
advertise ``nvidia.com/gpu`` (``nvidia.com/gpu.shared`` with ``renameByDefault``); MIG ``mixed`` advertises
``nvidia.com/mig-<profile>`` (``+`` as ``.``), MIG ``single`` and GKE's MIG advertise ``nvidia.com/gpu``;
NVIDIA's plugin refuses more than one share with ``failRequestsGreaterThanOne``, which MPS turns on by default.
"""

from __future__ import annotations

import copy
from typing import Any, NamedTuple

import kubernetes_validate
import pytest

from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.core.workload import GpuWorkload, gpu_workload
from gpuready.errors import SpecError

K8S = "1.32.0"  # as tests/core/test_scheduling_k8s_schema.py

PLAIN = GpuPoolSpec(cloud="eks", name="l4x4", instance_type="g6.12xlarge", min_size=0, max_size=2)
PLAIN_ONE = GpuPoolSpec(cloud="eks", name="l4", instance_type="g6.xlarge", min_size=0, max_size=2)
TS = GpuPoolSpec(
    cloud="eks", name="ts", instance_type="g6.xlarge", min_size=0, max_size=2,
    sharing=GpuSharing(mode="time-slicing", replicas=4),
)  # fmt: skip
TS_RENAMED = GpuPoolSpec(
    cloud="eks", name="tsr", instance_type="g6.12xlarge", min_size=0, max_size=2,
    sharing=GpuSharing(mode="time-slicing", replicas=4, rename_by_default=True),
    taints=(Taint(key="dedicated", value="ml", effect="NoExecute"),),
)  # fmt: skip
TS_STRICT = GpuPoolSpec(
    cloud="eks", name="tss", instance_type="g6.xlarge", min_size=0, max_size=2,
    sharing=GpuSharing(mode="time-slicing", replicas=4, fail_requests_greater_than_one=True),
)  # fmt: skip
MPS = GpuPoolSpec(
    cloud="eks", name="mps", instance_type="g6.xlarge", min_size=0, max_size=2,
    sharing=GpuSharing(mode="mps", replicas=4),
)  # fmt: skip
MPS_LENIENT = GpuPoolSpec(
    cloud="eks", name="mpsl", instance_type="g6.xlarge", min_size=0, max_size=2,
    sharing=GpuSharing(mode="mps", replicas=4, fail_requests_greater_than_one=False, rename_by_default=True),
)  # fmt: skip
MIG_MIXED = GpuPoolSpec(
    cloud="eks", name="a100", instance_type="p4d.24xlarge", min_size=0, max_size=1,
    sharing=MigPartitioning(layout="all-balanced", strategy="mixed"),
)  # fmt: skip
MIG_MEDIA = GpuPoolSpec(
    cloud="eks", name="h100me", instance_type="p5.48xlarge", min_size=0, max_size=1,
    sharing=MigPartitioning(profile="1g.10gb+me", strategy="mixed"),
)  # fmt: skip
MIG_SINGLE = GpuPoolSpec(
    cloud="eks", name="a100s", instance_type="p4d.24xlarge", min_size=0, max_size=1,
    sharing=MigPartitioning(profile="3g.20gb", strategy="single"),
)  # fmt: skip
AKS_MIG = GpuPoolSpec(
    cloud="aks", name="a100mig", instance_type="Standard_NC24ads_A100_v4", min_size=0, max_size=1, capacity="spot",
    sharing=MigPartitioning(profile="1g.10gb", strategy="mixed"),
)  # fmt: skip
GKE_MIG = GpuPoolSpec(
    cloud="gke", name="a100", instance_type="a2-highgpu-1g", min_size=0, max_size=1,
    sharing=MigPartitioning(profile="1g.5gb"),
)  # fmt: skip
GKE_TS = GpuPoolSpec(
    cloud="gke", name="l4ts", instance_type="g2-standard-24", min_size=0, max_size=1,
    sharing=GpuSharing(mode="time-slicing", replicas=4),
)  # fmt: skip
GKE_MPS = GpuPoolSpec(
    cloud="gke", name="l4mpsgke", instance_type="g2-standard-24", min_size=0, max_size=1,
    sharing=GpuSharing(mode="mps", replicas=3),
)  # fmt: skip
GKE_OPERATOR_MPS = GpuPoolSpec(
    cloud="gke", name="l4mps", instance_type="g2-standard-24", min_size=0, max_size=1, image="ubuntu",
    driver="operator", sharing=GpuSharing(mode="mps", replicas=2),
)  # fmt: skip


class Case(NamedTuple):
    pool: GpuPoolSpec
    gpus: int
    resource: str | None
    """Explicit resource choice, or None for the pool's main one."""
    expected_resource: str
    expected_count: int


CASES: list[Case] = [
    Case(PLAIN, 1, None, "nvidia.com/gpu", 1),
    Case(PLAIN, 4, None, "nvidia.com/gpu", 4),
    Case(TS, 1, None, "nvidia.com/gpu", 1),
    Case(TS, 3, None, "nvidia.com/gpu", 3),  # time-slicing does not refuse >1 share by default
    Case(TS_RENAMED, 1, None, "nvidia.com/gpu.shared", 1),
    Case(TS_RENAMED, 16, None, "nvidia.com/gpu.shared", 16),  # 4 GPUs x 4 replicas
    Case(MPS, 1, None, "nvidia.com/gpu", 1),
    Case(MPS_LENIENT, 2, None, "nvidia.com/gpu.shared", 2),
    Case(MIG_MIXED, 1, None, "nvidia.com/mig-1g.5gb", 1),  # 16 per node: the most units
    Case(MIG_MIXED, 2, "nvidia.com/mig-3g.20gb", "nvidia.com/mig-3g.20gb", 2),
    Case(MIG_MIXED, 8, "nvidia.com/mig-2g.10gb", "nvidia.com/mig-2g.10gb", 8),
    Case(MIG_MEDIA, 1, None, "nvidia.com/mig-1g.10gb.me", 1),
    Case(MIG_SINGLE, 16, None, "nvidia.com/gpu", 16),  # 8 GPUs x 2 x 3g.20gb
    Case(AKS_MIG, 1, None, "nvidia.com/mig-1g.10gb", 1),
    Case(GKE_MIG, 7, None, "nvidia.com/gpu", 7),  # GKE advertises its partitions as nvidia.com/gpu
    Case(GKE_TS, 3, None, "nvidia.com/gpu", 3),  # GKE time-sharing: more than one share is allowed
]


def _id(case: Case) -> str:
    return f"{case.pool.cloud}-{case.pool.name}-{case.gpus}-{case.resource or 'main'}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_resource_and_count(case: Case) -> None:
    workload = gpu_workload(case.pool, case.gpus, resource=case.resource)
    assert (workload.pool, workload.resource, workload.count) == (
        case.pool.name, case.expected_resource, case.expected_count,
    )  # fmt: skip
    resources = workload.resources()
    assert resources == {
        "limits": {case.expected_resource: case.expected_count},
        "requests": {case.expected_resource: case.expected_count},
    }
    assert all(type(units[case.expected_resource]) is int for units in resources.values())


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_the_fragment_in_a_pod_is_valid_kubernetes(case: Case) -> None:
    fragment = gpu_workload(case.pool, case.gpus, resource=case.resource)
    pod: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "w"},
        "spec": {**fragment.pod_spec(), "containers": [fragment.container({"name": "c", "image": "busybox"})]},
    }
    kubernetes_validate.validate(pod, K8S, strict=True)
    assert pod["spec"]["nodeSelector"] == {"gpuready.io/pool": case.pool.name}


@pytest.mark.parametrize(
    ("pool", "tolerations"),
    [
        (PLAIN, [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]),
        (TS_RENAMED, [
            {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
            {"key": "dedicated", "operator": "Exists", "effect": "NoExecute"},
        ]),
        (AKS_MIG, [
            {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
            {"key": "kubernetes.azure.com/scalesetpriority", "operator": "Exists", "effect": "NoSchedule"},
        ]),
    ],
)  # fmt: skip
def test_pod_spec_selects_the_pool_and_tolerates_its_taints(pool: GpuPoolSpec, tolerations: list[Any]) -> None:
    assert gpu_workload(pool).pod_spec() == {
        "nodeSelector": {"gpuready.io/pool": pool.name},
        "tolerations": tolerations,
    }


def test_whole_floats_become_integers() -> None:
    workload = gpu_workload(PLAIN, 2.0)
    assert workload.count == 2
    assert type(workload.count) is int


# --- refusals --------------------------------------------------------------------------------------------------------


def _refused(pool: GpuPoolSpec, gpus: object, resource: str | None = None) -> SpecError:
    with pytest.raises(SpecError) as raised:
        gpu_workload(pool, gpus, resource=resource)
    return raised.value


@pytest.mark.parametrize("gpus", [0.5, 1.5, "500m", "0.5", 0.25])
def test_fractions_on_a_whole_gpu_pool_point_to_sharing(gpus: object) -> None:
    (problem,) = _refused(PLAIN, gpus).problems
    assert problem.path == "gpus"
    assert problem.value == gpus
    assert "whole units" in problem.problem
    for way in ("time-slicing", "mps", "MIG"):
        assert way in problem.hint, problem.hint


@pytest.mark.parametrize(("pool", "way"), [(TS, "time-slicing"), (MPS, "mps"), (TS_RENAMED, "time-slicing")])
@pytest.mark.parametrize("gpus", [0.5, "500m"])
def test_fractions_on_a_shared_pool_point_to_one_share(pool: GpuPoolSpec, way: str, gpus: object) -> None:
    (problem,) = _refused(pool, gpus).problems
    assert "whole units" in problem.problem
    assert way in problem.hint
    assert "request 1 unit" in problem.hint
    assert "share" in problem.hint


def test_fractions_on_a_mig_pool_point_to_one_partition() -> None:
    (problem,) = _refused(MIG_MIXED, 0.5).problems
    assert "MIG" in problem.hint
    assert "request 1 unit" in problem.hint


@pytest.mark.parametrize("gpus", [0, -1, -2, True, False, None, 0.0, -1.0])
def test_zero_negative_and_non_numbers_are_refused(gpus: object) -> None:
    (problem,) = _refused(PLAIN, gpus).problems
    assert problem.path == "gpus"
    assert problem.value == gpus
    assert type(problem.value) is type(gpus)


@pytest.mark.parametrize(
    ("pool", "gpus", "resource", "per_node"),
    [
        (PLAIN_ONE, 2, None, "1 nvidia.com/gpu"),
        (PLAIN, 5, None, "4 nvidia.com/gpu"),
        (TS, 5, None, "4 nvidia.com/gpu"),
        (MIG_MIXED, 9, "nvidia.com/mig-3g.20gb", "8 nvidia.com/mig-3g.20gb"),
        (GKE_MIG, 8, None, "7 nvidia.com/gpu"),
    ],
)
def test_more_than_a_node_advertises_is_refused(
    pool: GpuPoolSpec, gpus: int, resource: str | None, per_node: str
) -> None:
    problems = _refused(pool, gpus, resource).problems
    assert any(p.path == "gpus" and f"each advertises {per_node}" in p.problem for p in problems), problems


@pytest.mark.parametrize(("pool", "gpus"), [(MPS, 2), (TS_STRICT, 2), (GKE_OPERATOR_MPS, 2)])
def test_more_than_one_share_where_the_plugin_refuses_it(pool: GpuPoolSpec, gpus: int) -> None:
    (problem,) = _refused(pool, gpus).problems
    assert problem.path == "gpus"
    assert "failRequestsGreaterThanOne" in problem.problem
    assert "request 1 unit" in problem.hint


@pytest.mark.parametrize("pool", [MPS, TS_STRICT, GKE_OPERATOR_MPS])
def test_one_share_is_fine_where_the_plugin_refuses_more(pool: GpuPoolSpec) -> None:
    assert gpu_workload(pool, 1).count == 1


def test_a_resource_the_pool_does_not_advertise() -> None:
    (problem,) = _refused(MIG_MIXED, 1, "nvidia.com/gpu").problems
    assert problem.path == "resource"
    assert problem.value == "nvidia.com/gpu"
    assert problem.allowed == ("nvidia.com/mig-1g.5gb", "nvidia.com/mig-2g.10gb", "nvidia.com/mig-3g.20gb")
    (problem,) = _refused(TS_RENAMED, 1, "nvidia.com/gpu").problems
    assert problem.allowed == ("nvidia.com/gpu.shared",)


def test_resource_and_count_problems_together() -> None:
    problems = _refused(MIG_MIXED, 0.5, "nvidia.com/mig-7g.40gb").problems
    assert sorted(p.path for p in problems) == ["gpus", "resource"]


# --- container merge -------------------------------------------------------------------------------------------------


def test_container_merges_with_existing_resources() -> None:
    workload: GpuWorkload = gpu_workload(MIG_MIXED, 2, resource="nvidia.com/mig-3g.20gb")
    container = {
        "name": "c",
        "image": "busybox",
        "env": [{"name": "A", "value": "1"}],
        "resources": {
            "limits": {"cpu": "2", "memory": "4Gi", "nvidia.com/mig-3g.20gb": 5},
            "requests": {"memory": "4Gi"},
        },
    }
    before = copy.deepcopy(container)
    merged = workload.container(container)
    assert merged == {
        "name": "c",
        "image": "busybox",
        "env": [{"name": "A", "value": "1"}],
        "resources": {
            "limits": {"cpu": "2", "memory": "4Gi", "nvidia.com/mig-3g.20gb": 2},
            "requests": {"memory": "4Gi", "nvidia.com/mig-3g.20gb": 2},
        },
    }
    assert container == before  # the caller's container is left alone


@pytest.mark.parametrize("resources", [None, {}, {"limits": None}, {"requests": {"cpu": "1"}}])
def test_container_without_limits_gets_both(resources: Any) -> None:
    container: dict[str, Any] = {"name": "c", "image": "busybox"}
    if resources is not None:
        container["resources"] = resources
    merged = gpu_workload(TS_RENAMED).container(container)
    assert merged["resources"]["limits"] == {"nvidia.com/gpu.shared": 1}
    assert merged["resources"]["requests"]["nvidia.com/gpu.shared"] == 1
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "w"}, "spec": {"containers": [merged]}}
    kubernetes_validate.validate(pod, K8S, strict=True)


def _pod(pool: GpuPoolSpec) -> dict[str, Any]:
    fragment = gpu_workload(pool)
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "w"},
        "spec": {**fragment.pod_spec(), "containers": [fragment.container({"name": "c", "image": "busybox"})]},
    }


def test_a_pod_on_a_gke_mps_pool_gets_what_gke_requires() -> None:
    # GKE "Deploy workloads that use NVIDIA MPS with GPUs": hostIPC to reach the MPS control daemon, and
    # GKE's MPS node labels (https://cloud.google.com/kubernetes-engine/docs/how-to/nvidia-mps-gpus)
    pod = _pod(GKE_MPS)
    kubernetes_validate.validate(pod, K8S, strict=True)
    assert pod["spec"]["hostIPC"] is True
    assert pod["spec"]["nodeSelector"] == {
        "gpuready.io/pool": "l4mpsgke",
        "cloud.google.com/gke-gpu-sharing-strategy": "mps",
        "cloud.google.com/gke-max-shared-clients-per-gpu": "3",
    }
    assert pod["spec"]["containers"][0]["resources"]["limits"] == {"nvidia.com/gpu": 1}


@pytest.mark.parametrize(
    "pool", [MPS, MPS_LENIENT, GKE_OPERATOR_MPS, GKE_TS, GKE_MIG, PLAIN], ids=lambda p: f"{p.cloud}-{p.name}"
)
def test_no_host_ipc_where_the_cloud_does_not_run_mps(pool: GpuPoolSpec) -> None:
    # NVIDIA's device plugin mounts the MPS pipe and shm directories into the container itself
    # (k8s-device-plugin v0.20.0 internal/plugin/mps.go): EKS, AKS and GKE with the GPU Operator need no hostIPC.
    pod = _pod(pool)
    kubernetes_validate.validate(pod, K8S, strict=True)
    assert "hostIPC" not in pod["spec"]
    assert pod["spec"]["nodeSelector"] == {"gpuready.io/pool": pool.name}
