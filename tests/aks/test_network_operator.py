"""AKS InfiniBand: NVIDIA's Network Operator release rendered by real Helm, its NicClusterPolicy against the chart's
own CRD (strict: unknown fields would be pruned), the GPU Operator's GPUDirect RDMA, the stack rule and the RDMA
resource in the workload helper."""

from __future__ import annotations

import json

import pytest

from gpuready.aks import network_operator
from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.fabric.model import FabricSpec
from gpuready.core.gpu_stack.kinds import StackKind
from gpuready.core.gpu_stack.placement import taint_tolerations
from gpuready.core.gpu_stack.stack_plan import plan_gpu_stack
from gpuready.core.gpu_stack.stack_rules import stack_problems
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.workload import gpu_workload
from tests.helm_render import crd_problems, is_core, render, strict_problems, tolerates


def ib_pool(name: str = "h100ib") -> GpuPoolSpec:
    return GpuPoolSpec(
        cloud="aks", name=name, instance_type="Standard_ND96isr_H100_v5", min_size=0, max_size=2, image="ubuntu",
        driver="operator", fabric=FabricSpec(kind="infiniband"),
    )  # fmt: skip


PLAIN = GpuPoolSpec(cloud="aks", name="t4", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=1)


def rendered() -> list[dict[str, object]]:
    values = network_operator.release_values(taint_tolerations([ib_pool()]))
    release = render(
        network_operator.CHART, network_operator.VERSION, values,
        name=network_operator.RELEASE, namespace=network_operator.NAMESPACE,
    )  # fmt: skip
    return list(release.objects)


def test_the_release_renders_without_nfd_and_its_objects_are_valid() -> None:
    objects = rendered()
    kinds = {o["kind"] for o in objects}
    assert "Deployment" in kinds
    assert not [o for o in objects if "node-feature-discovery" in str(o["metadata"])]
    assert "NodeFeatureRule" not in kinds
    for obj in objects:
        if is_core(obj):
            assert strict_problems(obj) == [], obj["kind"]


def test_the_operator_tolerates_the_pools_taint_and_keeps_the_charts_tolerations() -> None:
    values = network_operator.release_values(taint_tolerations([ib_pool()]))
    tolerations = values["operator"]["tolerations"]
    assert tolerates(tolerations, "nvidia.com/gpu", "present", "NoSchedule")
    assert tolerates(tolerations, "node-role.kubernetes.io/control-plane", "", "NoSchedule")


def test_the_nic_cluster_policy_is_valid_under_the_charts_crd() -> None:
    policy = network_operator.nic_cluster_policy(
        [ib_pool("a"), ib_pool("b")], taint_tolerations([ib_pool()]), "gpuready.io/pool"
    )
    assert crd_problems(network_operator.CHART, network_operator.VERSION, policy) == []
    terms = policy["spec"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
    assert terms == [{"matchExpressions": [{"key": "gpuready.io/pool", "operator": "In", "values": ["a", "b"]}]}]
    config = json.loads(policy["spec"]["rdmaSharedDevicePlugin"]["config"])
    assert config["configList"][0]["resourceName"] == "shared_ib"


def test_a_misspelt_policy_field_is_caught() -> None:
    policy = network_operator.nic_cluster_policy([ib_pool()], taint_tolerations([ib_pool()]), "gpuready.io/pool")
    policy["spec"]["ofedDriver"]["versions"] = "x"
    assert crd_problems(network_operator.CHART, network_operator.VERSION, policy) != []


def test_objects_only_when_a_pool_has_infiniband() -> None:
    profile = cloud_profile("aks")
    assert profile.fabric.cluster_objects([PLAIN]) == []
    kinds = [o["kind"] for o in profile.fabric.cluster_objects([PLAIN, ib_pool()])]
    assert kinds == ["Namespace", "Release", "NicClusterPolicy"]


def test_the_gpu_operator_drives_gpudirect_rdma_on_an_infiniband_stack() -> None:
    plan = plan_gpu_stack(cloud_profile("aks"), [ib_pool()], GpuStackSpec(kind="gpu-operator"))
    assert plan.release is not None
    assert plan.release.values["driver"]["rdma"] == {"enabled": True}
    assert plan.release.values["driver"]["enabled"] is True
    plain = plan_gpu_stack(cloud_profile("aks"), [PLAIN], GpuStackSpec(kind="gpu-operator"))
    assert plain.release is not None
    assert "rdma" not in plain.release.values["driver"]


@pytest.mark.parametrize("kind", ["device-plugin", "external"])
def test_an_infiniband_pool_needs_the_gpu_operator(kind: StackKind) -> None:
    problems = stack_problems([ib_pool()], GpuStackSpec(kind=kind))
    assert any("GPUDirect RDMA needs the GPU Operator" in p.problem for p in problems), problems


def test_the_workload_asks_for_one_rdma_device_per_container() -> None:
    container = gpu_workload(ib_pool(), 8).container({"name": "train"})
    assert container["resources"] == {
        "limits": {"nvidia.com/gpu": 8, "rdma/shared_ib": 1},
        "requests": {"nvidia.com/gpu": 8, "rdma/shared_ib": 1},
    }
    assert gpu_workload(PLAIN, 1).container({"name": "x"})["resources"] == {
        "limits": {"nvidia.com/gpu": 1},
        "requests": {"nvidia.com/gpu": 1},
    }


def test_infiniband_containers_may_lock_memory() -> None:
    container = gpu_workload(ib_pool(), 8).container(
        {"name": "train", "securityContext": {"capabilities": {"add": ["SYS_PTRACE"]}}}
    )
    assert container["securityContext"]["capabilities"]["add"] == ["SYS_PTRACE", "IPC_LOCK"]
    assert "securityContext" not in gpu_workload(PLAIN, 1).container({"name": "x"})
