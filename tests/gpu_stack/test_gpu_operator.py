"""``GpuOperator`` under Pulumi's mock runtime: what registers, under which parent and provider, in which order,
and the exact ``helm.v3.Release`` inputs; a contradiction registers nothing.

Inputs are compared as the engine receives them: camelCase wire names, every number a float. The expected
values are the pure plan's (``plan_gpu_stack``, tested value by value in ``tests/core/gpu_stack``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, Literal

import pulumi
import pulumi_kubernetes as k8s
import pytest

from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.core.gpu_stack.stack_plan import GpuStackPlan, HelmRelease, plan_gpu_stack
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.eks.node_pool import EksGpuNodePool, EksGpuNodePoolArgs
from gpuready.errors import SpecError
from gpuready.gke.node_pool import GkeGpuNodePool, GkeGpuNodePoolArgs
from gpuready.gpu_stack.gpu_operator import GpuOperator, GpuOperatorArgs
from gpuready.pool_outputs import GpuNodePoolBase
from tests.gpu_stack.conftest import (
    CONFIG_MAP,
    K8S_PROVIDER,
    NAMESPACE,
    RELEASE,
    RESOURCE_QUOTA,
)
from tests.pulumi_mocks import CapturingMonitor, Registration, runtime_test

COMPONENT = "gpuready:index:GpuOperator"
NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
GKE_NODE_POOL = "gcp:container/nodePool:NodePool"
EKS_POOL = "gpuready:index:EksGpuNodePool"
GKE_POOL = "gpuready:index:GkeGpuNodePool"

L4_SHARED = GpuPoolSpec(
    cloud="eks", name="l4-shared", instance_type="g6.12xlarge", min_size=0, max_size=4, capacity="spot",
    sharing=GpuSharing(mode="time-slicing", replicas=4), taints=(Taint(key="dedicated", value="ml"),),
)  # fmt: skip
H100_CUSTOM = GpuPoolSpec(
    cloud="eks", name="h100-mig", instance_type="p5.48xlarge", min_size=0, max_size=2,
    sharing=MigPartitioning(layout={"1g.10gb": 3, "4g.40gb": 1}, strategy="mixed"),
)  # fmt: skip
BOTTLEROCKET = GpuPoolSpec(
    cloud="eks", name="a10g-br", instance_type="g5.2xlarge", min_size=0, max_size=3, image="bottlerocket"
)
EKS_POOLS = (L4_SHARED, H100_CUSTOM, BOTTLEROCKET)
GKE_L4 = GpuPoolSpec(
    cloud="gke", name="l4-ts", instance_type="g2-standard-24", image="ubuntu", driver="operator", min_size=0,
    max_size=4, sharing=GpuSharing(mode="time-slicing", replicas=4, rename_by_default=True),
)  # fmt: skip
GKE_H100 = GpuPoolSpec(
    cloud="gke", name="h100-mig", instance_type="a3-highgpu-8g", image="ubuntu", driver="operator", min_size=0,
    max_size=2, sharing=MigPartitioning(layout={"1g.10gb": 3, "4g.40gb": 1}, strategy="mixed"),
)  # fmt: skip
ProviderVia = Literal["argument", "opts.provider", "opts.providers"]
AKS_T4 = GpuPoolSpec(cloud="aks", name="t4", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=2)


def eks_pool(spec: GpuPoolSpec) -> EksGpuNodePool:
    args = EksGpuNodePoolArgs(
        pool=spec, cluster_name="ml", node_role_arn="arn:aws:iam::123456789012:role/gpu", subnet_ids=["subnet-a"]
    )
    return EksGpuNodePool(spec.name, args)


def gke_pool(spec: GpuPoolSpec) -> GkeGpuNodePool:
    return GkeGpuNodePool(spec.name, GkeGpuNodePoolArgs(pool=spec, cluster_name="ml", location="us-central1-a"))


def build(
    specs: Sequence[GpuPoolSpec],
    *,
    as_components: Callable[[GpuPoolSpec], GpuNodePoolBase] | None = eks_pool,
    provider_via: ProviderVia = "argument",
    name: str = "gpu-stack",
    **settings: object,
) -> None:
    """Run a program with a Kubernetes provider, the pools (as components, or as specs) and one ``GpuOperator``."""

    @runtime_test
    def program() -> None:
        provider = k8s.Provider("cluster", kubeconfig="{}")
        pools = [as_components(s) for s in specs] if as_components is not None else list(specs)
        args = GpuOperatorArgs(pools=pools, **settings)  # type: ignore[arg-type]  # each test passes real fields
        if provider_via == "opts.provider":
            GpuOperator(name, args, opts=pulumi.ResourceOptions(provider=provider))
        elif provider_via == "opts.providers":
            GpuOperator(name, args, opts=pulumi.ResourceOptions(providers=[provider]))
        else:
            GpuOperator(name, dataclasses.replace(args, provider=provider))

    program()


def plan_of(cloud: Cloud, specs: Sequence[GpuPoolSpec], **spec: object) -> GpuStackPlan:
    return plan_gpu_stack(cloud_profile(cloud), specs, GpuStackSpec(kind="gpu-operator", **spec))  # type: ignore[arg-type]


def release_of(plan: GpuStackPlan) -> HelmRelease:
    assert plan.release is not None
    return plan.release


def pool_children(mocked: CapturingMonitor, pool_type: str) -> list[str]:
    """URNs of the cloud resources inside the pool components (what ``depends_on`` a component expands to)."""
    pools = mocked.of_type(pool_type)
    return [r.urn for pool in pools for r in mocked.children_of(pool)]


def config_maps_by_base(mocked: CapturingMonitor) -> dict[str, Registration]:
    return {r.inputs["metadata"]["name"].rsplit("-", 1)[0]: r for r in mocked.of_type(CONFIG_MAP)}


def test_registers_namespace_config_maps_and_release_under_the_component(mocked: CapturingMonitor) -> None:
    build(EKS_POOLS)

    component = mocked.one(COMPONENT)
    assert not component.custom and component.inputs == {}
    assert component.parent.endswith("::gpuready-test")  # the root stack
    children = {r.name: r.type for r in mocked.children_of(component)}
    assert children == {
        "gpu-stack-namespace": NAMESPACE,
        "gpu-stack-gpuready-device-plugin-config": CONFIG_MAP,
        "gpu-stack-gpuready-mig-parted-config": CONFIG_MAP,
        "gpu-stack-release": RELEASE,
    }
    assert all(r.custom for r in mocked.children_of(component))
    # Nothing else of the GPU stack registered outside the component.
    assert len(mocked.of_type(CONFIG_MAP)) == 2 and len(mocked.of_type(RELEASE)) == 1
    assert mocked.of_type(RESOURCE_QUOTA) == []


def test_release_inputs_are_the_pinned_chart_and_the_plans_values(mocked: CapturingMonitor) -> None:
    build(EKS_POOLS)

    release = release_of(plan_of("eks", EKS_POOLS))
    inputs = mocked.one(RELEASE).inputs
    assert inputs["name"] == "gpu-operator"
    assert inputs["chart"] == "gpu-operator"
    assert inputs["version"] == "v26.7.0"
    assert inputs["repositoryOpts"] == {"repo": "https://helm.ngc.nvidia.com/nvidia"}
    assert inputs["namespace"] == "gpu-operator"
    assert inputs["timeout"] == 900.0 and inputs["timeout"] >= 900
    assert inputs["atomic"] is False
    assert inputs["skipAwait"] is False
    assert inputs["createNamespace"] is False
    # The chart's pre-upgrade hook applies the new CRDs; its values.yaml says the upgrade then needs this flag.
    assert inputs["disableOpenapiValidation"] is True
    assert inputs["values"]["operator"]["upgradeCRD"] is True
    assert inputs["values"] == release.values
    # The config maps the values name are the ones registered, with the plan's data, in the release namespace.
    maps = config_maps_by_base(mocked)
    plugin, mig = maps["gpuready-device-plugin-config"], maps["gpuready-mig-parted-config"]
    assert inputs["values"]["devicePlugin"]["config"]["name"] == plugin.inputs["metadata"]["name"]
    assert inputs["values"]["migManager"]["config"]["name"] == mig.inputs["metadata"]["name"]
    plan = plan_of("eks", EKS_POOLS)
    for config_map in (plugin, mig):
        assert config_map.inputs["metadata"]["namespace"] == "gpu-operator"
        assert config_map.inputs["data"] == plan.config_data[config_map.inputs["metadata"]["name"]]


def test_release_depends_on_namespace_config_maps_and_pools(mocked: CapturingMonitor) -> None:
    build(EKS_POOLS)

    namespace = mocked.one(NAMESPACE)
    maps = mocked.of_type(CONFIG_MAP)
    node_groups = [urn for urn in pool_children(mocked, EKS_POOL) if "$aws:eks/nodeGroup:NodeGroup::" in urn]
    assert len(node_groups) == len(EKS_POOLS)
    dependencies = set(mocked.one(RELEASE).dependencies)
    assert namespace.urn in dependencies
    assert {m.urn for m in maps} <= dependencies
    assert set(node_groups) <= dependencies
    # The config maps go in after the namespace; the namespace waits for nothing.
    assert all(namespace.urn in m.dependencies for m in maps)
    assert namespace.dependencies == ()


def test_namespace_is_not_default_and_is_privileged(mocked: CapturingMonitor) -> None:
    build(EKS_POOLS)

    metadata = mocked.one(NAMESPACE).inputs["metadata"]
    assert metadata["name"] == "gpu-operator"
    assert metadata["name"] != "default"
    assert metadata["labels"]["pod-security.kubernetes.io/enforce"] == "privileged"
    assert metadata["labels"]["app.kubernetes.io/managed-by"] == "gpuready"


@pytest.mark.parametrize("provider_via", ["argument", "opts.provider", "opts.providers"])
def test_every_kubernetes_resource_uses_the_given_provider(mocked: CapturingMonitor, provider_via: ProviderVia) -> None:
    build(EKS_POOLS, provider_via=provider_via)

    provider = mocked.one(K8S_PROVIDER)
    kube = [r for r in mocked.registrations if r.type.startswith("kubernetes:")]
    assert len(kube) == 4
    assert all(r.provider == f"{provider.urn}::{provider.name}_id" for r in kube), {r.name: r.provider for r in kube}


def test_component_outputs(mocked: CapturingMonitor) -> None:
    build(EKS_POOLS)

    outputs = mocked.outputs_of(mocked.one(COMPONENT))
    release = release_of(plan_of("eks", EKS_POOLS))
    assert outputs == {
        "release_name": "gpu-operator",
        "namespace": "gpu-operator",
        "chart": "gpu-operator",
        "version": "v26.7.0",
        "values": release.values,
    }


def test_pools_passed_as_specs_and_release_settings(mocked: CapturingMonitor) -> None:
    settings: dict[str, Any] = {
        "namespace": "gpu-system", "release_name": "nvidia-gpu", "chart_version": "v26.3.3",
        "repository": "https://nvidia.github.io/gpu-operator/stable", "timeout_seconds": 1800, "nfd": "existing",
        "mig_reboot": False,
    }  # fmt: skip
    build(EKS_POOLS, as_components=None, **settings)

    assert mocked.of_type(EKS_POOL) == [] and mocked.of_type(NODE_GROUP) == []
    release = mocked.one(RELEASE)
    plan = plan_of("eks", EKS_POOLS, **settings)
    assert {k: release.inputs[k] for k in ("name", "chart", "version", "repositoryOpts", "namespace", "timeout")} == {
        "name": "nvidia-gpu",
        "chart": "gpu-operator",
        "version": "v26.3.3",
        "repositoryOpts": {"repo": "https://nvidia.github.io/gpu-operator/stable"},
        "namespace": "gpu-system",
        "timeout": 1800.0,
    }
    assert release.inputs["values"] == release_of(plan).values
    assert release.inputs["values"]["nfd"] == {"enabled": False}
    assert "env" not in release.inputs["values"]["migManager"]
    assert mocked.one(NAMESPACE).inputs["metadata"]["name"] == "gpu-system"
    assert {m.inputs["metadata"]["namespace"] for m in mocked.of_type(CONFIG_MAP)} == {"gpu-system"}
    # Only the namespace and the config maps to wait for.
    expected = {mocked.one(NAMESPACE).urn, *(m.urn for m in mocked.of_type(CONFIG_MAP))}
    assert set(release.dependencies) == expected


def test_gke_operator_driver_adds_the_priority_quota(mocked: CapturingMonitor) -> None:
    build((GKE_L4, GKE_H100), as_components=gke_pool)

    component = mocked.one(COMPONENT)
    quota = mocked.one(RESOURCE_QUOTA)
    release = mocked.one(RELEASE)
    plan = plan_of("gke", (GKE_L4, GKE_H100))
    assert quota.parent == component.urn
    assert quota.inputs["metadata"]["namespace"] == "gpu-operator"
    assert quota.inputs["spec"]["scopeSelector"] == {
        "matchExpressions": [
            {
                "operator": "In",
                "scopeName": "PriorityClass",
                "values": ["system-node-critical", "system-cluster-critical"],
            }
        ]
    }
    assert mocked.one(NAMESPACE).urn in quota.dependencies
    assert quota.urn in release.dependencies
    assert set(pool_children(mocked, GKE_POOL)) <= set(release.dependencies)
    assert release.inputs["values"] == release_of(plan).values
    assert release.inputs["values"]["driver"]["enabled"] is True
    assert release.inputs["values"]["driver"]["upgradePolicy"]["maxParallelUpgrades"] == 1
    assert len(mocked.of_type(CONFIG_MAP)) == 2


# --- contradictions: nothing registers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pools", "settings", "path", "words"),
    [
        ([], {}, "pools", "needs at least one pool"),
        ([L4_SHARED, AKS_T4], {}, "pools", "of one cloud"),
        ([L4_SHARED], {"timeout_seconds": 300}, "gpuStack.timeoutSeconds", "must be between 900 and 7200"),
        ([L4_SHARED], {"namespace": "default"}, "gpuStack.namespace", "never go in the default namespace"),
        ([L4_SHARED], {"chart_version": "26.7.0"}, "gpuStack.chartVersion", "versions start with 'v'"),
        (
            [GpuPoolSpec(cloud="gke", name="l4", instance_type="g2-standard-4", min_size=0, max_size=1)],
            {},
            "gpuStack.kind",
            "GKE installs the driver and runs its own device plugin",
        ),
    ],
    ids=["no-pools", "two-clouds", "timeout-300", "default-namespace", "version-without-v", "gke-managed"],
)
def test_a_contradiction_raises_before_anything_registers(
    mocked: CapturingMonitor, pools: list[GpuPoolSpec], settings: dict[str, object], path: str, words: str
) -> None:
    @runtime_test
    def program() -> None:
        with pytest.raises(SpecError) as info:
            GpuOperator("gpu-stack", GpuOperatorArgs(pools=pools, **settings))  # type: ignore[arg-type]
        assert any(p.path == path and words in p.problem for p in info.value.problems), info.value.problems

    program()
    mocked.assert_nothing_registered()
