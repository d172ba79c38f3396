"""Recognise GPU NodePools and ComputeClasses among any program's raw objects and read them in one shape. Pure.

The objects are Kubernetes custom resources (``pulumi_kubernetes.apiextensions.CustomResource`` or a typed class
generated from the CRD: both register ``kubernetes:<apiVersion>:<kind>``). Which provisioner an object belongs to,
and the well-known labels it selects on, are asked of the provisioners (``Provisioner.node_facts``).

A ``karpenter.sh/v1`` NodePool is a GPU NodePool when one of its ``spec.template.spec.requirements`` selects GPU
instances (a node class cannot select instance types, so requirements are all there is to read):

- ``node.kubernetes.io/instance-type`` ``In`` a GPU type of gpuready's catalog (any cloud) or of a GPU family the
  catalog does not list yet (``gpu_pools``);
- a provisioner's GPU count label (``karpenter.k8s.aws/instance-gpu-count``, ``eks.amazonaws.com/...``,
  ``karpenter.azure.com/sku-gpu-count``) ``In`` a positive count, ``Gt`` 0 or more, or ``Exists``;
- its GPU name label ``In`` any value or ``Exists``, its GPU manufacturer label ``In`` ``nvidia``;
- its instance family label ``In`` an NVIDIA EC2 family (``g6``, ``p5``...).

A ``cloud.google.com/v1`` ComputeClass is a GPU class when one of its ``spec.priorities`` has a ``gpu`` or a GPU
machine type or family (``a2-highgpu-1g``, ``g2``). A NodePool's cloud is its node class's provisioner's
(``nodeClassRef.group``), else the one whose labels its requirements use, else its instance type's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from gpuready.core.capacity.karpenter_nodepool import INSTANCE_TYPE
from gpuready.core.capacity.node_facts import NodeFacts
from gpuready.core.capacity.registry import provisioners
from gpuready.core.catalog.gpus import GPU_MODELS, GpuModel, gpu_model_for_gke_accelerator
from gpuready.core.clouds.registry import Cloud
from gpuready.core.props import as_list, as_mapping, as_number, as_text, dig, text_map
from gpuready.policy.rules.gpu_pools import GpuPool, eks_gpu_family, gke_gpu_family, gpu_instance_type
from gpuready.policy.rules.k8s import api_taint

_FACTS: tuple[tuple[Cloud, NodeFacts], ...] = tuple(
    (cast("Cloud", p.cloud), p.node_facts) for p in provisioners() if p.node_facts is not None
)
ELASTIC_TYPES = frozenset(facts.object_type for _, facts in _FACTS)
"""Pulumi types of the objects elastic provisioners read (NodePool, ComputeClass)."""
NODE_POOL_TYPES = frozenset(f.object_type for _, f in _FACTS if f.node_class_group)
"""Types of Karpenter NodePools (those that reference a node class)."""
NODE_POOL_TYPE = next(iter(sorted(NODE_POOL_TYPES)), "")


@dataclass(frozen=True, slots=True)
class ElasticPool:
    """One GPU NodePool or ComputeClass."""

    kind: str
    """``NodePool`` or ``ComputeClass``."""
    name: str
    props: Mapping[str, Any]
    why: str
    """What makes it a GPU pool, e.g. ``requirement karpenter.k8s.aws/instance-gpu-count In ['1']``."""
    taints_field: str
    raw_taints: Sequence[Any]
    facts: NodeFacts | None
    """Its provisioner's facts, when known."""
    pool: GpuPool | None
    """The pool in the shape the stack rules read, when its cloud is known."""


def elastic_pools(resource_type: str, props: Mapping[str, Any]) -> list[ElasticPool]:
    """The GPU pool a NodePool or ComputeClass declares (none or one)."""
    if resource_type not in ELASTIC_TYPES:
        return []
    pool = _node_pool(props) if resource_type in NODE_POOL_TYPES else _compute_class(resource_type, props)
    return [pool] if pool is not None else []


def _facts_for(resource_type: str, group: str, keys: Sequence[str]) -> tuple[Cloud, NodeFacts] | None:
    candidates = [(c, f) for c, f in _FACTS if f.object_type == resource_type]
    for cloud, facts in candidates:
        if group and facts.node_class_group == group:
            return cloud, facts
    for cloud, facts in candidates:
        if any(key.startswith(_domain(facts.gpu_count_label)) for key in keys if facts.gpu_count_label):
            return cloud, facts
    return None


def _domain(label: str) -> str:
    return label.split("/", 1)[0] + "/"


def _gpu_requirement(term: Mapping[str, Any], facts: Sequence[NodeFacts]) -> str | None:
    """Why the requirement selects GPU instances, or None."""
    key = as_text(term.get("key")) or ""
    operator = as_text(term.get("operator")) or ""
    values = [v for v in as_list(term.get("values")) if isinstance(v, str)]
    shown = f"requirement {key} {operator}" + (f" {values}" if values else "")
    if key == INSTANCE_TYPE and operator == "In":
        return shown if any(gpu_instance_type(v) is not None for v in values) else None
    for f in facts:
        if key == f.gpu_count_label:
            counts = [n for v in values if (n := as_number(_int(v))) is not None]
            if (
                (operator == "In" and any(n > 0 for n in counts))
                or (operator == "Gt" and counts and counts[0] >= 0)
                or operator == "Exists"
            ):
                return shown
        if key == f.gpu_name_label and (operator == "Exists" or (operator == "In" and values)):
            return shown
        if key == f.gpu_manufacturer_label and operator == "In" and "nvidia" in [v.lower() for v in values]:
            return shown
        if key == f.instance_family_label and operator == "In" and any(eks_gpu_family(v) for v in values):
            return shown
    return None


def _int(text: str) -> int | None:
    return int(text) if text.lstrip("-").isdigit() else None


def _node_pool(props: Mapping[str, Any]) -> ElasticPool | None:
    template = as_mapping(dig(props, "spec", "template")) or {}
    body = as_mapping(template.get("spec")) or {}
    terms = [t for t in (as_mapping(x) for x in as_list(body.get("requirements"))) if t is not None]
    every = [f for _, f in _FACTS]
    reasons = [why for t in terms if (why := _gpu_requirement(t, every)) is not None]
    if not reasons:
        return None
    group = as_text(dig(body, "nodeClassRef", "group")) or ""
    keys = [as_text(t.get("key")) or "" for t in terms]
    owner = _facts_for(NODE_POOL_TYPE, group, keys)
    types = tuple(
        v for t in terms if t.get("key") == INSTANCE_TYPE and t.get("operator") == "In"
        for v in as_list(t.get("values")) if isinstance(v, str)
    )  # fmt: skip
    listed = [hit for v in types if (hit := gpu_instance_type(v)) is not None]
    cloud = owner[0] if owner else next((c for c, _ in listed), None)
    model = _model(listed, terms, owner[1] if owner else None)
    raw_taints = as_list(body.get("taints"))
    labels = text_map(dig(template, "metadata", "labels"))
    name = as_text(dig(props, "metadata", "name")) or ""
    facts = owner[1] if owner else None
    pool = _shape(cloud, name=name, props=props, types=types, model=model, raw_taints=raw_taints, labels=labels,
                  facts=facts)  # fmt: skip
    return ElasticPool("NodePool", name, props, reasons[0], "spec.template.spec.taints", raw_taints, facts, pool)


def _model(
    listed: Sequence[tuple[Cloud, Any]], terms: Sequence[Mapping[str, Any]], facts: NodeFacts | None
) -> GpuModel | None:
    """The GPU of a NodePool: its one catalog instance type's, else the one GPU its GPU name requirement names."""
    models = {entry.gpu for _, entry in listed if entry is not None}
    if len(models) == 1:
        return GPU_MODELS[models.pop()]
    if facts is None or not facts.gpu_name_label:
        return None
    names = [
        v.lower() for t in terms if t.get("key") == facts.gpu_name_label and t.get("operator") == "In"
        for v in as_list(t.get("values")) if isinstance(v, str)
    ]  # fmt: skip
    found = {m for m in GPU_MODELS.values() for n in names if n in (m.key, m.skypilot)}
    return found.pop() if len(found) == 1 else None


def _compute_class(resource_type: str, props: Mapping[str, Any]) -> ElasticPool | None:
    why, model = "", None
    for index, rule in enumerate(as_list(dig(props, "spec", "priorities"))):
        gpu = as_mapping(dig(rule, "gpu"))
        machine = as_text(dig(rule, "machineType")) or ""
        family = as_text(dig(rule, "machineFamily")) or ""
        found = gpu_instance_type(machine) if machine else None
        if gpu is not None or found is not None or (family and gke_gpu_family(family)):
            what = f"gpu {as_text(gpu.get('type'))}" if gpu is not None else machine or family
            why = why or f"spec.priorities[{index}] {what}"
            if gpu is not None:
                model = model or gpu_model_for_gke_accelerator(as_text(gpu.get("type")) or "")
            if found is not None and found[1] is not None:
                model = model or GPU_MODELS[found[1].gpu]
    if not why:
        return None
    config = as_mapping(dig(props, "spec", "nodePoolConfig")) or {}
    raw_taints = as_list(config.get("taints"))
    labels = text_map(config.get("nodeLabels"))
    name = as_text(dig(props, "metadata", "name")) or ""
    owner = next(((c, f) for c, f in _FACTS if f.object_type == resource_type), None)
    cloud, facts = owner if owner else (None, None)
    pool = _shape(cloud, name=name, props=props, types=(), model=model, raw_taints=raw_taints, labels=labels,
                  facts=facts)  # fmt: skip
    return ElasticPool("ComputeClass", name, props, why, "spec.nodePoolConfig.taints", raw_taints, facts, pool)


def _shape(
    cloud: Cloud | None,
    *,
    name: str,
    props: Mapping[str, Any],
    types: tuple[str, ...],
    model: GpuModel | None,
    raw_taints: Sequence[Any],
    labels: Mapping[str, str],
    facts: NodeFacts | None,
) -> GpuPool | None:
    if cloud is None:
        return None
    taints = tuple(t for t in (api_taint(e) for e in raw_taints) if t is not None)
    plugin = facts.plugin_on(labels) if facts is not None else ""
    return GpuPool(cloud, "", name, props, types, model, None, taints, labels, own_plugin=plugin)
