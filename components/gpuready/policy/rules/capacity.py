"""Rules on how GPU pools get capacity: reservations and Capacity Blocks in any program's raw objects. Pure.

- A pool resource's own wiring, as its provisioner judges it (``Provisioner.planned_capacity_problems``): an EKS
  node group of capacity type ``CAPACITY_BLOCK`` with instance types on the group or without a launch template.
- A NodePool that allows ``karpenter.sh/capacity-type: reserved`` on a node class (in the same stack) that selects
  no reservation (``PoolFacts.reservation_terms``, its provisioner's ``capacityReservationSelectorTerms``):
  Karpenter offers reserved capacity only from the reservations a node class selects (aws/karpenter-provider-aws
  v1.14.1 ``pkg/providers/capacityreservation``; EKS User Guide auto-odcr for Auto Mode), so such a pool never gets
  a reserved node.
- A GPU pool resource's capacity settings as the provisioner that writes it judges them
  (``PoolFacts.capacity_problems``, asked of ``Provisioner.policy_capacity_problems`` by the pool's reader: GKE
  queued and flex-start node pools, AKS reservation and placement group ids): the pack imports no cloud package.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.capacity.interface import Provisioner
from gpuready.core.capacity.karpenter_nodepool import CAPACITY_TYPE, CAPACITY_TYPES
from gpuready.core.capacity.registry import provisioner_types, provisioners_for_type
from gpuready.core.props import as_list, as_mapping, as_text, dig
from gpuready.policy.rules.elastic_pools import elastic_pools
from gpuready.policy.rules.gpu_pools import gpu_pools
from gpuready.policy.rules.stack import Finding, StackResource

RESERVED = CAPACITY_TYPES["reserved"]
POOL_TYPES = provisioner_types(lambda p: (p.pool_table.type,))
"""Types of the resources that hold a provisioner's GPU nodes (node groups, node pools, NodePools)."""


def _node_classes(p: Provisioner) -> tuple[str, ...]:
    facts = p.node_facts
    if facts is None or not facts.node_class_group:
        return ()
    return tuple(t.type for t in p.tables if t.type.startswith(f"kubernetes:{facts.node_class_group}/"))


NODE_CLASS_TYPES = provisioner_types(_node_classes)
"""Types of the node classes elastic provisioners' NodePools reference (EC2NodeClass, NodeClass, AKSNodeClass)."""


def capacity_wiring_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """Every provisioner whose pool resource this is judges how it gets capacity."""
    return [
        m for p in provisioners_for_type(resource_type) if p.pool_table.type == resource_type
        for m in p.planned_capacity_problems(props)
    ]  # fmt: skip


def _allows_reserved(props: Mapping[str, Any]) -> bool:
    terms = as_list(dig(props, "spec", "template", "spec", "requirements"))
    return any(
        term.get("key") == CAPACITY_TYPE and term.get("operator") == "In"
        and RESERVED in [as_text(v) for v in as_list(term.get("values"))]
        for term in (as_mapping(t) or {} for t in terms)
    )  # fmt: skip


def _node_class(resources: Sequence[StackResource], group: str, kind: str, name: str) -> StackResource | None:
    return next(
        (r for r in resources if r.type.startswith(f"kubernetes:{group}/") and r.type.endswith(f":{kind}")
         and as_text(dig(r.props, "metadata", "name")) == name),
        None,
    )  # fmt: skip


def reservation_caveat_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """A node class with reservation terms whose platform documents a cluster-wide effect of them (its provisioner's
    ``NodeFacts.reservation_terms_caveat``): said, so the team decides on it knowingly."""
    facts = [
        p.node_facts for p in provisioners_for_type(resource_type)
        if p.node_facts is not None and p.node_facts.node_class_group
    ]  # fmt: skip
    return [
        f"spec.{f.reservation_terms}: {f.title}: {f.reservation_terms_caveat}. Select every reservation the "
        f"cluster's {f.title} pools should use"
        for f in facts
        if f.reservation_terms_caveat and resource_type in NODE_CLASS_TYPES
        and resource_type.startswith(f"kubernetes:{f.node_class_group}/")
        and as_list(dig(props, "spec", f.reservation_terms))
    ]  # fmt: skip


def reserved_node_pool_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """GPU NodePools that allow reserved capacity on a node class of the stack that selects no reservation."""
    found: list[Finding] = []
    for r in resources:
        for pool in elastic_pools(r.type, r.props):
            terms = pool.reservation_terms
            if not terms or not _allows_reserved(r.props):
                continue
            ref = as_mapping(dig(r.props, "spec", "template", "spec", "nodeClassRef")) or {}
            group, kind, name = (as_text(ref.get(k)) or "" for k in ("group", "kind", "name"))
            node_class = _node_class(resources, group, kind, name)
            if node_class is None or as_list(dig(node_class.props, "spec", terms)):
                continue
            found.append(Finding(r.urn, (
                f"spec.template.spec.requirements: NodePool {pool.name or r.name} allows {CAPACITY_TYPE}: {RESERVED}, "
                f"but its {kind} {name} has no spec.{terms}: {pool.title} offers reserved "
                f"capacity only from the reservations a node class selects, so this pool never gets a reserved node. "
                f"Add spec.{terms} (ids, or tags) to {kind} {name}, or drop {RESERVED} from the "
                "requirement"
            )))  # fmt: skip
    return found


def capacity_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """Every capacity rule a GPU pool resource breaks, naming the field and the fix."""
    return [problem for pool in gpu_pools(resource_type, props) for problem in pool.capacity_problems]
