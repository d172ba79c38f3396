"""node_view: raw Node objects (as the API and the stand-in's make_node return them) to NodeView."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.taints import Taint
from gpuready.verify.nodes import node_view
from tests.kube_standin import make_node


def test_node_view_keeps_labels_taints_and_extended_resources() -> None:
    raw = make_node(
        "gpu-1",
        labels={"nvidia.com/gpu.present": "true"},
        taints=["nvidia.com/gpu=present:NoSchedule", "dedicated:NoExecute"],
        capacity={"nvidia.com/gpu": "8", "nvidia.com/mig-1g.10gb": "7"},
        allocatable={"nvidia.com/gpu": "6", "cpu": "7800m"},
        instance_type="p5.48xlarge",
    )
    view = node_view(raw)
    assert view.name == "gpu-1"
    assert view.labels["nvidia.com/gpu.present"] == "true"
    assert view.labels["node.kubernetes.io/instance-type"] == "p5.48xlarge"
    assert view.taints == (
        Taint(key="nvidia.com/gpu", value="present", effect="NoSchedule"),
        Taint(key="dedicated", value="", effect="NoExecute"),
    )
    assert view.capacity == {"nvidia.com/gpu": 8, "nvidia.com/mig-1g.10gb": 7}  # cpu, memory, pods dropped
    assert view.allocatable == {"nvidia.com/gpu": 6}
    assert (view.ready, view.unschedulable, view.not_ready_reason) == (True, False, "")


def test_node_view_reads_not_ready_and_cordoned() -> None:
    view = node_view(make_node("gpu-2", ready=False, unschedulable=True))
    assert view.ready is False
    assert view.unschedulable is True
    assert view.not_ready_reason == "KubeletNotReady: container runtime network not ready"
    assert [t.key for t in view.taints] == ["node.kubernetes.io/not-ready"]


@pytest.mark.parametrize(
    ("raw", "ready", "reason"),
    [
        ({"metadata": {"name": "bare"}}, False, "no Ready condition reported yet"),
        ({"metadata": {"name": "u"}, "status": {"conditions": [{"type": "Ready", "status": "Unknown"}]}}, False,
         "Ready=Unknown"),
        ({"metadata": {"name": "x"}, "status": {"conditions": "garbage"}}, False, "no Ready condition reported yet"),
    ],
    ids=["no-status", "unknown", "malformed"],
)  # fmt: skip
def test_node_view_degrades_malformed_input(raw: dict[str, Any], ready: bool, reason: str) -> None:
    view = node_view(raw)
    assert (view.ready, view.not_ready_reason) == (ready, reason)
    assert view.labels == {} and view.taints == () and view.capacity == {}


def test_node_view_skips_taints_with_unknown_effect_and_odd_quantities() -> None:
    raw = {
        "metadata": {"name": "odd", "labels": {"a": "b"}},
        "spec": {"taints": [
            {"key": "k", "effect": "NO_SCHEDULE"}, {"effect": "NoSchedule"}, {"key": "ok", "effect": "NoSchedule"},
        ]},
        "status": {"capacity": {"nvidia.com/gpu": "1500m", "example.com/dev": "2k"}},
    }  # fmt: skip
    view = node_view(raw)
    assert [t.key for t in view.taints] == ["ok"]
    assert view.capacity == {"example.com/dev": 2000}
