"""The elastic pool components (issue #14) through the provider host: Construct registers what the Python component
registers for the same pool entry and wiring, on the Kubernetes provider given in the resource options; a bad entry,
a pool of another provisioner or a missing provider comes back as a clear error before anything registers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import grpc  # type: ignore[import-untyped]  # no stubs installed
import pulumi
import pulumi_kubernetes as k8s
import pytest
from google.protobuf import json_format  # type: ignore[import-untyped]
from pulumi.runtime.mocks import MockMonitor

from gpuready import (
    AksNapGpuPool,
    AksNapGpuPoolArgs,
    EksAutoModeGpuPool,
    EksAutoModeGpuPoolArgs,
    EksKarpenterGpuPool,
    EksKarpenterGpuPoolArgs,
    GkeComputeClassGpuPool,
    GkeComputeClassGpuPoolArgs,
    GpuNodePoolBase,
)
from gpuready.core.clouds.registry import Cloud
from gpuready.core.pool_config import parse_pools
from gpuready.errors import ConfigError
from tests.package.provider_host import Host, provider_host
from tests.package.test_provider_host import _same_as_python, _stack_problems
from tests.pulumi_mocks import install_mocks

K8S_URN = "urn:pulumi:test::gpuready::pulumi:providers:kubernetes::cluster"
K8S_REF = f"{K8S_URN}::cluster-id"
PROVIDERS = {"kubernetes": K8S_REF}
EKS_WIRING: dict[str, Any] = {
    "clusterName": "prod", "nodeRoleArn": "arn:aws:iam::123456789012:role/gpu",
    "subnetIds": ["subnet-0a1b2c3d", "subnet-0a1b2c3e"],
    "tags": {"team": "ml"},
}  # fmt: skip
L4 = {"name": "l4-shared", "instanceType": "g6.12xlarge", "minSize": 0, "maxSize": 4, "capacity": "spot",
      "sharing": {"mode": "time-slicing", "replicas": 4}}  # fmt: skip
L40S = {"name": "l40s", "instanceType": "g6e.12xlarge", "minSize": 0, "maxSize": 2}
T4 = {"name": "t4nap", "instanceType": "Standard_NC8as_T4_v3", "minSize": 0, "maxSize": 4,
      "sharing": {"mode": "time-slicing", "replicas": 2}}  # fmt: skip
A100 = {"name": "a100-mig", "instanceType": "a2-highgpu-1g", "minSize": 0, "maxSize": 2,
        "sharing": {"mode": "mig", "profile": "1g.5gb"}}  # fmt: skip


def _karpenter(spec: Any, provider: k8s.Provider) -> GpuNodePoolBase:
    return EksKarpenterGpuPool("l4-shared", EksKarpenterGpuPoolArgs(
        pool=spec, provider=provider, cluster_name="prod", node_role=EKS_WIRING["nodeRoleArn"],
        subnet_ids=EKS_WIRING["subnetIds"], tags={"team": "ml"}))  # fmt: skip


def _auto_mode(spec: Any, provider: k8s.Provider) -> GpuNodePoolBase:
    return EksAutoModeGpuPool("l40s", EksAutoModeGpuPoolArgs(
        pool=spec, provider=provider, cluster_name="prod", node_role=EKS_WIRING["nodeRoleArn"],
        subnet_ids=EKS_WIRING["subnetIds"], tags={"team": "ml"}))  # fmt: skip


def _nap(spec: Any, provider: k8s.Provider) -> GpuNodePoolBase:
    return AksNapGpuPool("t4nap", AksNapGpuPoolArgs(pool=spec, provider=provider, tags={"team": "ml"}))


def _compute_class(spec: Any, provider: k8s.Provider) -> GpuNodePoolBase:
    return GkeComputeClassGpuPool("a100-mig", GkeComputeClassGpuPoolArgs(
        pool=spec, provider=provider, service_account="gpu@p.iam.gserviceaccount.com", node_locations=["us-central1-a"],
    ))  # fmt: skip


class Case(NamedTuple):
    component: str
    cloud: Cloud
    provisioner: str
    entry: dict[str, Any]
    """The pool entry, without its provisioner (the component's)."""
    wiring: dict[str, Any]
    build: Callable[[Any, k8s.Provider], GpuNodePoolBase]
    """The Python component for the same spec and wiring."""


CASES = [
    Case("EksKarpenterGpuPool", "eks", "karpenter", L4, EKS_WIRING, _karpenter),
    Case("EksAutoModeGpuPool", "eks", "eks-auto-mode", L40S, EKS_WIRING, _auto_mode),
    Case("AksNapGpuPool", "aks", "nap", T4, {"tags": {"team": "ml"}}, _nap),
    Case("GkeComputeClassGpuPool", "gke", "compute-class", A100,
         {"serviceAccount": "gpu@p.iam.gserviceaccount.com", "nodeLocations": ["us-central1-a"]}, _compute_class),
]  # fmt: skip


@pytest.fixture(scope="module")
def host() -> Iterator[Host]:
    monitor = install_mocks()
    # The engine knows the caller's provider; the SDK looks a provider reference up (pulumi:pulumi:getResource).
    monitor.resources[K8S_URN] = MockMonitor.ResourceRegistration(K8S_URN, "cluster-id", {})
    with provider_host(monitor) as running:
        yield running


@pytest.mark.parametrize("case", CASES, ids=[c.component for c in CASES])
def test_an_elastic_pool_registers_what_the_python_component_registers(host: Host, case: Case) -> None:
    component, cloud, provisioner, entry, wiring = case[:5]
    (spec,) = parse_pools([{**entry, "provisioner": provisioner}], cloud)
    built: list[GpuNodePoolBase] = []
    token = f"gpuready:index:{component}"
    inputs = {"pool": entry, **wiring}
    python = lambda: built.append(case.build(spec, k8s.Provider("cluster")))  # noqa: E731
    response = _same_as_python(host, token, entry["name"], inputs, python, providers=PROVIDERS)
    state = json_format.MessageToDict(response.state)
    values = built[0].values
    assert (state["nodePoolName"], state["nodeSelector"]) == (entry["name"], values.node_selector)
    assert state["gpusPerNode"] == values.gpus_per_node
    children = [r for r in host.monitor.registrations if r.parent.endswith(f"::{token}::{entry['name']}")]
    assert children and all(r.type.startswith("kubernetes:") for r in children)


@pytest.mark.parametrize("case", CASES, ids=[c.component for c in CASES])
def test_bad_entries_come_back_with_the_stack_programs_problems(host: Host, case: Case) -> None:
    component, cloud, provisioner, entry, wiring = case[:5]
    bad = {**entry, "name": f"bad{cloud}", "desiredSize": 1, "maxSize": "four"}
    with pytest.raises(grpc.RpcError) as caught:
        host.construct(f"gpuready:index:{component}", bad["name"], {"pool": bad, **wiring}, PROVIDERS)
    expected = _stack_problems(lambda: parse_pools([{**bad, "provisioner": provisioner}], cloud), "nodePools[0]",
                               "pool")  # fmt: skip
    assert expected
    for problem in expected:
        assert problem in str(caught.value.details())
    assert not [r for r in host.monitor.registrations if r.name == bad["name"]]


def test_a_pool_of_another_provisioner_is_refused(host: Host) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        host.construct("gpuready:index:EksAutoModeGpuPool", "kp", {"pool": {**L4, "name": "kp", "provisioner":
                       "karpenter"}, **EKS_WIRING}, PROVIDERS)  # fmt: skip
    assert "pool.provisioner: EksAutoModeGpuPool makes eks-auto-mode pools; got 'karpenter'" in caught.value.details()
    assert not [r for r in host.monitor.registrations if r.name == "kp"]


def test_without_a_kubernetes_provider_nothing_registers(host: Host) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        host.construct("gpuready:index:AksNapGpuPool", "noprov", {"pool": {**T4, "name": "noprov"}})
    assert "providers: AksNapGpuPool makes Kubernetes objects on the cluster" in caught.value.details()
    assert not [r for r in host.monitor.registrations if r.name == "noprov"]


def test_wiring_an_auto_mode_pool_needs_known_values() -> None:
    from gpuready.package.input_check import plain  # noqa: PLC0415

    with pytest.raises(ConfigError, match="clusterName: must be known"):
        plain(pulumi.Output.from_input("prod"), "clusterName")
