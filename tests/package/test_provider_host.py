"""The provider host over the provider gRPC protocol, as ``pulumi package add`` and the engine drive it:
Construct registers exactly what the Python component registers for the same inputs, and bad inputs come back
with the stack program's problem text, before anything registers."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import grpc  # type: ignore[import-untyped]  # no stubs installed
import pulumi
import pytest
from google.protobuf import json_format  # type: ignore[import-untyped]

from gpuready.aks.node_pool import AksGpuNodePool, AksGpuNodePoolArgs
from gpuready.core.config_model.parsers import parse_binpack, parse_gpu_stack
from gpuready.core.conventions import Conventions
from gpuready.core.pool_config import parse_pools
from gpuready.core.taints import Taint
from gpuready.eks.node_pool import EksGpuNodePool, EksGpuNodePoolArgs
from gpuready.errors import ConfigError, SpecError
from gpuready.gke.node_pool import GkeGpuNodePool, GkeGpuNodePoolArgs
from gpuready.gpu_stack.dra_driver import NvidiaDraDriver, NvidiaDraDriverArgs
from gpuready.gpu_stack.gpu_operator import GpuOperator, GpuOperatorArgs
from gpuready.gpu_stack.gpu_operator_dra import GpuOperatorDra, GpuOperatorDraArgs
from gpuready.scheduler.binpack_scheduler import GpuBinPackingScheduler, GpuBinPackingSchedulerArgs
from tests.package.provider_host import Host, provider_host
from tests.pulumi_mocks import CapturingMonitor, Registration, install_mocks, runtime_test

EKS_POOL = {"name": "train", "instanceType": "p4d.24xlarge", "minSize": 0, "maxSize": 4, "labels": {"team": "ml"},
            "sharing": {"mode": "time-slicing", "replicas": 4}}  # fmt: skip
EKS_WIRING: dict[str, Any] = {
    "clusterName": "prod",
    "nodeRoleArn": "arn:aws:iam::123456789012:role/gpu",
    "subnetIds": ["subnet-1"],
}
AKS_POOL = {"name": "batch", "instanceType": "Standard_NC24ads_A100_v4", "minSize": 0, "maxSize": 2}
AKS_WIRING = {"resourceGroupName": "rg", "clusterName": "prod"}
GKE_POOL = {"name": "infer", "instanceType": "g2-standard-8", "minSize": 1, "maxSize": 3}
GKE_WIRING = {"clusterName": "prod", "location": "us-central1-a"}


@pytest.fixture(scope="module")
def host() -> Iterator[Host]:
    with provider_host(install_mocks()) as running:
        yield running


def _shape(registrations: list[Registration], component: str) -> list[tuple[str, str, str, Any]]:
    """Type, name, parent's last URN part and inputs of the component ``component`` and its children."""
    by_urn = {r.urn: r for r in registrations}
    mine = [
        r for r in registrations if r.name == component or (r.parent in by_urn and by_urn[r.parent].name == component)
    ]
    rows = [(r.type, r.name, r.parent.rsplit("::", 1)[-1] if r.parent in by_urn else "", r.inputs) for r in mine]
    return sorted(rows, key=lambda row: (row[0], row[1]))


def _python_registrations(build: Callable[[], object]) -> CapturingMonitor:
    monitor = install_mocks()
    runtime_test(build)()
    return monitor


def _same_as_python(
    host: Host, token: str, name: str, inputs: Mapping[str, Any], build: Callable[[], object], *,
    providers: Mapping[str, str] | None = None,
) -> Any:  # fmt: skip
    response = host.construct(token, name, inputs, providers)
    python = _python_registrations(build)
    remote = _shape(host.monitor.registrations, name)
    assert remote, f"Construct registered nothing for {name}"
    assert remote == _shape(python.registrations, name)
    assert response.urn.endswith(f"::{token}::{name}")
    return response


def test_an_eks_pool_registers_what_the_python_component_registers(host: Host) -> None:
    (spec,) = parse_pools([EKS_POOL], "eks")
    built: list[EksGpuNodePool] = []
    response = _same_as_python(
        host, "gpuready:index:EksGpuNodePool", "train", {"pool": EKS_POOL, **EKS_WIRING},
        lambda: built.append(EksGpuNodePool("train", EksGpuNodePoolArgs(
            pool=spec, cluster_name="prod", node_role_arn=EKS_WIRING["nodeRoleArn"], subnet_ids=["subnet-1"]))),
    )  # fmt: skip
    state = json_format.MessageToDict(response.state)
    values = built[0].values
    assert (state["resourceName"], state["nodeSelector"]) == (values.resource_name, values.node_selector)
    assert state["gpusPerNode"] == values.gpus_per_node


def test_an_aks_pool_registers_what_the_python_component_registers(host: Host) -> None:
    (spec,) = parse_pools([AKS_POOL], "aks")
    _same_as_python(
        host, "gpuready:index:AksGpuNodePool", "batch", {"pool": AKS_POOL, **AKS_WIRING},
        lambda: AksGpuNodePool("batch", AksGpuNodePoolArgs(pool=spec, resource_group_name="rg", cluster_name="prod")),
    )  # fmt: skip


def test_a_gke_pool_registers_what_the_python_component_registers(host: Host) -> None:
    (spec,) = parse_pools([GKE_POOL], "gke")
    _same_as_python(
        host, "gpuready:index:GkeGpuNodePool", "infer", {"pool": GKE_POOL, **GKE_WIRING},
        lambda: GkeGpuNodePool("infer", GkeGpuNodePoolArgs(pool=spec, cluster_name="prod", location="us-central1-a")),
    )  # fmt: skip


SKU = Conventions(gpu_taint=Taint("sku", "gpu", "NoSchedule"), skypilot_labels=False)
SKU_INPUTS = {"gpuTaint": "sku=gpu:NoSchedule", "skypilotLabels": False}


def test_a_pool_takes_the_teams_conventions_as_the_python_component_does(host: Host) -> None:
    (spec,) = parse_pools([AKS_POOL], "aks", conventions=SKU)
    _same_as_python(
        host, "gpuready:index:AksGpuNodePool", "sku-batch", {"pool": AKS_POOL, **AKS_WIRING, **SKU_INPUTS},
        lambda: AksGpuNodePool("sku-batch", AksGpuNodePoolArgs(pool=spec, resource_group_name="rg",
                                                               cluster_name="prod")),
    )  # fmt: skip
    (agent_pool,) = [r for r in host.monitor.registrations if r.type.endswith(":AgentPool") and "sku" in r.name]
    assert agent_pool.inputs["nodeTaints"] == ["sku=gpu:NoSchedule"]
    assert "skypilot.co/accelerator" not in agent_pool.inputs["nodeLabels"]


def test_a_release_takes_the_teams_conventions_as_the_python_component_does(host: Host) -> None:
    pools = parse_pools([EKS_POOL], "eks", conventions=SKU)
    _same_as_python(
        host, "gpuready:index:GpuOperator", "sku-operator", {"pools": [EKS_POOL], "cloud": "eks", **SKU_INPUTS},
        lambda: GpuOperator("sku-operator", GpuOperatorArgs(pools=pools)),
    )  # fmt: skip
    (release,) = [r for r in host.monitor.registrations if r.type.endswith(":Release") and "sku" in r.name]
    assert {"key": "sku", "operator": "Exists", "effect": "NoSchedule"} in release.inputs["values"]["daemonsets"][
        "tolerations"
    ]


def test_a_bad_gpu_taint_input_is_refused_naming_it(host: Host) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        host.construct("gpuready:index:AksGpuNodePool", "bad-taint", {"pool": AKS_POOL, **AKS_WIRING,
                                                                       "gpuTaint": "sku=gpu:Sometimes"})  # fmt: skip
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "gpuTaint: is not a taint" in str(caught.value.details())
    assert not [r for r in host.monitor.registrations if r.name == "bad-taint"]


def test_the_gpu_operator_registers_what_the_python_component_registers(host: Host) -> None:
    pools = parse_pools([EKS_POOL], "eks")
    settings = {"namespace": "gpu", "migReboot": False}
    spec = parse_gpu_stack({"kind": "gpu-operator", **settings})
    response = _same_as_python(
        host, "gpuready:index:GpuOperator", "operator", {"pools": [EKS_POOL], "cloud": "eks", **settings},
        lambda: GpuOperator("operator", GpuOperatorArgs(pools=pools, namespace=spec.namespace, mig_reboot=False)),
    )  # fmt: skip
    assert json_format.MessageToDict(response.state)["namespace"] == "gpu"


def test_the_dra_driver_registers_what_the_python_component_registers(host: Host) -> None:
    dra_pool = {"name": "h100", "instanceType": "p5.48xlarge", "minSize": 1, "maxSize": 2, "advertise": "dra"}
    pools = parse_pools([dra_pool], "eks")
    settings = {"clusterVersion": "1.34", "namespace": "dra"}
    response = _same_as_python(
        host, "gpuready:index:NvidiaDraDriver", "dra", {"pools": [dra_pool], "cloud": "eks", **settings},
        lambda: NvidiaDraDriver("dra", NvidiaDraDriverArgs(pools=pools, cluster_version="1.34", namespace="dra")),
    )  # fmt: skip
    state = json_format.MessageToDict(response.state)
    assert (state["chart"], state["namespace"]) == ("dra-driver-nvidia-gpu", "dra")


def test_the_gpu_cluster_operator_registers_what_the_python_component_registers(host: Host) -> None:
    dra_pool = {"name": "h100", "instanceType": "p5.48xlarge", "minSize": 1, "maxSize": 2, "advertise": "dra"}
    pools = parse_pools([dra_pool], "eks")
    settings = {"clusterVersion": "1.34", "monitoring": True}
    response = _same_as_python(
        host, "gpuready:index:GpuOperatorDra", "gpu-cluster", {"pools": [dra_pool], "cloud": "eks", **settings},
        lambda: GpuOperatorDra("gpu-cluster", GpuOperatorDraArgs(pools=pools, cluster_version="1.34", monitoring=True)),
    )  # fmt: skip
    state = json_format.MessageToDict(response.state)
    assert (state["chart"], state["namespace"]) == ("gpu-operator", "gpu-operator")


def test_the_scheduler_registers_what_the_python_component_registers(host: Host) -> None:
    settings = {"kubeSchedulerVersion": "v1.33.4", "replicas": 2}
    spec = parse_binpack(settings, ())
    _same_as_python(
        host, "gpuready:index:GpuBinPackingScheduler", "binpack", settings,
        lambda: GpuBinPackingScheduler("binpack", GpuBinPackingSchedulerArgs(scheduler=spec)),
    )  # fmt: skip


def _stack_problems(parse: Callable[[], object], old: str, new: str) -> list[str]:
    """The stack program's problems, each as text with its path moved from ``old`` to ``new``."""
    with pytest.raises(ConfigError) as caught:
        parse()
    return [new + str(p).removeprefix(old) for p in caught.value.problems]


@pytest.mark.parametrize(
    ("token", "name", "inputs", "stack_problems"),
    [
        (
            "gpuready:index:EksGpuNodePool", "bad-pool",
            {"pool": {**EKS_POOL, "minSize": "two", "sharing": {"mode": "shared"}, "instanceTyp": "x"}, **EKS_WIRING},
            lambda: _stack_problems(lambda: parse_pools(
                [{**EKS_POOL, "minSize": "two", "sharing": {"mode": "shared"}, "instanceTyp": "x"}], "eks"),
                "nodePools[0]", "pool"),
        ),
        (
            "gpuready:index:GpuOperator", "bad-operator", {"pools": [EKS_POOL], "cloud": "eks", "nfd": "maybe"},
            lambda: _stack_problems(lambda: parse_gpu_stack({"kind": "gpu-operator", "nfd": "maybe"}), "gpuStack.", ""),
        ),
        (
            "gpuready:index:GpuBinPackingScheduler", "bad-scheduler", {"replicas": 1.5, "schedulerNam": "x"},
            lambda: _stack_problems(
                lambda: parse_binpack({"replicas": 1.5, "schedulerNam": "x"}, ()), "binpackScheduler.", ""),
        ),
    ],
)  # fmt: skip
def test_bad_inputs_come_back_with_the_stack_programs_problems(
    host: Host, token: str, name: str, inputs: Mapping[str, Any], stack_problems: Callable[[], list[str]]
) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        host.construct(token, name, inputs)
    details = str(caught.value.details())
    expected = stack_problems()
    assert expected
    for problem in expected:
        assert problem in details
    assert not [r for r in host.monitor.registrations if r.name == name]


def test_an_unknown_component_is_refused_naming_the_known_ones(host: Host) -> None:
    with pytest.raises(grpc.RpcError, match=r"gpuready has no component gpuready:index:Nope; known: .*EksGpuNodePool"):
        host.construct("gpuready:index:Nope", "x", {})


def test_the_host_serves_the_committed_schema(host: Host) -> None:
    from gpuready.package.schema import SCHEMA_FILE  # noqa: PLC0415

    assert host.schema() == SCHEMA_FILE.read_text()
    assert pulumi.__name__ == "pulumi"


# minSize 1: a DRA node group cannot scale from zero on EKS (#24), so a pool at 0 would be refused for that instead.
DRA_POOL = {"name": "dra", "instanceType": "g6.12xlarge", "minSize": 1, "maxSize": 2, "advertise": "dra"}


def _device_plugin_refusal() -> list[str]:
    from gpuready.gpu_stack.device_plugin import NvidiaDevicePluginArgs  # noqa: PLC0415
    from gpuready.gpu_stack.release_component import make_plan  # noqa: PLC0415

    pools = parse_pools([DRA_POOL], "eks")
    with pytest.raises(SpecError) as caught:
        make_plan(pools, NvidiaDevicePluginArgs(pools=pools).spec())
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize(
    ("token", "name", "inputs", "expected"),
    [
        ("gpuready:index:NvidiaDevicePlugin", "dra-to-plugin", {"pools": [DRA_POOL], "cloud": "eks"},
         _device_plugin_refusal),
        ("gpuready:index:EksGpuNodePool", "no-wiring", {"pool": EKS_POOL},
         lambda: ["clusterName: is required by EksGpuNodePool", "nodeRoleArn: is required by EksGpuNodePool",
                  "subnetIds: is required by EksGpuNodePool"]),
        ("gpuready:index:GpuOperator", "no-cloud", {"pools": [EKS_POOL]},
         lambda: ["cloud: is required by GpuOperator"]),
    ],
    ids=["dra-pool-to-device-plugin", "missing-wiring", "missing-cloud"],
)  # fmt: skip
def test_every_refusal_is_invalid_argument_with_the_stack_programs_words_and_registers_nothing(
    host: Host, token: str, name: str, inputs: Mapping[str, Any], expected: Callable[[], list[str]]
) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        host.construct(token, name, inputs)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # was UNKNOWN, with a Python traceback
    details = str(caught.value.details())
    assert "Traceback" not in details and 'File "' not in details
    for problem in expected():
        assert problem in details
    assert not [r for r in host.monitor.registrations if r.name.startswith(name)]
