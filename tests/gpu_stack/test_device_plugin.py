"""``NvidiaDevicePlugin`` under Pulumi's mock runtime: what registers, under which parent and provider, in which
order, and the exact ``helm.v3.Release`` inputs; a contradiction registers nothing of the GPU stack.

Inputs are compared as the engine receives them: camelCase wire names, every number a float. The expected
values are the pure plan's (``plan_gpu_stack``, tested value by value in ``tests/core/gpu_stack``).
"""

from __future__ import annotations

from collections.abc import Sequence

import pulumi
import pulumi_kubernetes as k8s
import pytest

from gpuready.aks.node_pool import AksGpuNodePool, AksGpuNodePoolArgs
from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.gpu_stack.stack_plan import plan_gpu_stack
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.eks.node_pool import EksGpuNodePool, EksGpuNodePoolArgs
from gpuready.errors import SpecError
from gpuready.gpu_stack.device_plugin import NvidiaDevicePlugin, NvidiaDevicePluginArgs
from tests.gpu_stack.conftest import CONFIG_MAP, K8S_PROVIDER, NAMESPACE, RELEASE
from tests.pulumi_mocks import CapturingMonitor, runtime_test

COMPONENT = "gpuready:index:NvidiaDevicePlugin"
AKS_POOL = "gpuready:index:AksGpuNodePool"
AGENT_POOL = "azure-native:containerservice:AgentPool"
EKS_POOL = "gpuready:index:EksGpuNodePool"

T4_SHARED = GpuPoolSpec(
    cloud="aks", name="t4shared", instance_type="Standard_NC8as_T4_v3", min_size=0, max_size=4, desired_size=1,
    sharing=GpuSharing(mode="time-slicing", replicas=2),
)  # fmt: skip
A100_MIG = GpuPoolSpec(
    cloud="aks", name="a100mig", instance_type="Standard_NC24ads_A100_v4", min_size=0, max_size=2,
    sharing=MigPartitioning(profile="1g.10gb", strategy="mixed"),
)  # fmt: skip
H100_SPOT = GpuPoolSpec(
    cloud="aks", name="h100spot", instance_type="Standard_NC40ads_H100_v5", min_size=0, max_size=2, capacity="spot",
    taints=(Taint(key="workload", value="batch"),),
)  # fmt: skip
AKS_POOLS = (T4_SHARED, A100_MIG, H100_SPOT)
EKS_L4 = GpuPoolSpec(cloud="eks", name="l4", instance_type="g6.xlarge", min_size=0, max_size=2)
EKS_MPS = GpuPoolSpec(
    cloud="eks", name="l4-mps", instance_type="g6.xlarge", min_size=0, max_size=2,
    sharing=GpuSharing(mode="mps", replicas=2),
)  # fmt: skip
EKS_BOTTLEROCKET = GpuPoolSpec(
    cloud="eks", name="a10g-br", instance_type="g5.2xlarge", min_size=0, max_size=3, image="bottlerocket"
)
EKS_MIG = GpuPoolSpec(
    cloud="eks", name="h100-mig", instance_type="p5.48xlarge", min_size=0, max_size=2,
    sharing=MigPartitioning(layout="all-balanced", strategy="mixed"),
)  # fmt: skip


def aks_pool(spec: GpuPoolSpec) -> AksGpuNodePool:
    return AksGpuNodePool(spec.name, AksGpuNodePoolArgs(pool=spec, resource_group_name="rg-ml", cluster_name="aks"))


def eks_pool(spec: GpuPoolSpec) -> EksGpuNodePool:
    args = EksGpuNodePoolArgs(
        pool=spec, cluster_name="ml", node_role_arn="arn:aws:iam::123456789012:role/gpu", subnet_ids=["subnet-a"]
    )
    return EksGpuNodePool(spec.name, args)


def build(specs: Sequence[GpuPoolSpec] = AKS_POOLS, *, as_components: bool = True, **settings: object) -> None:
    """Run a program with a Kubernetes provider (passed in ``opts``), AKS pools and one ``NvidiaDevicePlugin``."""

    @runtime_test
    def program() -> None:
        provider = k8s.Provider("cluster", kubeconfig="{}")
        pools = [aks_pool(s) for s in specs] if as_components else list(specs)
        args = NvidiaDevicePluginArgs(pools=pools, **settings)  # type: ignore[arg-type]  # each test passes real fields
        NvidiaDevicePlugin("gpu-stack", args, opts=pulumi.ResourceOptions(provider=provider))

    program()


def test_registers_namespace_config_map_and_release_under_the_component(mocked: CapturingMonitor) -> None:
    build()

    component = mocked.one(COMPONENT)
    assert not component.custom and component.inputs == {}
    children = mocked.children_of(component)
    assert {r.name: r.type for r in children} == {
        "gpu-stack-namespace": NAMESPACE,
        "gpu-stack-gpuready-device-plugin-config": CONFIG_MAP,
        "gpu-stack-release": RELEASE,
    }
    assert all(r.custom for r in children)
    metadata = mocked.one(NAMESPACE).inputs["metadata"]
    assert metadata["name"] == "nvidia-device-plugin"
    assert metadata["name"] != "default"
    provider = mocked.one(K8S_PROVIDER)
    assert all(r.provider == f"{provider.urn}::{provider.name}_id" for r in children)


def test_release_inputs_are_the_pinned_chart_and_the_plans_values(mocked: CapturingMonitor) -> None:
    build()

    plan = plan_gpu_stack(cloud_profile("aks"), AKS_POOLS, GpuStackSpec(kind="device-plugin"))
    assert plan.release is not None
    inputs = mocked.one(RELEASE).inputs
    assert {k: v for k, v in inputs.items() if k not in ("values", "compat")} == {
        "name": "nvidia-device-plugin",
        "chart": "nvidia-device-plugin",
        "version": "0.20.0",
        "repositoryOpts": {"repo": "https://nvidia.github.io/k8s-device-plugin"},
        "namespace": "nvidia-device-plugin",
        "timeout": 900.0,
        "atomic": False,
        "skipAwait": False,
        "createNamespace": False,
        "disableOpenapiValidation": False,  # the plugin chart has no CRD hook
    }
    assert inputs["values"] == plan.release.values
    assert inputs["values"]["migStrategy"] == "mixed"
    config_map = mocked.one(CONFIG_MAP)
    assert inputs["values"]["config"]["name"] == config_map.inputs["metadata"]["name"]
    assert config_map.inputs["metadata"]["namespace"] == "nvidia-device-plugin"
    assert config_map.inputs["data"] == plan.config_data[config_map.inputs["metadata"]["name"]]


def test_release_depends_on_namespace_config_map_and_pools(mocked: CapturingMonitor) -> None:
    build()

    agent_pools = [r.urn for r in mocked.of_type(AGENT_POOL)]
    assert len(agent_pools) == len(AKS_POOLS)
    assert all(r.parent in {p.urn for p in mocked.of_type(AKS_POOL)} for r in mocked.of_type(AGENT_POOL))
    release = mocked.one(RELEASE)
    assert set(release.dependencies) == {mocked.one(NAMESPACE).urn, mocked.one(CONFIG_MAP).urn, *agent_pools}
    assert mocked.one(NAMESPACE).urn in mocked.one(CONFIG_MAP).dependencies


def test_pools_as_specs_without_sharing_gfd_off_and_custom_release(mocked: CapturingMonitor) -> None:
    settings: dict[str, object] = {
        "gfd": False, "namespace": "gpu-system", "release_name": "nvdp", "chart_version": "0.19.3",
        "repository": "oci://registry.example.com/charts", "timeout_seconds": 1200,
    }  # fmt: skip
    build((H100_SPOT,), as_components=False, **settings)

    assert mocked.of_type(AKS_POOL) == [] and mocked.of_type(CONFIG_MAP) == []  # nothing shares: no config
    release = mocked.one(RELEASE)
    plan = plan_gpu_stack(cloud_profile("aks"), (H100_SPOT,), GpuStackSpec(kind="device-plugin", **settings))  # type: ignore[arg-type]
    assert plan.release is not None
    assert (release.inputs["name"], release.inputs["version"], release.inputs["namespace"]) == (
        "nvdp",
        "0.19.3",
        "gpu-system",
    )
    assert release.inputs["repositoryOpts"] == {"repo": "oci://registry.example.com/charts"}
    assert release.inputs["timeout"] == 1200.0
    assert release.inputs["values"] == plan.release.values
    assert release.inputs["values"]["gfd"] == {"enabled": False}
    assert "nfd" not in release.inputs["values"]
    assert set(release.dependencies) == {mocked.one(NAMESPACE).urn}


# --- contradictions: nothing of the GPU stack registers --------------------------------------------------------------


@pytest.mark.parametrize(
    ("pools", "settings", "path", "words"),
    [
        ([EKS_BOTTLEROCKET], {}, "gpuStack.kind", "Bottlerocket NVIDIA runs its own device plugin"),
        ([EKS_L4, EKS_MIG], {}, "gpuStack.kind", "only the GPU Operator's MIG manager applies"),
        ([EKS_MPS], {"gfd": False}, "gpuStack.gfd", "nvidia.com/mps.capable"),
        ([EKS_L4, T4_SHARED], {}, "pools", "of one cloud"),
        ([], {}, "pools", "needs at least one pool"),
        ([EKS_L4], {"chart_version": "v0.20.0"}, "gpuStack.chartVersion", "no leading 'v'"),
        ([EKS_L4], {"timeout_seconds": 300}, "gpuStack.timeoutSeconds", "must be between 900 and 7200"),
    ],
    ids=["bottlerocket", "mig-layout", "mps-without-gfd", "two-clouds", "no-pools", "version-with-v", "timeout-300"],
)
def test_a_contradiction_raises_before_anything_registers(
    mocked: CapturingMonitor, pools: list[GpuPoolSpec], settings: dict[str, object], path: str, words: str
) -> None:
    @runtime_test
    def program() -> None:
        with pytest.raises(SpecError) as info:
            NvidiaDevicePlugin("gpu-stack", NvidiaDevicePluginArgs(pools=pools, **settings))  # type: ignore[arg-type]
        assert any(p.path == path and words in p.problem for p in info.value.problems), info.value.problems

    program()
    mocked.assert_nothing_registered()


def test_a_contradiction_over_pool_components_registers_nothing_of_the_stack(mocked: CapturingMonitor) -> None:
    """The pools were registered before; the stack adds nothing to them."""

    @runtime_test
    def program() -> None:
        pools = [eks_pool(EKS_L4), eks_pool(EKS_BOTTLEROCKET)]
        with pytest.raises(SpecError, match="a10g-br"):
            NvidiaDevicePlugin("gpu-stack", NvidiaDevicePluginArgs(pools=pools))

    program()
    pool_parts = [r for r in mocked.registrations if r.type != "aws:autoscaling/tag:Tag"]  # the pools' ASG tags
    assert {r.type for r in pool_parts} == {EKS_POOL, "aws:eks/nodeGroup:NodeGroup"}
    assert len(pool_parts) == 4
    assert all(r.type.startswith(("gpuready:index:Eks", "aws:")) for r in mocked.registrations)
