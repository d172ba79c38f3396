"""``EksAutoModeGpuPool`` under Pulumi's mock runtime: the NodeClass then the NodePool, as the pure builder makes
them, on the given Kubernetes provider; and the stack adapter that wires it from the stack settings."""

from __future__ import annotations

import pulumi
import pulumi_kubernetes as k8s
import pytest

from gpuready.core.stack_settings import StackSettings
from gpuready.eks import auto_mode
from gpuready.eks.auto_mode_pool import EksAutoModeGpuPool, EksAutoModeGpuPoolArgs
from gpuready.eks.settings_model import EksSettingsConfig
from gpuready.errors import SpecError
from gpuready.stack_adapters import build_pool
from tests.core.conftest import build_spec
from tests.pulumi_mocks import CapturingMonitor, runtime_test

COMPONENT = "gpuready:index:EksAutoModeGpuPool"
NODE_POOL = "kubernetes:karpenter.sh/v1:NodePool"
NODE_CLASS = "kubernetes:eks.amazonaws.com/v1:NodeClass"


def test_the_stack_adapter_builds_both_objects_on_the_provider(mocked: CapturingMonitor) -> None:
    spec = build_spec("eks", provisioner="eks-auto-mode", instance_type="g5.12xlarge", max_size=2)
    settings = StackSettings(
        cloud="eks", cluster_name="ml", pools=(spec,), tags={"env": "dev"},
        cloud_settings=EksSettingsConfig.model_construct(
            eks_node_role_arn="arn:aws:iam::1:role/AutoNodes", eks_subnet_ids=["subnet-a1", "subnet-b2"]
        ),
    )  # fmt: skip

    @runtime_test
    def program() -> None:
        provider: pulumi.ProviderResource = k8s.Provider("cluster", kubeconfig="{}")
        assert type(build_pool(spec, settings, lambda: provider)) is EksAutoModeGpuPool

    program()
    component = mocked.one(COMPONENT)
    children = {r.type: r for r in mocked.children_of(component)}
    assert set(children) == {NODE_POOL, NODE_CLASS}
    provider_urn = mocked.one("pulumi:providers:kubernetes").urn
    assert all(r.provider is not None and r.provider.startswith(provider_urn) for r in children.values())
    assert children[NODE_CLASS].inputs["spec"] == {
        "role": "AutoNodes",
        "subnetSelectorTerms": [{"id": "subnet-a1"}, {"id": "subnet-b2"}],
        "securityGroupSelectorTerms": [{"tags": {"aws:eks:cluster-name": "ml"}}],
        "ephemeralStorage": {"size": "200Gi"},
        "tags": {"env": "dev"},
    }
    assert children[NODE_POOL].inputs["spec"]["limits"] == auto_mode.node_pool(spec)["spec"]["limits"]
    assert children[NODE_CLASS].urn in children[NODE_POOL].dependencies
    assert mocked.outputs_of(component)["node_pool_name"] == "gpu"


def test_a_pool_of_another_provisioner_is_refused_before_anything_registers(mocked: CapturingMonitor) -> None:
    args = EksAutoModeGpuPoolArgs(
        pool=build_spec("eks"),
        provider=None,  # type: ignore[arg-type]
        cluster_name="ml",
        node_role="r",
        subnet_ids=(),
    )
    with pytest.raises(SpecError, match="provisioner: eks-auto-mode"):
        EksAutoModeGpuPool("gpu", args)
    mocked.assert_nothing_registered()
