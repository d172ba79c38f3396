"""``install_gpu_stack`` (what the stack program calls): the component a planned ``GpuStackSpec`` names, registering
the plan as made (every release setting), or nothing at all for ``none`` and ``external``; and the components'
arguments carry every release setting into their spec."""

from __future__ import annotations

import pulumi_kubernetes as k8s
import pytest

from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.gpu_stack.kinds import STACK_CHARTS
from gpuready.core.gpu_stack.stack_plan import GpuStackPlan, plan_gpu_stack
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.specs import GpuPoolSpec, GpuSharing
from gpuready.gpu_stack.device_plugin import NvidiaDevicePlugin, NvidiaDevicePluginArgs
from gpuready.gpu_stack.gpu_operator import GpuOperator, GpuOperatorArgs
from gpuready.gpu_stack.gpu_operator_dra import GpuOperatorDra
from gpuready.gpu_stack.install import STACK_COMPONENTS, install_gpu_stack
from gpuready.gpu_stack.release_component import GpuStackRelease
from tests.gpu_stack.conftest import K8S_PROVIDER, RELEASE
from tests.pulumi_mocks import CapturingMonitor, runtime_test

L4 = GpuPoolSpec(
    cloud="eks", name="l4", instance_type="g6.xlarge", min_size=0, max_size=2,
    sharing=GpuSharing(mode="mps", replicas=2),
)  # fmt: skip
BOTTLEROCKET = GpuPoolSpec(
    cloud="eks", name="br", instance_type="g5.2xlarge", min_size=0, max_size=1, image="bottlerocket"
)


def install(spec: GpuStackSpec, pools: list[GpuPoolSpec]) -> list[GpuStackRelease | None]:
    made: list[GpuStackRelease | None] = []
    plan: GpuStackPlan = plan_gpu_stack(cloud_profile("eks"), pools, spec)

    @runtime_test
    def program() -> None:
        provider = k8s.Provider("cluster", kubeconfig="{}")
        made.append(install_gpu_stack("gpu-stack", pools, plan, provider))

    program()
    return made


SETTINGS = {"namespace": "gpu-system", "release_name": "gpu", "chart_version": None, "timeout_seconds": 1200,
            "repository": "https://mirror.example.com/nvidia", "nfd": "existing"}  # fmt: skip


def test_the_arguments_carry_every_release_setting_into_the_spec() -> None:
    operator = GpuOperatorArgs(pools=[L4], mig_reboot=False, **SETTINGS).spec()  # type: ignore[arg-type]
    plugin = NvidiaDevicePluginArgs(pools=[L4], gfd=False, **SETTINGS).spec()  # type: ignore[arg-type]
    assert operator == GpuStackSpec(kind="gpu-operator", mig_reboot=False, **SETTINGS)  # type: ignore[arg-type]
    assert plugin == GpuStackSpec(kind="device-plugin", gfd=False, **SETTINGS)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("spec", "component", "chart"),
    [
        (
            GpuStackSpec(kind="gpu-operator", namespace="gpu-system", release_name="gpu", timeout_seconds=1200,
                         nfd="existing", mig_reboot=False, repository="https://mirror.example.com/nvidia",
                         chart_version="v26.3.3"),
            "gpuready:index:GpuOperator",
            "gpu-operator",
        ),
        (
            GpuStackSpec(kind="device-plugin", namespace="gpu-system", release_name="gpu", timeout_seconds=1200,
                         nfd="existing", gfd=True, repository="https://mirror.example.com/nvdp",
                         chart_version="0.19.3"),
            "gpuready:index:NvidiaDevicePlugin",
            "nvidia-device-plugin",
        ),
    ],
    ids=["gpu-operator", "device-plugin"],
)  # fmt: skip
def test_a_chart_kind_installs_its_component_with_every_setting(
    mocked: CapturingMonitor, spec: GpuStackSpec, component: str, chart: str
) -> None:
    (made,) = install(spec, [L4])

    assert isinstance(made, GpuOperator if spec.kind == "gpu-operator" else NvidiaDevicePlugin)
    assert made.plan.spec == spec
    mocked.one(component)
    release = mocked.one(RELEASE).inputs
    assert (release["chart"], release["name"], release["namespace"], release["version"]) == (
        chart,
        "gpu",
        "gpu-system",
        spec.chart_version,
    )
    assert release["repositoryOpts"] == {"repo": spec.repository}
    assert release["timeout"] == 1200.0
    provider = mocked.one(K8S_PROVIDER)
    assert mocked.one(RELEASE).provider == f"{provider.urn}::{provider.name}_id"


@pytest.mark.parametrize(("kind", "pool"), [("none", BOTTLEROCKET), ("external", L4)], ids=["none", "external"])
def test_none_and_external_install_nothing(mocked: CapturingMonitor, kind: str, pool: GpuPoolSpec) -> None:
    (made,) = install(GpuStackSpec(kind=kind), [pool])

    assert made is None
    assert [r.type for r in mocked.registrations] == [K8S_PROVIDER]


def test_every_chart_kind_has_its_component() -> None:
    assert set(STACK_COMPONENTS) == set(STACK_CHARTS)
    assert {kind: component.TOKEN for kind, component in STACK_COMPONENTS.items()} == {
        "gpu-operator": "gpuready:index:GpuOperator",
        "device-plugin": "gpuready:index:NvidiaDevicePlugin",
        "dra-driver": "gpuready:index:NvidiaDraDriver",
        "gpu-operator-dra": "gpuready:index:GpuOperatorDra",
    }


def test_the_gpu_cluster_kind_installs_the_operator_with_its_gpu_cluster(mocked: CapturingMonitor) -> None:
    dra = GpuPoolSpec(cloud="eks", name="h100", instance_type="p5.48xlarge", min_size=0, max_size=2, advertise="dra")
    (made,) = install(GpuStackSpec(kind="gpu-operator-dra", cluster_version="1.34"), [dra])

    assert isinstance(made, GpuOperatorDra)
    mocked.one("gpuready:index:GpuOperatorDra")
    release = mocked.one(RELEASE).inputs
    assert (release["chart"], release["namespace"]) == ("gpu-operator", "gpu-operator")
    assert release["values"]["gpuCluster"] == {"deployCR": True}
    assert release["values"]["clusterPolicy"] == {"deployCR": False}
