"""``GkeComputeClassGpuPool`` under Pulumi's mock runtime: one ComputeClass custom resource on the given Kubernetes
provider, the pure builder's object as is, and the pool's outputs; and the stack adapter that wires it."""

from __future__ import annotations

import pulumi
import pulumi_kubernetes as k8s
import pytest

from gpuready.core import scheduling
from gpuready.core.specs import GpuPoolSpec, GpuSharing
from gpuready.core.stack_settings import StackSettings
from gpuready.errors import SpecError
from gpuready.gke import compute_class
from gpuready.gke.compute_class_pool import GkeComputeClassGpuPool, GkeComputeClassGpuPoolArgs
from gpuready.stack_adapters import build_pool
from tests.core.conftest import build_spec
from tests.pulumi_mocks import CapturingMonitor, runtime_test
from tests.wiring import cloud_settings

COMPONENT = "gpuready:index:GkeComputeClassGpuPool"
CUSTOM_RESOURCE = "kubernetes:cloud.google.com/v1:ComputeClass"
PROVIDER = "pulumi:providers:kubernetes"


def _spec() -> GpuPoolSpec:
    return build_spec(
        "gke", provisioner="compute-class", capacity="spot", sharing=GpuSharing(mode="time-slicing", replicas=2)
    )


def test_the_component_registers_the_built_compute_class_on_the_provider(mocked: CapturingMonitor) -> None:
    spec = _spec()

    @runtime_test
    def program() -> None:
        provider = k8s.Provider("cluster", kubeconfig="{}")
        GkeComputeClassGpuPool("gpu", GkeComputeClassGpuPoolArgs(pool=spec, provider=provider, service_account="sa@p"))

    program()
    component = mocked.one(COMPONENT)
    (resource,) = mocked.children_of(component)
    assert resource.type == CUSTOM_RESOURCE and resource.name == "gpu-compute-class"
    assert resource.provider is not None and resource.provider.startswith(mocked.one(PROVIDER).urn)
    expected = compute_class.compute_class(spec, "sa@p")
    assert resource.inputs["metadata"] == expected["metadata"]
    assert resource.inputs["spec"]["nodePoolConfig"] == expected["spec"]["nodePoolConfig"]
    assert [p["spot"] for p in resource.inputs["spec"]["priorities"]] == [True, False]
    outputs = mocked.outputs_of(component)
    assert outputs["node_pool_name"] == "gpu"
    # The class is selected (GKE makes its nodes only for pods that select it: issue #24).
    assert outputs["node_selector"] == {scheduling.LABEL_POOL: "gpu", "cloud.google.com/compute-class": "gpu"}


def test_a_pool_of_another_provisioner_is_refused_before_anything_registers(mocked: CapturingMonitor) -> None:
    with pytest.raises(SpecError, match="provisioner: compute-class"):
        GkeComputeClassGpuPool("gpu", GkeComputeClassGpuPoolArgs(pool=build_spec("gke"), provider=None))  # type: ignore[arg-type]
    mocked.assert_nothing_registered()


def test_the_stack_adapter_makes_the_provider_once_and_only_for_elastic_pools(mocked: CapturingMonitor) -> None:
    elastic, fixed = _spec(), build_spec("gke", name="fixed")
    settings = StackSettings(
        cloud="gke", cluster_name="c", pools=(elastic, fixed),
        cloud_settings=cloud_settings("gke", gkeNodeLocations=["us-central1-a"]),
    )  # fmt: skip
    made: list[pulumi.ProviderResource] = []

    def cluster() -> pulumi.ProviderResource:
        made.append(k8s.Provider(f"cluster-{len(made)}", kubeconfig="{}"))
        return made[-1]

    @runtime_test
    def program() -> None:
        assert type(build_pool(elastic, settings, cluster)) is GkeComputeClassGpuPool
        assert type(build_pool(fixed, settings, cluster)).__name__ == "GkeGpuNodePool"

    program()
    assert len(made) == 1
    (resource,) = mocked.of_type(CUSTOM_RESOURCE)
    assert resource.inputs["spec"]["priorities"][0]["location"] == {"zones": ["us-central1-a"]}
    with pytest.raises(TypeError, match="needs the cluster's Kubernetes provider"):
        build_pool(elastic, settings)
