"""``gpuStack.health`` on the chart components and through the package (issue #29): Construct registers what the
Python component registers, the EKS node monitoring agent add-on included, with the stack program's add-on
arguments; bad settings come back with the stack program's words, before anything registers."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import grpc  # type: ignore[import-untyped]  # no stubs installed
import pytest

from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.config_model.parsers import parse_gpu_stack
from gpuready.core.gpu_stack.stack_plan import plan_gpu_stack
from gpuready.core.health.agent import HealthSpec
from gpuready.core.health.agent_chart import AGENT_ADDON, AGENT_ADDON_VERSION
from gpuready.core.pool_config import parse_pools
from gpuready.eks.health_agent import addon_args
from gpuready.errors import SpecError
from gpuready.gpu_stack.device_plugin import NvidiaDevicePlugin, NvidiaDevicePluginArgs
from gpuready.gpu_stack.dra_driver import NvidiaDraDriver, NvidiaDraDriverArgs
from gpuready.gpu_stack.gpu_operator import GpuOperator, GpuOperatorArgs
from gpuready.gpu_stack.gpu_operator_dra import GpuOperatorDra, GpuOperatorDraArgs
from tests.package.provider_host import Host, provider_host
from tests.package.test_provider_host import EKS_POOL, _same_as_python
from tests.pulumi_mocks import install_mocks, runtime_test

ADDON_TYPE = "aws:eks/addon:Addon"
AGENT = {"agent": "eks-node-monitoring-agent"}
TAGS = {"team": "ml"}
DRA_POOL = {"name": "h100", "instanceType": "p5.48xlarge", "minSize": 1, "maxSize": 2, "advertise": "dra"}
AKS_POOL = {"name": "batch", "instanceType": "Standard_NC24ads_A100_v4", "minSize": 0, "maxSize": 2}


@pytest.fixture(scope="module")
def host() -> Iterator[Host]:
    with provider_host(install_mocks()) as running:
        yield running


Build = Callable[[Sequence[Any], HealthSpec], object]


class Component(NamedTuple):
    name: str
    kind: str
    pool: dict[str, Any]
    settings: dict[str, Any]
    build: Build


class Refusal(NamedTuple):
    case: str
    component: str
    cloud: str
    pool: dict[str, Any]
    stack: dict[str, Any]
    health: dict[str, Any]


COMPONENTS = [Component(*c) for c in [
    ("GpuOperator", "gpu-operator", EKS_POOL, {}, lambda pools, health: GpuOperator(
        "hc-gpu-operator", GpuOperatorArgs(pools=pools, health=health, cluster_name="prod", tags=TAGS))),
    ("NvidiaDevicePlugin", "device-plugin", EKS_POOL, {}, lambda pools, health: NvidiaDevicePlugin(
        "hc-device-plugin", NvidiaDevicePluginArgs(pools=pools, health=health, cluster_name="prod", tags=TAGS))),
    ("NvidiaDraDriver", "dra-driver", DRA_POOL, {"clusterVersion": "1.34"}, lambda pools, health: NvidiaDraDriver(
        "hc-dra-driver", NvidiaDraDriverArgs(pools=pools, health=health, cluster_version="1.34", cluster_name="prod",
                                             tags=TAGS))),
    ("GpuOperatorDra", "gpu-operator-dra", DRA_POOL, {"clusterVersion": "1.34"}, lambda pools, health: GpuOperatorDra(
        "hc-gpu-operator-dra", GpuOperatorDraArgs(pools=pools, health=health, cluster_version="1.34",
                                                  cluster_name="prod", tags=TAGS))),
]]  # fmt: skip


@pytest.mark.parametrize("case", COMPONENTS, ids=[c.name for c in COMPONENTS])
def test_health_installs_the_stack_programs_add_on_from_every_chart_component(host: Host, case: Component) -> None:
    component, kind, pool, settings, build = case
    pools = parse_pools([pool], "eks")
    name = f"hc-{kind}"
    inputs = {"pools": [pool], "cloud": "eks", "health": AGENT, "clusterName": "prod", "tags": TAGS, **settings}
    _same_as_python(host, f"gpuready:index:{component}", name, inputs, lambda: build(pools, HealthSpec(**AGENT)))
    [addon] = [r for r in host.monitor.registrations if r.type == ADDON_TYPE and r.name == f"{name}-{AGENT_ADDON}"]
    # The stack program's plan for the same gpuStack setting decides the add-on's arguments.
    stack = plan_gpu_stack(cloud_profile("eks"), pools, parse_gpu_stack({"kind": kind, "health": AGENT, **settings}))
    assert stack.agent_values is not None
    expected = addon_args("prod", stack.agent_values, TAGS)
    assert addon.inputs["addonName"] == AGENT_ADDON and addon.inputs["addonVersion"] == AGENT_ADDON_VERSION
    assert addon.inputs["clusterName"] == expected["cluster_name"]
    assert json.loads(addon.inputs["configurationValues"]) == stack.agent_values
    assert addon.inputs["tags"] == TAGS
    assert addon.parent.endswith(f"::gpuready:index:{component}::{name}")


def test_no_agent_installs_no_add_on(host: Host) -> None:
    inputs = {"pools": [EKS_POOL], "cloud": "eks", "health": {"agent": "none"}}
    host.construct("gpuready:index:GpuOperator", "no-agent", inputs)
    assert not [r for r in host.monitor.registrations if r.type == ADDON_TYPE and r.name.startswith("no-agent")]


def test_the_operators_dcgm_serves_the_agent_from_the_component(host: Host) -> None:
    inputs = {"pools": [EKS_POOL], "cloud": "eks", "health": AGENT, "clusterName": "prod"}
    host.construct("gpuready:index:GpuOperator", "op-dcgm", inputs)
    [release] = [r for r in host.monitor.registrations if r.name == "op-dcgm-release"]
    assert release.inputs["values"]["dcgm"] == {"enabled": True}


def _stack_refusal(cloud: str, pool: Mapping[str, Any], gpu_stack: Mapping[str, Any]) -> list[str]:
    """The stack program's problems for ``gpu_stack`` on ``pool`` (its parser, then its plan)."""
    with pytest.raises(SpecError) as caught:
        plan_gpu_stack(cloud_profile(cloud), parse_pools([pool], cloud), parse_gpu_stack(dict(gpu_stack)))
    return [str(p) for p in caught.value.problems]


REFUSALS = [Refusal(*r) for r in [
    ("two-hostengines", "GpuOperator", "eks", EKS_POOL, {"kind": "gpu-operator"},
     {"agent": "eks-node-monitoring-agent", "dcgm": "health-agent"}),
    ("no-operator-dcgm", "NvidiaDevicePlugin", "eks", EKS_POOL, {"kind": "device-plugin"},
     {"agent": "eks-node-monitoring-agent", "dcgm": "gpu-operator"}),
    ("not-this-cloud", "GpuOperator", "aks", AKS_POOL, {"kind": "gpu-operator"},
     {"agent": "eks-node-monitoring-agent"}),
    ("unknown-agent", "GpuOperator", "eks", EKS_POOL, {"kind": "gpu-operator"}, {"agent": "dcgm-exporter"}),
]]  # fmt: skip


@pytest.mark.parametrize("refusal", REFUSALS, ids=[r.case for r in REFUSALS])
def test_a_bad_health_setting_is_refused_in_the_stack_programs_words_and_registers_nothing(
    host: Host, refusal: Refusal
) -> None:
    case, component, cloud, pool, stack, health = refusal
    expected = _stack_refusal(cloud, pool, {**stack, "health": health})
    assert any(p.startswith("gpuStack.health.") for p in expected)
    inputs = {"pools": [pool], "cloud": cloud, "health": health, "clusterName": "prod"}
    with pytest.raises(grpc.RpcError) as caught:
        host.construct(f"gpuready:index:{component}", case, inputs)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    details = str(caught.value.details())
    for problem in expected:
        assert problem in details
    assert not [r for r in host.monitor.registrations if r.name.startswith(case)]


def test_an_agent_without_a_cluster_name_is_refused_before_anything_registers(host: Host) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        host.construct("gpuready:index:GpuOperator", "nameless", {"pools": [EKS_POOL], "cloud": "eks", "health": AGENT})
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "clusterName: the health agent eks-node-monitoring-agent is an add-on of a cluster" in str(
        caught.value.details()
    )
    assert not [r for r in host.monitor.registrations if r.name.startswith("nameless")]


def test_the_python_component_refuses_a_nameless_agent_before_registering() -> None:
    monitor = install_mocks()
    pools = parse_pools([EKS_POOL], "eks")

    def program() -> None:
        with pytest.raises(SpecError, match="clusterName: the health agent"):
            GpuOperator("nameless", GpuOperatorArgs(pools=pools, health=HealthSpec(**AGENT)))

    runtime_test(program)()
    assert not [r for r in monitor.registrations if r.name.startswith("nameless")]
