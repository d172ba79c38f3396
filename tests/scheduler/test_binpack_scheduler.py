"""``GpuBinPackingScheduler`` under Pulumi's mock runtime: resource types, parents, order, provider, outputs.

Inputs are compared as the engine receives them: camelCase wire names, every number a float.
"""

from __future__ import annotations

import pulumi
import pulumi_kubernetes as k8s
import pytest
import yaml

from gpuready.core.binpack.scheduler_config import BinPackSchedulerSpec, scheduler_configuration
from gpuready.errors import SpecError
from gpuready.scheduler.binpack_scheduler import GpuBinPackingScheduler, GpuBinPackingSchedulerArgs
from tests.pulumi_mocks import CapturingMonitor, runtime_test

COMPONENT = "gpuready:index:GpuBinPackingScheduler"
NAMESPACE = "kubernetes:core/v1:Namespace"
DEPLOYMENT = "kubernetes:apps/v1:Deployment"
CONFIG_MAP = "kubernetes:core/v1:ConfigMap"
CHILD_TYPES = {
    "binpack-namespace": NAMESPACE,
    "binpack-service-account": "kubernetes:core/v1:ServiceAccount",
    "binpack-as-kube-scheduler": "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding",
    "binpack-as-volume-scheduler": "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding",
    "binpack-auth-reader": "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding",
    "binpack-leader-election": "kubernetes:rbac.authorization.k8s.io/v1:Role",
    "binpack-leader-election-binding": "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding",
    "binpack-config": CONFIG_MAP,
    "binpack-deployment": DEPLOYMENT,
}
SPEC = BinPackSchedulerSpec(cluster_version="1.33.4-eks-abcdef", gpu_resources=("nvidia.com/gpu.shared",))


def build(spec: BinPackSchedulerSpec = SPEC) -> None:
    """Run a program with a Kubernetes provider and one scheduler component, and wait for every registration."""

    @runtime_test
    def program() -> None:
        provider = k8s.Provider("cluster", kubeconfig="{}")
        GpuBinPackingScheduler(
            "binpack", GpuBinPackingSchedulerArgs(scheduler=spec), opts=pulumi.ResourceOptions(providers=[provider])
        )

    program()


def test_children_types_names_and_parent(mocked: CapturingMonitor) -> None:
    build()
    component = mocked.one(COMPONENT)
    children = {r.name: r for r in mocked.registrations if r.parent == component.urn}
    assert {name: r.type for name, r in children.items()} == CHILD_TYPES
    assert all(r.custom for r in children.values()) and not component.custom
    assert component.inputs == {}


def test_children_use_the_given_kubernetes_provider(mocked: CapturingMonitor) -> None:
    build()
    provider = mocked.one("pulumi:providers:kubernetes")
    providers = {r.name: r.provider for r in mocked.registrations}
    assert all(providers[name].startswith(provider.urn) for name in CHILD_TYPES)


def test_namespace_is_created_first_and_is_not_default(mocked: CapturingMonitor) -> None:
    build()
    namespace = mocked.one(NAMESPACE)
    assert namespace.inputs["metadata"]["name"] == "gpu-scheduling"
    others = [r for r in mocked.registrations if r.name in CHILD_TYPES and r.type != NAMESPACE]
    assert all(namespace.urn in r.dependencies for r in others)
    namespaces = {r.inputs["metadata"].get("namespace") for r in others}
    assert namespaces == {None, "gpu-scheduling", "kube-system"}  # cluster-scoped bindings; the auth-reader binding
    assert "default" not in namespaces


def test_deployment_waits_for_its_permissions_and_configuration(mocked: CapturingMonitor) -> None:
    build()
    deployment = mocked.one(DEPLOYMENT)
    urns = {r.name: r.urn for r in mocked.registrations}
    assert {urns[name] for name in CHILD_TYPES if name != "binpack-deployment"} <= set(deployment.dependencies)


def test_config_map_holds_the_bin_packing_configuration(mocked: CapturingMonitor) -> None:
    build()
    config_map = mocked.one(CONFIG_MAP)
    assert config_map.inputs["metadata"] == {
        "name": "gpu-binpack-scheduler-config",
        "namespace": "gpu-scheduling",
        "labels": {
            "app.kubernetes.io/name": "kube-scheduler",
            "app.kubernetes.io/instance": "gpu-binpack-scheduler",
            "app.kubernetes.io/component": "scheduler",
            "app.kubernetes.io/managed-by": "gpuready",
        },
    }
    config = yaml.safe_load(config_map.inputs["data"]["config.yaml"])
    assert config == scheduler_configuration(SPEC)
    strategy = config["profiles"][0]["pluginConfig"][0]["args"]["scoringStrategy"]
    assert strategy["type"] == "MostAllocated"
    assert [r["weight"] for r in strategy["resources"]] == [100, 100, 1, 1]


def test_deployment_placement(mocked: CapturingMonitor) -> None:
    build()
    deployment = mocked.one(DEPLOYMENT)
    spec = deployment.inputs["spec"]
    assert spec["replicas"] == 2.0
    pod = spec["template"]["spec"]
    terms = pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
    assert terms == [{"matchExpressions": [{"key": "gpuready.io/gpu-pool", "operator": "DoesNotExist"}]}]
    assert "tolerations" not in pod
    assert pod["nodeSelector"] == {"kubernetes.io/os": "linux"}
    (container,) = pod["containers"]
    assert container["image"] == "registry.k8s.io/kube-scheduler:v1.33.4"
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": 10259.0, "scheme": "HTTPS"}


def test_outputs(mocked: CapturingMonitor) -> None:
    build()
    outputs = mocked.outputs_of(mocked.one(COMPONENT))
    assert outputs == {"scheduler_name": "gpu-binpack", "namespace": "gpu-scheduling"}


def test_a_bad_spec_fails_before_anything_is_registered(mocked: CapturingMonitor) -> None:
    with pytest.raises(SpecError, match="not default"):
        build(BinPackSchedulerSpec(kube_scheduler_version="v1.33.4", namespace="default"))
    assert mocked.registrations == []
