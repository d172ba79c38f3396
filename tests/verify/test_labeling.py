"""label_plan: the missing accelerator labels, one patch per GPU node, idempotent, never on CPU nodes."""

from __future__ import annotations

import pytest

from gpuready.verify.labeling import LabelPatch, label_plan, unlabelable
from gpuready.verify.nodes import NodeView
from tests.verify.conftest import l4_node, view

GFD_H100 = view("h100-1", labels={"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}, capacity={"nvidia.com/gpu": 8})
GKE_L4 = view("gke-l4", labels={"cloud.google.com/gke-accelerator": "nvidia-l4"})
EKS_P4DE = view("p4de", labels={"node.kubernetes.io/instance-type": "p4de.24xlarge", "nvidia.com/gpu.present": "true"})
CPU = view("cpu-1", labels={"node.kubernetes.io/instance-type": "m5.large", "skypilot.co/accelerator": ""})
MYSTERY = view(
    "mystery", labels={"feature.node.kubernetes.io/pci-10de.present": "true"}, capacity={"nvidia.com/gpu": 1}
)


def test_plan_labels_every_gpu_node_from_its_best_source() -> None:
    plan = label_plan([GKE_L4, CPU, GFD_H100, MYSTERY, EKS_P4DE])
    assert [(p.node, dict(p.labels), p.source) for p in plan] == [
        ("gke-l4", {"gpuready.io/accelerator": "l4", "skypilot.co/accelerator": "l4", "nvidia.com/gpu.present": "true"},
         "gke-accelerator nvidia-l4"),
        ("h100-1", {"gpuready.io/accelerator": "h100", "skypilot.co/accelerator": "h100",
                    "nvidia.com/gpu.present": "true"}, "gfd-product NVIDIA-H100-80GB-HBM3"),
        ("p4de", {"gpuready.io/accelerator": "a100-80gb", "skypilot.co/accelerator": "a100-80gb"},
         "instance-type p4de.24xlarge"),
    ]  # fmt: skip
    assert [v.name for v in unlabelable([GKE_L4, CPU, GFD_H100, MYSTERY, EKS_P4DE])] == ["mystery"]


def _applied(node: NodeView, patch: LabelPatch) -> NodeView:
    return view(node.name, labels={**node.labels, **patch.labels}, capacity=node.capacity)


def test_plan_is_idempotent() -> None:
    nodes = [GKE_L4, GFD_H100, EKS_P4DE, CPU, MYSTERY]
    patches = {p.node: p for p in label_plan(nodes)}
    relabeled = [_applied(n, patches[n.name]) if n.name in patches else n for n in nodes]
    assert label_plan(relabeled) == []


def test_plan_never_touches_cpu_nodes_or_writes_gfd_labels() -> None:
    plan = label_plan([CPU, GFD_H100, GKE_L4, EKS_P4DE])
    assert "cpu-1" not in {p.node for p in plan}
    written = {key for p in plan for key in p.labels}
    assert written <= {"gpuready.io/accelerator", "skypilot.co/accelerator", "nvidia.com/gpu.present"}
    assert all(p.body() == {"metadata": {"labels": dict(p.labels)}} for p in plan)


def test_node_of_a_gpuready_pool_needs_nothing() -> None:
    assert label_plan([l4_node()]) == []


@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        ({"skypilot.co/accelerator": "H100"}, {"skypilot.co/accelerator": "h100"}),  # skypilot#2652
        ({"skypilot.co/accelerator": "a100"}, {"skypilot.co/accelerator": "h100"}),
        ({"nvidia.com/gpu.present": "false"}, {}),  # the GPU Operator's own verdict is left alone
    ],
    ids=["uppercase-skypilot", "wrong-skypilot", "gpu-present-false-kept"],
)
def test_plan_corrects_wrong_values(labels: dict[str, str], expected: dict[str, str]) -> None:
    base = {"node.kubernetes.io/instance-type": "p5.48xlarge", "gpuready.io/accelerator": "h100",
            "skypilot.co/accelerator": "h100", "nvidia.com/gpu.present": "true"}  # fmt: skip
    plan = label_plan([view("p5", labels={**base, **labels})])
    assert [dict(p.labels) for p in plan] == ([expected] if expected else [])
    if plan:
        assert plan[0].previous == {k: labels[k] for k in expected}


def test_plan_keeps_a_valid_reading_of_an_ambiguous_product() -> None:
    mega = view(
        "a3-mega",
        labels={"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3", "gpuready.io/accelerator": "h100-mega"},
        capacity={"nvidia.com/gpu": 8},
    )
    (patch,) = label_plan([mega])
    assert dict(patch.labels) == {"skypilot.co/accelerator": "h100-mega", "nvidia.com/gpu.present": "true"}
