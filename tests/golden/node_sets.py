"""Fixed node sets for the golden audits: every finding the audit knows, on the pools of the ``eks-dev`` stack
and on nodes gpuready did not create, plus malformed fields the decoding must degrade on (never reject).

Deterministic: names, labels and values are fixed; only timestamps vary, and no finding shows them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpuready.verify.expectations import Expectation
from tests.kube_standin import make_node

Obj = dict[str, Any]
GPU_TAINT = "nvidia.com/gpu=present:NoSchedule"
IMAGES = [
    {"names": [f"registry.example.com/team/image-{i}@sha256:{i:064x}", f"registry.example.com/team/image-{i}:v{i}"],
     "sizeBytes": 100_000_000 + i}
    for i in range(8)
]  # fmt: skip
"""``status.images``: what makes real nodes large, and what the audit never reads."""


def pool_node(expectation: Expectation, name: str, instance_type: str, **change: Any) -> Obj:
    """A node of a stack pool as its expectation says, then changed: ``drop`` labels, ``labels``, ``taints``,
    ``capacity`` (replacing the expected allocatable), ``ready``, ``unschedulable``."""
    labels = {k: v for k, v in expectation.labels.items() if k not in change.pop("drop", ())}
    labels.update(change.pop("labels", {}))
    taints = change.pop("taints", [{"key": t.key, "value": t.value, "effect": t.effect} for t in expectation.taints])
    capacity = change.pop("capacity", {k: str(v) for k, v in expectation.allocatable.items()})
    node = make_node(name, labels=labels, taints=taints, capacity=capacity, instance_type=instance_type, **change)
    node["status"]["images"] = IMAGES
    return node


def stack_nodes(expectations: dict[str, Expectation]) -> list[Obj]:
    """Nodes of the eks-dev pools: healthy ones and one of each way a pool node goes wrong."""
    l4, h100, a10g = expectations["l4-shared"], expectations["h100-mig"], expectations["a10g-br"]
    l4_type, h100_type, a10g_type = "g6.12xlarge", "p5.48xlarge", "g5.2xlarge"
    product = {"nvidia.com/gpu.product": "NVIDIA-L4"}
    return [
        pool_node(l4, "l4-ok-1", l4_type, labels=product),
        pool_node(l4, "l4-ok-2", l4_type, labels={**product, "nvidia.com/gpu.replicas": "4"}),
        pool_node(l4, "l4-no-accel", l4_type, drop=("gpuready.io/accelerator", "skypilot.co/accelerator")),
        pool_node(l4, "l4-upper", l4_type, labels={"skypilot.co/accelerator": "L4"}),
        pool_node(l4, "l4-no-present", l4_type, drop=("nvidia.com/gpu.present",)),
        pool_node(l4, "l4-bad-present", l4_type, labels={"nvidia.com/gpu.present": "false"}),
        pool_node(l4, "l4-extra-label", l4_type, labels={"gpuready.io/sharing": "none"}),
        pool_node(l4, "l4-no-taint", l4_type, taints=[]),
        pool_node(l4, "l4-wrong-taint", l4_type, taints=["nvidia.com/gpu=true:PreferNoSchedule"]),
        pool_node(l4, "l4-not-shared", l4_type, capacity={"nvidia.com/gpu": "4"}),
        pool_node(l4, "l4-replicas", l4_type, labels={"nvidia.com/gpu.replicas": "1"}),
        pool_node(l4, "l4-not-ready", l4_type, ready=False),
        pool_node(l4, "l4-cordoned", l4_type, unschedulable=True),
        pool_node(l4, "l4-wrong-gpu", l4_type, labels={"nvidia.com/gpu.product": "Tesla-T4"}),
        pool_node(l4, "l4-no-gpus", l4_type, capacity={}),
        pool_node(h100, "h100-ok", h100_type, labels={"nvidia.com/mig.config.state": "success"}),
        pool_node(h100, "h100-mig-failed", h100_type, labels={"nvidia.com/mig.config.state": "failed"}),
        pool_node(h100, "h100-mig-pending", h100_type, labels={"nvidia.com/mig.config.state": "pending"},
                  capacity={"nvidia.com/gpu": "8"}),
        pool_node(h100, "h100-mig-invalid", h100_type,
                  labels={"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3-MIG-INVALID"}),
        pool_node(a10g, "a10g-ok", a10g_type),
        pool_node(a10g, "a10g-taint-key", a10g_type, taints=[GPU_TAINT, "dedicated=x:NoExecute"]),
        pool_node(a10g, "a10g-fewer-gpus", a10g_type, capacity={"nvidia.com/gpu": "0"}),
    ]  # fmt: skip


def foreign_nodes() -> list[Obj]:
    """GPU nodes gpuready did not create (every way of telling one), CPU nodes, and odd fields an API server lets
    through (no or odd conditions, fractional quantities, value-less taints)."""
    nodes = [
        make_node("cpu-1", instance_type="m5.xlarge"),
        make_node("cpu-2", instance_type="m5.xlarge", labels={"skypilot.co/accelerator": ""}),
        make_node("cpu-gke", labels={"cloud.google.com/gke-accelerator": ""}),
        make_node("eks-p5", instance_type="p5.48xlarge", capacity={"nvidia.com/gpu": "8"},
                  labels={"eks.amazonaws.com/nodegroup": "h100"}),
        make_node("gfd-a100", capacity={"nvidia.com/gpu": "8"}, taints=[GPU_TAINT],
                  labels={"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB", "nvidia.com/gpu.present": "true"}),
        make_node("gfd-h100-mega", capacity={"nvidia.com/gpu": "8"}, taints=[GPU_TAINT], instance_type="a3-megagpu-8g",
                  labels={"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3", "gpuready.io/accelerator": "h100-mega"}),
        make_node("gke-l4", instance_type="g2-standard-8", taints=[GPU_TAINT],
                  labels={"cloud.google.com/gke-accelerator": "nvidia-l4"}),
        make_node("gke-a100-mig", instance_type="a2-highgpu-1g", taints=[GPU_TAINT],
                  capacity={"nvidia.com/gpu": "7"},
                  labels={"cloud.google.com/gke-accelerator": "nvidia-tesla-a100",
                          "cloud.google.com/gke-gpu-partition-size": "1g.5gb"}),
        make_node("aks-t4", instance_type="Standard_NC4as_T4_v3", capacity={"nvidia.com/gpu": "1"},
                  labels={"kubernetes.azure.com/accelerator": "nvidia"}, taints=["sku=gpu:NoSchedule"]),
        make_node("nfd-only", capacity={"nvidia.com/gpu": "1"},
                  labels={"feature.node.kubernetes.io/pci-10de.present": "true"}),
        make_node("labeled-only", labels={"gpuready.io/accelerator": "t4", "nvidia.com/gpu.present": "true"}),
        make_node("mig-mixed", capacity={"nvidia.com/mig-1g.10gb": "14"}, taints=[GPU_TAINT],
                  labels={"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3-MIG-1g.10gb"}),
        make_node("p4-not-ready", instance_type="p4d.24xlarge", capacity={"nvidia.com/gpu": "8"}, ready=False),
        make_node("stale-pool", instance_type="g6.xlarge", capacity={"nvidia.com/gpu": "1"}, taints=[GPU_TAINT],
                  labels={"gpuready.io/pool": "gone", "gpuready.io/accelerator": "l4"}),
    ]  # fmt: skip
    for node, change in zip(nodes[-6:], _MALFORMED, strict=True):
        change(node)
    return nodes


def _no_conditions(node: Obj) -> None:
    node["status"].pop("conditions")


def _odd_quantities(node: Obj) -> None:
    node["status"]["allocatable"] = {**node["status"]["allocatable"], "nvidia.com/gpu": "500m", "example.com/x": "2k"}


def _bad_taints(node: Obj) -> None:
    node["spec"]["taints"] = [
        {"key": "nvidia.com/gpu", "effect": "NoExecute"},
        {"key": "x.example.com/y", "effect": "NoSchedule", "value": ""},
    ]


def _odd_labels(node: Obj) -> None:
    node["metadata"]["labels"]["example.com/empty"] = ""


def _conditions_not_list(node: Obj) -> None:
    node["status"]["conditions"] = {"type": "Ready", "status": "True"}


def _ready_unknown(node: Obj) -> None:
    node["status"]["conditions"] = [{"type": "Ready", "status": "Unknown"}, 7, None]


_MALFORMED: tuple[Callable[[Obj], None], ...] = (
    _no_conditions, _odd_quantities, _bad_taints, _odd_labels, _conditions_not_list, _ready_unknown,
)  # fmt: skip
