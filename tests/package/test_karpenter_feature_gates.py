"""The Karpenter pool component of the package takes the cluster's Karpenter feature gates (``karpenterFeatureGates``,
the stack key ``gpuready:karpenterFeatureGates``), over the provider protocol: with ``NodeOverlay`` a pool whose GPUs
Karpenter cannot see registers what the Python component registers for that cluster, NodeOverlay included; without
it the pool is refused as the stack program refuses it; bad gates come back with the stack key's wording; nothing
registers on a refusal."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import grpc  # type: ignore[import-untyped]  # no stubs installed
import pulumi_kubernetes as k8s
import pytest
from google.protobuf import json_format  # type: ignore[import-untyped]
from pulumi.runtime.mocks import MockMonitor

from gpuready import EksKarpenterGpuPool, EksKarpenterGpuPoolArgs, GpuNodePoolBase
from gpuready.core.pool_config import parse_pools
from gpuready.core.scale_path.model import ClusterFacts
from gpuready.core.stack_settings import parse_stack_settings
from gpuready.errors import ConfigError
from tests.package.provider_host import Host, provider_host
from tests.package.test_elastic_pools import EKS_WIRING, K8S_REF, K8S_URN, L40S, PROVIDERS
from tests.package.test_provider_host import _same_as_python, _stack_problems
from tests.pulumi_mocks import install_mocks

TOKEN = "gpuready:index:EksKarpenterGpuPool"
H100_MIG = {"name": "h100", "instanceType": "p5.48xlarge", "minSize": 0, "maxSize": 1,
            "sharing": {"mode": "mig", "profile": "1g.10gb", "strategy": "mixed"}}  # fmt: skip
OVERLAY = ClusterFacts(karpenter_feature_gates=frozenset({"NodeOverlay"}))


@pytest.fixture(scope="module")
def host() -> Iterator[Host]:
    monitor = install_mocks()
    monitor.resources[K8S_URN] = MockMonitor.ResourceRegistration(K8S_URN, "cluster-id", {})
    with provider_host(monitor) as running:
        yield running


def _registered(host: Host, name: str) -> list[Any]:
    return [r for r in host.monitor.registrations if r.name == name or r.name.startswith(f"{name}-")]


def test_with_the_node_overlay_gate_the_pool_registers_its_node_overlay(host: Host) -> None:
    (spec,) = parse_pools([{**H100_MIG, "provisioner": "karpenter"}], "eks", cluster=OVERLAY)
    built: list[GpuNodePoolBase] = []

    def python() -> None:
        built.append(EksKarpenterGpuPool("h100", EksKarpenterGpuPoolArgs(
            pool=spec, provider=k8s.Provider("cluster"), cluster_name="prod", node_role=EKS_WIRING["nodeRoleArn"],
            subnet_ids=EKS_WIRING["subnetIds"], tags={"team": "ml"}, cluster=OVERLAY)))  # fmt: skip

    inputs = {"pool": H100_MIG, **EKS_WIRING, "karpenterFeatureGates": ["NodeOverlay"]}
    response = _same_as_python(host, TOKEN, "h100", inputs, python, providers=PROVIDERS)
    state = json_format.MessageToDict(response.state)
    assert state["scales"] == built[0].values.scales and state["scales"].startswith("yes")
    overlays = [r for r in host.monitor.registrations if r.type == "kubernetes:karpenter.sh/v1alpha1:NodeOverlay"]
    assert [r.name for r in overlays] == ["h100-node-overlay"]  # before: the package never made one


def test_without_the_gate_the_pool_is_refused_as_the_stack_program_refuses_it(host: Host) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        host.construct(TOKEN, "h100-off", {"pool": {**H100_MIG, "name": "h100-off"}, **EKS_WIRING}, PROVIDERS)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    expected = _stack_problems(
        lambda: parse_pools([{**H100_MIG, "name": "h100-off", "provisioner": "karpenter"}], "eks", "pool"),
        "pool[0]", "pool",
    )  # fmt: skip
    assert expected and all(problem in caught.value.details() for problem in expected)
    assert "karpenterFeatureGates: [NodeOverlay]" in caught.value.details()
    assert not _registered(host, "h100-off")


@pytest.mark.parametrize(
    ("gates", "path"),
    [(["nodeOverlay"], "karpenterFeatureGates[0]"), (["NodeOverlay", "DRA"], "karpenterFeatureGates[1]")],
)
def test_bad_gates_come_back_with_the_stack_keys_wording(host: Host, gates: list[str], path: str) -> None:
    name = f"gates-{len(gates)}"
    with pytest.raises(grpc.RpcError) as caught:
        host.construct(TOKEN, name, {"pool": {**H100_MIG, "name": name}, **EKS_WIRING, "karpenterFeatureGates": gates},
                       PROVIDERS)  # fmt: skip
    with pytest.raises(ConfigError) as stack:
        parse_stack_settings({
            "cloud": "eks", "clusterName": "prod", "eksNodeRoleArn": EKS_WIRING["nodeRoleArn"],
            "eksSubnetIds": json.dumps(EKS_WIRING["subnetIds"]), "karpenterFeatureGates": json.dumps(gates),
            "nodePools": json.dumps([{**H100_MIG, "provisioner": "karpenter"}]),
        })  # fmt: skip
    (problem,) = [p for p in stack.value.problems if "karpenterFeatureGates" in p.path]
    assert f"{path}: " + str(problem).split(": ", 1)[1] in caught.value.details()
    assert not _registered(host, name)


def test_gates_that_are_not_a_list_are_refused(host: Host) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        host.construct(TOKEN, "gates-str", {"pool": {**H100_MIG, "name": "gates-str"}, **EKS_WIRING,
                                            "karpenterFeatureGates": "NodeOverlay"}, PROVIDERS)  # fmt: skip
    assert "karpenterFeatureGates: must be a list of Karpenter feature gates" in caught.value.details()
    assert not _registered(host, "gates-str")


def test_a_component_whose_autoscaler_is_not_karpenter_takes_no_gates(host: Host) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        host.construct("gpuready:index:EksAutoModeGpuPool", "am", {"pool": {**L40S, "name": "am"}, **EKS_WIRING,
                       "karpenterFeatureGates": ["NodeOverlay"]}, {"kubernetes": K8S_REF})  # fmt: skip
    assert "karpenterFeatureGates: EksAutoModeGpuPool takes no Karpenter feature gates" in caught.value.details()
    assert not _registered(host, "am")
