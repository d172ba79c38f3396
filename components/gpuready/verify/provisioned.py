"""Which elastic provisioner made a node, and the GPU facts its well-known labels state. Pure: no I/O.

Karpenter (EKS or AKS NAP), EKS Auto Mode and GKE ComputeClasses label the nodes they make with the pool object's
name and with the instance's GPU facts (``karpenter.k8s.aws/instance-gpu-name``, ``instance-gpu-count``,
``karpenter.azure.com/sku-gpu-*``...). Which labels those are is each provisioner's fact
(``gpuready.core.capacity.node_facts``, asked through the capacity registry), never a name compared here.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from gpuready.core.capacity.node_facts import NodeFacts
from gpuready.core.capacity.registry import provisioners
from gpuready.core.catalog.gpus import GPU_MODELS, GpuModel
from gpuready.record import record


@record(frozen=True, slots=True)
class NodeOrigin:
    """The elastic provisioner that made a node, and the pool object it made it for."""

    provisioner: str
    """Registry key (``karpenter``, ``eks-auto-mode``, ``nap``, ``compute-class``)."""
    pool: str
    """The NodePool's or ComputeClass's name (the node's ``karpenter.sh/nodepool`` label...)."""
    facts: NodeFacts

    @property
    def where(self) -> str:
        """``NodePool/burst``: the object, as kubectl names it."""
        return f"{self.facts.kind}/{self.pool}"

    def to_json(self) -> dict[str, str]:
        return {"name": self.provisioner, "title": self.facts.title, "kind": self.facts.kind, "pool": self.pool}


@cache
def _elastic() -> tuple[tuple[str, NodeFacts], ...]:
    """Every elastic provisioner's key and node facts, loaded on first use (the provisioner modules are pure: no
    client or SDK import)."""
    return tuple((p.key, p.node_facts) for p in provisioners() if p.node_facts is not None)


@cache
def _pool_labels() -> frozenset[str]:
    return frozenset(facts.pool_label for _, facts in _elastic())


def node_origin(labels: Mapping[str, str]) -> NodeOrigin | None:
    """The provisioner that made a node with ``labels``, or None (a node group's node, or a hand-made one)."""
    if not any(key in labels for key in _pool_labels()):
        return None
    for key, facts in _elastic():
        if facts.marks(labels):
            return NodeOrigin(key, labels[facts.pool_label], facts)
    return None


def gpu_count(origin: NodeOrigin, labels: Mapping[str, str]) -> int | None:
    """GPUs per node as the provisioner's label states it, or None."""
    text = labels.get(origin.facts.gpu_count_label, "") if origin.facts.gpu_count_label else ""
    return int(text) if text.isdigit() else None


def gpu_label(origin: NodeOrigin, labels: Mapping[str, str]) -> tuple[str, GpuModel] | None:
    """``(label=value, model)`` of the GPU the provisioner's GPU name label names, or None when there is none or it
    names no single catalog model. The name is a family (``a100``, ``h100``; EC2's GPU name lowercased); the GPU
    memory label, where the provisioner has one, picks the model of the family, else the family's own name does."""
    key = origin.facts.gpu_name_label
    name = labels.get(key, "").lower() if key else ""
    if not name:
        return None
    family = [m for m in GPU_MODELS.values() if m.key.split("-")[0] == name.split("-")[0]]
    memory = labels.get(origin.facts.gpu_memory_label, "") if origin.facts.gpu_memory_label else ""
    if family and memory.isdigit():
        closest = min(abs(m.memory_mib - int(memory)) for m in family)
        family = [m for m in family if abs(m.memory_mib - int(memory)) == closest]
    exact = [m for m in family if name in (m.key, m.display.lower())]
    found = exact or family
    return (f"{key}={labels[key]}", found[0]) if len(found) == 1 else None


def says_gpu(labels: Mapping[str, str]) -> str:
    """``label=value`` of a provisioner's label that says the node has GPUs, or ""."""
    origin = node_origin(labels)
    if origin is None:
        return ""
    count = gpu_count(origin, labels)
    if count:
        return f"{origin.facts.gpu_count_label}={count}"
    named = gpu_label(origin, labels)
    return named[0] if named is not None else ""
