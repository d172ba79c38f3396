"""A fabric pool's node must advertise its fabric devices: EFA interfaces on EKS, RDMA devices on AKS (none on GKE)."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.aks.network_operator import RDMA_HCA_MAX, RDMA_RESOURCE
from gpuready.core import pool_config
from gpuready.core.fabric.model import FabricNetwork, FabricSpec
from gpuready.core.scheduling import pool_labels
from gpuready.core.specs import GpuPoolSpec
from gpuready.eks.fabric_facts import EFA_RESOURCE, EFA_TYPES
from gpuready.verify.checks import check_node
from gpuready.verify.expectations import expectation_for, infer_expectation
from gpuready.verify.fabric import check_fabric
from gpuready.verify.nodes import NodeView
from gpuready.verify_hook.wire import expectation_from_data, expectation_to_data
from tests.verify.conftest import GPU_TAINT, view

# Every EFA type of the catalog (each can be a pool of its own).
EFA_TYPE_NAMES = sorted(EFA_TYPES)


def efa_pool(instance_type: str = "p5.48xlarge") -> GpuPoolSpec:
    entry = {"name": "train", "instanceType": instance_type, "minSize": 0, "maxSize": 2, "fabric": "efa",
             "zones": ["us-east-1a"]}  # fmt: skip
    (spec,) = pool_config.parse_pools([entry], "eks")
    return spec


def ib_pool() -> GpuPoolSpec:
    return GpuPoolSpec(cloud="aks", name="train", instance_type="Standard_ND96isr_H100_v5", min_size=0, max_size=2,
                       image="ubuntu", driver="operator", fabric=FabricSpec(kind="infiniband"))  # fmt: skip


def tcpxo_pool() -> GpuPoolSpec:
    networks = tuple(FabricNetwork(network=f"net-{i}", subnetwork=f"sub-{i}") for i in range(8))
    return GpuPoolSpec(cloud="gke", name="train", instance_type="a3-megagpu-8g", min_size=0, max_size=2,
                       fabric=FabricSpec(kind="gpudirect-tcpxo", networks=networks))  # fmt: skip


def pool_node(spec: GpuPoolSpec, resources: dict[str, int], **labels: str) -> NodeView:
    gpus = {"nvidia.com/gpu": spec.resolved.gpu.gpus}
    return view("train-1", labels={**pool_labels(spec), **labels}, taints=(GPU_TAINT,),
                capacity={**gpus, **resources})  # fmt: skip


@pytest.mark.parametrize("instance_type", EFA_TYPE_NAMES)
def test_an_efa_pool_expects_every_interface_its_launch_template_attaches(instance_type: str) -> None:
    fabric = expectation_for(efa_pool(instance_type)).fabric
    assert fabric is not None
    assert (fabric.kind, dict(fabric.resources)) == ("efa", {EFA_RESOURCE: EFA_TYPES[instance_type].devices})
    assert "EFA device plugin" in fabric.missing_cause and "kubectl -n kube-system get pods" in fabric.fix


def test_pools_without_a_node_visible_fabric_expect_none() -> None:
    plain = GpuPoolSpec(cloud="eks", name="gpu", instance_type="p5.48xlarge", min_size=0, max_size=2)
    assert expectation_for(plain).fabric is None  # an EFA-capable type without fabric: nothing to advertise
    assert expectation_for(tcpxo_pool()).fabric is None  # GKE GPUDirect pods request no node resource


# (id, pool, the node's fabric resources, expected codes, words of the cause)
# fmt: off
CASES: list[tuple[str, GpuPoolSpec, dict[str, int], list[str], str]] = [
    ("efa-all-32", efa_pool(), {EFA_RESOURCE: 32}, [], ""),
    ("efa-plugin-absent", efa_pool(), {}, ["fabric-not-advertised"], "EFA device plugin is not running"),
    ("efa-zero", efa_pool(), {EFA_RESOURCE: 0}, ["fabric-not-advertised"], "EFA device plugin is not running"),
    ("efa-half", efa_pool(), {EFA_RESOURCE: 16}, ["fabric-devices-short"], "fewer EFA interfaces"),
    ("p5en-16", efa_pool("p5en.48xlarge"), {EFA_RESOURCE: 16}, [], ""),
    ("ib-all", ib_pool(), {RDMA_RESOURCE: RDMA_HCA_MAX}, [], ""),
    ("ib-absent", ib_pool(), {}, ["fabric-not-advertised"], "Network Operator"),
    ("ib-short", ib_pool(), {RDMA_RESOURCE: 1}, ["fabric-devices-short"], "rdmaHcaMax"),
]
# fmt: on


@pytest.mark.parametrize(("spec", "resources", "codes", "cause"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_fabric_findings(spec: GpuPoolSpec, resources: dict[str, int], codes: list[str], cause: str) -> None:
    node = pool_node(spec, resources)
    found = check_fabric(node, expectation_for(spec))
    assert [f.code for f in found] == codes
    for finding in found:
        assert finding.severity == "error" and cause in finding.cause
        assert "TCP sockets" in finding.cause or "never schedules" in finding.cause
        assert "{node}" not in finding.fix and "train-1" in finding.fix and "kubectl " in finding.fix
        assert finding.reproduce == "kubectl get node train-1 -o jsonpath='{.status.allocatable}'"


def test_check_node_reports_the_fabric_beside_the_other_findings() -> None:
    spec = efa_pool()
    assert check_node(pool_node(spec, {EFA_RESOURCE: 32}), expectation_for(spec)) == []
    found = check_node(pool_node(spec, {}), expectation_for(spec))
    assert [f.code for f in found] == ["fabric-not-advertised"]
    assert found[0].transient  # the device plugin starts after the node joins: verify waits for it
    assert found[0].message == f"efa {EFA_RESOURCE}: not advertised; expected 32"


# (id, instance type label, capacity, expected codes): a node no pool owns (``gpuready check``).
# fmt: off
FOREIGN: list[tuple[str, str, dict[str, int], list[str]]] = [
    ("p5-without-efa-plugin-is-no-finding", "p5.48xlarge", {}, []),
    ("p5-with-all-interfaces", "p5.48xlarge", {EFA_RESOURCE: 32}, []),
    ("p5-with-8-interfaces", "p5.48xlarge", {EFA_RESOURCE: 8}, ["fabric-devices-short"]),
    ("nd-h100-rdma-short", "standard_nd96isr_h100_v5", {RDMA_RESOURCE: 1}, ["fabric-devices-short"]),
    ("g6-has-no-fabric-table-entry", "g6.xlarge", {EFA_RESOURCE: 0}, []),
]
# fmt: on


@pytest.mark.parametrize(("instance_type", "capacity", "codes"), [c[1:] for c in FOREIGN], ids=[c[0] for c in FOREIGN])
def test_a_foreign_node_is_held_to_its_type_once_a_fabric_plugin_registered(
    instance_type: str, capacity: dict[str, int], codes: list[str]
) -> None:
    node = view("n", labels={"node.kubernetes.io/instance-type": instance_type}, capacity=capacity)
    expectation = infer_expectation(node, None)
    found = check_fabric(node, expectation)
    assert [f.code for f in found] == codes
    assert all(f.severity == "warning" for f in found)


@pytest.mark.parametrize("spec", [efa_pool(), ib_pool()], ids=["efa", "infiniband"])
def test_the_fabric_expectation_crosses_the_wire(spec: GpuPoolSpec) -> None:
    expectation = expectation_for(spec)
    data: dict[str, Any] = expectation_to_data(expectation)
    assert expectation_from_data(data) == expectation
    floats = {
        **data,
        "fabric": {**data["fabric"], "resources": {k: float(v) for k, v in data["fabric"]["resources"].items()}},
    }
    assert expectation_from_data(floats) == expectation  # Pulumi's wire sends numbers as doubles


def test_a_pool_without_fabric_keeps_its_wire_data() -> None:
    assert "fabric" not in expectation_to_data(expectation_for(tcpxo_pool()))


def test_a_bad_fabric_kind_on_the_wire_is_refused() -> None:
    data = expectation_to_data(expectation_for(efa_pool()))
    with pytest.raises(ValueError, match=r"fabric\.kind: not a fabric kind; got .ethernet."):
        expectation_from_data({**data, "fabric": {**data["fabric"], "kind": "ethernet"}})
