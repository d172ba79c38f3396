"""DRA nodes converge on their ResourceSlices: devices counted per driver and node (newest pool generation), and a
node without slices reported with its likely cause and a fix command."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.scheduling import pool_labels, pool_taints
from gpuready.core.taints import Taint
from gpuready.verify import findings as f
from gpuready.verify.audit import audit
from gpuready.verify.dra_slices import DeviceSlices, device_slices, needs_slices, with_slices
from gpuready.verify.expectations import expectation_for
from gpuready.verify.nodes import NodeView
from tests.core.conftest import build_spec
from tests.kube_standin import make_resource_slice

DRA_SPEC = build_spec("eks", name="dra", instance_type="g6.12xlarge", advertise="dra")
EXPECTATIONS = {"dra": expectation_for(DRA_SPEC)}
GPU, DOMAINS = "gpu.nvidia.com", "compute-domain.nvidia.com"
NFD = {"feature.node.kubernetes.io/pci-10de.present": "true"}


def slice_(
    node: str, devices: int, *, driver: str = "gpu.nvidia.com", generation: int = 1, pool: str = ""
) -> dict[str, Any]:
    made = make_resource_slice(node, devices, driver=driver, generation=generation)
    if pool:
        made["spec"]["pool"]["name"] = pool
    return made


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (None, DeviceSlices(served=False)),
        ([], DeviceSlices(served=True, devices={})),
        ([slice_("n1", 4)], DeviceSlices(served=True, devices={("gpu.nvidia.com", "n1"): 4})),
        ([slice_("n1", 2), slice_("n1", 2, pool="second")], DeviceSlices(True, {("gpu.nvidia.com", "n1"): 4})),
        ([slice_("n1", 4, generation=1), slice_("n1", 3, generation=2)], DeviceSlices(True, {(GPU, "n1"): 3})),
        ([slice_("n1", 1, driver=DOMAINS)], DeviceSlices(True, {(DOMAINS, "n1"): 1})),
        ([{"spec": {"driver": "gpu.nvidia.com"}}, {"kind": "junk"}, "x"], DeviceSlices(True, {})),
    ],
)  # fmt: skip
def test_devices_are_counted_per_driver_and_node(raw: Any, expected: DeviceSlices) -> None:
    assert device_slices(raw) == expected


def dra_node(name: str = "n1", labels: dict[str, str] | None = None, taints: tuple[Taint, ...] = ()) -> NodeView:
    return NodeView(name=name, labels={**pool_labels(DRA_SPEC), **NFD, **(labels or {})},
                    taints=(*pool_taints(DRA_SPEC), *taints))  # fmt: skip


@pytest.mark.parametrize(
    ("view", "slices", "code", "text"),
    [
        (dra_node(), DeviceSlices(True, {("gpu.nvidia.com", "n1"): 4}), None, None),
        (dra_node(), DeviceSlices(False), f.DRA_SLICES_MISSING, "Kubernetes older than 1.34"),
        (dra_node(labels={"feature.node.kubernetes.io/pci-10de.present": ""}), DeviceSlices(True),
         f.DRA_SLICES_MISSING, "kubectl label node n1 feature.node.kubernetes.io/pci-10de.present=true"),
        (dra_node(labels={"feature.node.kubernetes.io/pci-10de.present": "",
                          "feature.node.kubernetes.io/pci-0302_10de.present": "true"}),
         DeviceSlices(True), f.DRA_SLICES_MISSING, "not ready on this node"),
        (dra_node(taints=(Taint("dedicated", "ml", "NoSchedule"),)), DeviceSlices(True, {("gpu.nvidia.com", "n2"): 4}),
         f.DRA_SLICES_MISSING, "does not tolerate the node's taint dedicated=ml:NoSchedule"),
        (dra_node(), DeviceSlices(True, {("other.example.com", "n1"): 4}), f.DRA_SLICES_MISSING, "not ready"),
        (dra_node(labels={"nvidia.com/gpu.deploy.dra-driver": "false"}), DeviceSlices(True), f.DRA_SLICES_MISSING,
         "kubectl label node n1 nvidia.com/gpu.deploy.dra-driver=true --overwrite"),
        (dra_node(), DeviceSlices(True, {("gpu.nvidia.com", "n1"): 3}), f.DRA_DEVICES_MISSING, "got 3, expected 4"),
    ],
)  # fmt: skip
def test_a_dra_node_converges_on_its_slices(
    view: NodeView, slices: DeviceSlices, code: str | None, text: str | None
) -> None:
    report = audit([view], EXPECTATIONS)
    assert needs_slices(report)
    assert report.results[0].converged  # the node itself is fine; only its slices decide
    checked = with_slices(report, slices)
    found = [x for x in checked.findings if x.code.startswith("dra-")]
    if code is None:
        assert found == [] and checked.done
        return
    (finding,) = found
    assert finding.code == code and finding.severity == "error" and not checked.done
    assert text is not None and text in f"{finding.message} {finding.cause} {finding.fix}"
    assert finding.reproduce.startswith("kubectl get resourceslices --field-selector spec.nodeName=n1")


def test_device_plugin_nodes_need_no_slices() -> None:
    spec = build_spec("eks", name="l4", instance_type="g6.xlarge")
    view = NodeView(name="p1", labels=pool_labels(spec), taints=pool_taints(spec), allocatable={"nvidia.com/gpu": 1},
                    capacity={"nvidia.com/gpu": 1})  # fmt: skip
    report = audit([view], {"l4": expectation_for(spec)})
    assert not needs_slices(report)
    assert with_slices(report, DeviceSlices(False)) == report


def test_check_without_a_stack_tells_a_dra_node_by_its_label() -> None:
    report = audit([dra_node()], {})
    assert report.results[0].expectation.pool is None
    assert dict(report.results[0].expectation.allocatable) == {}  # no nvidia.com/gpu expected on a DRA node
    (finding,) = with_slices(report, DeviceSlices(True)).findings[-1:]
    assert finding.code == f.DRA_SLICES_MISSING and "expected its GPUs" in finding.message
