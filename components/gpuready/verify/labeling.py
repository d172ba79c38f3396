"""Plan the accelerator labels GPU nodes are missing: one merge patch per node, nothing for CPU nodes. Pure.

Writes only gpuready's and SkyPilot's accelerator labels, plus ``nvidia.com/gpu.present=true`` where it is
absent; never GFD's own labels. Values come from GFD's product label, the cloud's accelerator label or the
instance type (see ``inference``). Idempotent: a node that already carries the right values gets no patch.
A GPU node whose model cannot be inferred is left alone and reported by ``unlabelable``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gpuready.core.scheduling import LABEL_ACCELERATOR, LABEL_GPU_PRESENT, LABEL_SKYPILOT_ACCELERATOR
from gpuready.record import record
from gpuready.verify.inference import Inference, infer_accelerator, is_gpu_node
from gpuready.verify.nodes import NodeView


@record(frozen=True, slots=True)
class LabelPatch:
    """The labels to set on one node."""

    node: str
    labels: Mapping[str, str]
    """Label -> new value."""
    previous: Mapping[str, str | None]
    """Label -> value before the patch (None when absent)."""
    source: str
    """Where the accelerator came from, e.g. ``gfd-product NVIDIA-H100-80GB-HBM3``."""

    def body(self) -> dict[str, Any]:
        """The JSON merge patch (``application/merge-patch+json``) that applies it."""
        return {"metadata": {"labels": dict(self.labels)}}


def desired_labels(view: NodeView, inference: Inference) -> dict[str, str]:
    """The labels gpuready maintains on a GPU node, given its inferred model."""
    wanted = {LABEL_ACCELERATOR: inference.model.key, LABEL_SKYPILOT_ACCELERATOR: inference.model.skypilot}
    if LABEL_GPU_PRESENT not in view.labels:  # never overrule the GPU Operator's own "false"
        wanted[LABEL_GPU_PRESENT] = "true"
    return wanted


def label_patch(view: NodeView) -> LabelPatch | None:
    """The patch one node needs, or None (not a GPU node, already right, or model unknown)."""
    if not is_gpu_node(view):
        return None
    inference = infer_accelerator(view)
    if inference is None:
        return None
    changes = {k: v for k, v in desired_labels(view, inference).items() if view.labels.get(k) != v}
    if not changes:
        return None
    previous = {k: view.labels.get(k) for k in changes}
    return LabelPatch(view.name, changes, previous, f"{inference.source} {inference.evidence}")


def label_plan(views: Iterable[NodeView]) -> list[LabelPatch]:
    """One patch per GPU node that needs one, sorted by node name."""
    patches = (label_patch(v) for v in sorted(views, key=lambda v: v.name))
    return [p for p in patches if p is not None]


def unlabelable(views: Iterable[NodeView]) -> list[NodeView]:
    """GPU nodes whose model cannot be inferred, so no label is written for them."""
    return sorted((v for v in views if is_gpu_node(v) and infer_accelerator(v) is None), key=lambda v: v.name)
