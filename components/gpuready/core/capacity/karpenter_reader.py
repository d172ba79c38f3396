"""The reader of the resource every Karpenter provisioner writes: any program's ``karpenter.sh/v1`` NodePool. Pure.

EKS Karpenter, EKS Auto Mode and AKS node auto-provisioning all write NodePools (``karpenter_provisioner``), so
they share this one reader; which of them a NodePool belongs to, and the well-known labels its requirements may
select on, are asked of the provisioners (``Provisioner.node_facts``). A NodePool is a GPU NodePool when one of its
``spec.template.spec.requirements`` selects GPU instances (a node class cannot select instance types, so
requirements are all there is to read):

- ``node.kubernetes.io/instance-type`` ``In`` a GPU type of gpuready's catalog (any cloud) or of a GPU family the
  catalog does not list yet (``gpu_types``);
- a provisioner's GPU count label (``karpenter.k8s.aws/instance-gpu-count``, ``eks.amazonaws.com/...``,
  ``karpenter.azure.com/sku-gpu-count``) ``In`` a positive count, ``Gt`` 0 or more, or ``Exists``;
- its GPU name label ``In`` any value or ``Exists``, its GPU manufacturer label ``In`` ``nvidia``;
- its instance family label ``In`` an NVIDIA EC2 family (``g6``, ``p5``...).

A NodePool's cloud is its node class's provisioner's (``nodeClassRef.group``), else the one whose labels its
requirements use, else its instance type's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from gpuready.core.capacity.gpu_types import gpu_instance_type
from gpuready.core.capacity.karpenter_nodepool import GPU_LIMIT, INSTANCE_TYPE, NODE_POOL_TABLE
from gpuready.core.capacity.node_facts import KARPENTER_UNTAINTED, NODE_POOL_LABELS, NODE_POOL_TAINTS, NodeFacts
from gpuready.core.capacity.pool_facts import PoolFacts, PoolReader, api_taint, whole
from gpuready.core.catalog.gpus import GPU_MODELS, GpuModel
from gpuready.core.clouds.registry import cloud_profile, profiles_for_type
from gpuready.core.props import as_list, as_mapping, as_number, as_text, dig, text_map
from gpuready.core.scale_path.karpenter_limits import NODES

if TYPE_CHECKING:
    from gpuready.core.clouds.profile import CloudProfile
    from gpuready.core.clouds.registry import Cloud

DEFAULT_CONSOLIDATION = "WhenEmptyOrUnderutilized"
"""The CRD's default ``spec.disruption.consolidationPolicy`` (kubernetes-sigs/karpenter v1.14.1
``pkg/apis/crds/karpenter.sh_nodepools.yaml`` L154)."""
BLOCKING_BUDGET_NODES = frozenset({"0", "0%"})
Owner = tuple["CloudProfile", str, NodeFacts]
"""A NodePool provisioner: its cloud's profile, its key and its node facts."""


@cache
def _owners() -> tuple[Owner, ...]:
    # The registry loads the provisioners, which hold this reader: ask it on first use, not at import.
    from gpuready.core.capacity.registry import provisioners_for_type  # noqa: PLC0415

    # only the clouds whose registered type prefixes own the NodePool load (issue #32)
    profiles: dict[str, CloudProfile] = {profile.name: profile for profile in profiles_for_type(NODE_POOL_TABLE.type)}
    return tuple(
        (profiles[p.cloud], p.key, p.node_facts)
        for p in provisioners_for_type(NODE_POOL_TABLE.type)
        if p.node_facts is not None and p.node_facts.object_type == NODE_POOL_TABLE.type
    )


def read_node_pool(props: Mapping[str, Any]) -> tuple[PoolFacts, ...]:
    """The GPU pool a NodePool declares (none or one)."""
    template = as_mapping(dig(props, "spec", "template")) or {}
    body = as_mapping(template.get("spec")) or {}
    terms = [t for t in (as_mapping(x) for x in as_list(body.get("requirements"))) if t is not None]
    owners = _owners()
    reasons = [why for t in terms if (why := _gpu_requirement(t, owners)) is not None]
    if not reasons:
        return ()
    group = as_text(dig(body, "nodeClassRef", "group")) or ""
    owner = _owner(owners, group, [as_text(t.get("key")) or "" for t in terms])
    types = tuple(
        v for t in terms if t.get("key") == INSTANCE_TYPE and t.get("operator") == "In"
        for v in as_list(t.get("values")) if isinstance(v, str)
    )  # fmt: skip
    listed = [hit for v in types if (hit := gpu_instance_type(v)) is not None]
    # the instance type's cloud (the catalog names it) is resolved here, once, for the record
    profile = owner[0] if owner else next((cloud_profile(c) for c, _ in listed), None)
    if profile is None:  # a GPU requirement is an instance type's (whose cloud is known) or a provisioner's label
        return ()
    facts = owner[2] if owner else None
    raw_taints = tuple(as_list(body.get("taints")))
    labels = text_map(dig(template, "metadata", "labels"))
    limits = as_mapping(dig(props, "spec", "limits")) or {}
    disruption = as_mapping(dig(props, "spec", "disruption")) or {}
    pool = PoolFacts(
        cloud=profile.name,
        provisioner=owner[1] if owner else "",
        kind="NodePool",
        name=as_text(dig(props, "metadata", "name")) or "",
        props=props,
        reading=profile,
        catalog=profile,
        why=reasons[0],
        instance_types=types,
        model=_model(listed, terms, facts),
        taints=tuple(t for t in (api_taint(e) for e in raw_taints) if t is not None),
        taints_field=facts.taints_path if facts is not None else NODE_POOL_TAINTS,
        raw_taints=raw_taints,
        labels=labels,
        labels_field=facts.labels_path if facts is not None else NODE_POOL_LABELS,
        max_nodes=whole(limits.get(NODES)),
        gpus_per_node=next((entry.gpus for _, entry in listed if entry is not None), None),
        gpu_limit=whole(limits.get(GPU_LIMIT)),
        limits=limits,
        fixed_count=dig(props, "spec", "replicas") is not None,
        consolidation=as_text(disruption.get("consolidationPolicy")),
        consolidation_blocked=disruption.get("consolidateAfter") == "Never"
        or any(_blocks_underutilized(b) for b in as_list(disruption.get("budgets"))),
        elastic=True,
        title=facts.title if facts is not None else "",
        untainted_note=facts.untainted_note if facts is not None else KARPENTER_UNTAINTED,
        reservation_terms=facts.reservation_terms if facts is not None else "",
        platform_plugin=facts.plugin_on(labels) if facts is not None else "",
    )
    return (pool,)


def _blocks_underutilized(budget: object) -> bool:
    """Whether a disruption budget always blocks consolidation of nodes that still run pods: ``nodes: "0"`` (or
    ``0%``), always active (no ``schedule``), for ``Underutilized`` (no ``reasons``, or listing it)
    (kubernetes-sigs/karpenter v1.14.1 ``pkg/apis/crds/karpenter.sh_nodepools.yaml`` spec.disruption.budgets,
    L76-131)."""
    nodes = as_text(dig(budget, "nodes"))
    if nodes not in BLOCKING_BUDGET_NODES or dig(budget, "schedule") is not None:
        return False
    reasons = [r for r in as_list(dig(budget, "reasons")) if isinstance(r, str)]
    return not reasons or "Underutilized" in reasons


def _owner(owners: Sequence[Owner], group: str, keys: Sequence[str]) -> Owner | None:
    for owner in owners:
        if group and owner[2].node_class_group == group:
            return owner
    for owner in owners:
        count = owner[2].gpu_count_label
        if count and any(key.startswith(count.split("/", 1)[0] + "/") for key in keys):
            return owner
    return None


def _gpu_requirement(term: Mapping[str, Any], owners: Sequence[Owner]) -> str | None:
    """Why the requirement selects GPU instances, or None."""
    key = as_text(term.get("key")) or ""
    operator = as_text(term.get("operator")) or ""
    values = [v for v in as_list(term.get("values")) if isinstance(v, str)]
    shown = f"requirement {key} {operator}" + (f" {values}" if values else "")
    if key == INSTANCE_TYPE and operator == "In":
        return shown if any(gpu_instance_type(v) is not None for v in values) else None
    for profile, _, f in owners:
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
        family = profile.gpu_family
        if key == f.instance_family_label and operator == "In" and any(family(v) for v in values):
            return shown
    return None


def _int(text: str) -> int | None:
    return int(text) if text.lstrip("-").isdigit() else None


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


NODE_POOL_READER = PoolReader(
    read_node_pool,
    {
        "spec": "object",
        "spec.limits": "object",
        "spec.template": "object",
        "spec.template.spec": "object",
        "spec.template.spec.requirements": "list",
        "spec.template.spec.taints": "list",
        "spec.template.metadata.labels": "object",
    },
)
"""The one NodePool reader every Karpenter provisioner shares, with the shapes of the fields it reads."""
