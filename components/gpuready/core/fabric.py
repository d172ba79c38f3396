"""A pool's node fabric (``fabric`` in ``gpuready:nodePools``): the multi-node network its GPUs talk over. Pure.

The kinds are what the clouds call them: EFA (EC2), GPUDirect-TCPX / -TCPXO / -RDMA (GKE's A3 / A4 machines),
InfiniBand (Azure's ND-series). Which instance types have which kind is a fact of each cloud, in its package
(``CloudProfile.fabric_types``); what each kind needs on the pool (interfaces, networks, placement, cluster
software) is decided there too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpuready.core.config_model.suggest import did_you_mean
from gpuready.errors import Problem

FABRIC_KINDS: tuple[str, ...] = ("efa", "gpudirect-tcpx", "gpudirect-tcpxo", "gpudirect-rdma", "infiniband")
"""Every fabric a pool may ask for, on some cloud."""


@dataclass(frozen=True, kw_only=True, slots=True)
class FabricNetwork:
    """One additional node network (GKE): a VPC and a subnet in it, one per extra NIC of the machine."""

    network: str
    subnetwork: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Fabric:
    """The pool's fabric: its kind, the placement that keeps its nodes close, the extra networks it needs."""

    kind: str
    placement_group: str | None = None
    """A placement the stack made elsewhere (EKS placement group name, GKE resource policy name); None: the
    cloud's default for the kind (GKE: a compact placement policy of its own)."""
    networks: tuple[FabricNetwork, ...] = ()
    """GKE: the additional node networks, one per extra NIC the machine family needs, in NIC order."""


def kind_problems(kind: str, instance_type: str, title: str, types: Mapping[str, str], hint: str = "") -> list[Problem]:
    """Problems of asking for fabric ``kind`` on ``instance_type`` of a cloud whose types have ``types`` (instance
    type -> its fabric kind): an unknown kind, one the cloud does not offer, or a type without it (naming the
    types that have it)."""
    if kind not in FABRIC_KINDS:
        return [Problem("fabric.kind", "unknown fabric", kind, FABRIC_KINDS, did_you_mean(kind, FABRIC_KINDS))]
    offered = tuple(sorted(set(types.values())))
    if kind not in offered:
        return [Problem("fabric.kind", f"{title} has no {kind} fabric", kind, offered, "pick a fabric of " + title)]
    have = types.get(instance_type)
    if have == kind:
        return []
    with_kind = tuple(sorted(name for name, has in types.items() if has == kind))
    also = f"; it has {have}" if have else ""
    return [
        Problem(
            "fabric.kind",
            f"{instance_type} has no {kind}{also}",
            kind,
            with_kind,
            hint or f"use one of the instance types with {kind}, or remove fabric",
        )
    ]


def fabric_container(container: Mapping[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    """``container`` with a fabric's ``env`` and ``volumeMounts`` entries appended (those of the same name it
    already has kept) and its ``capabilities`` added to ``securityContext.capabilities.add``."""
    merged = dict(container)
    for key in ("env", "volumeMounts"):
        have = list(merged.get(key) or [])
        names = {item.get("name") for item in have if isinstance(item, Mapping)}
        added = [dict(item) for item in fields.get(key) or () if item.get("name") not in names]
        if added:
            merged[key] = [*have, *added]
    wanted = list(fields.get("capabilities") or ())
    if wanted:
        context = dict(merged.get("securityContext") or {})
        capabilities = dict(context.get("capabilities") or {})
        present = list(capabilities.get("add") or [])
        capabilities["add"] = [*present, *(c for c in wanted if c not in present)]
        context["capabilities"] = capabilities
        merged["securityContext"] = context
    return merged
