"""``AksNapGpuPool`` under Pulumi's mock runtime: the AKSNodeClass then the NodePool, as the pure builder makes
them, both on the given Kubernetes provider; and the stack adapter that wires it."""

from __future__ import annotations

import pulumi
import pulumi_kubernetes as k8s
import pytest

from gpuready.aks import nap
from gpuready.aks.nap_pool import AksNapGpuPool, AksNapGpuPoolArgs
from gpuready.core import scheduling
from gpuready.core.stack_settings import StackSettings
from gpuready.errors import SpecError
from gpuready.stack_adapters import build_pool
from tests.core.conftest import build_spec
from tests.pulumi_mocks import CapturingMonitor, runtime_test

COMPONENT = "gpuready:index:AksNapGpuPool"
NODE_POOL = "kubernetes:karpenter.sh/v1:NodePool"
NODE_CLASS = "kubernetes:karpenter.azure.com/v1beta1:AKSNodeClass"


def test_the_component_registers_the_built_objects_on_the_provider(mocked: CapturingMonitor) -> None:
    spec = build_spec("aks", provisioner="nap", max_size=3)

    @runtime_test
    def program() -> None:
        provider = k8s.Provider("cluster", kubeconfig="{}")
        AksNapGpuPool("gpu", AksNapGpuPoolArgs(pool=spec, provider=provider, tags={"team": "ml"}))

    program()
    component = mocked.one(COMPONENT)
    children = {r.type: r for r in mocked.children_of(component)}
    assert set(children) == {NODE_POOL, NODE_CLASS}
    provider_urn = mocked.one("pulumi:providers:kubernetes").urn
    assert all(r.provider is not None and r.provider.startswith(provider_urn) for r in children.values())
    assert children[NODE_CLASS].inputs["spec"] == nap.node_class(spec, {"team": "ml"})["spec"]
    assert children[NODE_POOL].inputs["spec"]["limits"] == nap.node_pool(spec)["spec"]["limits"]
    assert children[NODE_CLASS].urn in children[NODE_POOL].dependencies
    outputs = mocked.outputs_of(component)
    assert outputs["node_pool_name"] == "gpu"
    assert outputs["node_selector"] == {scheduling.LABEL_POOL: "gpu"}


def test_a_pool_of_another_provisioner_is_refused_before_anything_registers(mocked: CapturingMonitor) -> None:
    with pytest.raises(SpecError, match="provisioner: nap"):
        AksNapGpuPool("gpu", AksNapGpuPoolArgs(pool=build_spec("aks"), provider=None))  # type: ignore[arg-type]
    mocked.assert_nothing_registered()


def test_the_stack_adapter_builds_it_on_the_stack_provider(mocked: CapturingMonitor) -> None:
    spec = build_spec("aks", provisioner="nap")
    settings = StackSettings(cloud="aks", cluster_name="c", pools=(spec,), tags={"env": "dev"})

    @runtime_test
    def program() -> None:
        provider: pulumi.ProviderResource = k8s.Provider("cluster", kubeconfig="{}")
        assert type(build_pool(spec, settings, lambda: provider)) is AksNapGpuPool

    program()
    assert mocked.one(NODE_CLASS).inputs["spec"]["tags"] == {"env": "dev"}
