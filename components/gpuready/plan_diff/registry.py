"""What ``gpuready diff`` knows per resource type: the clouds' replacement tables and GPU capacity readers.

Each cloud package owns its facts (``components/gpuready/<cloud>/lifecycle.py``) and each provisioner declares them
(``gpuready/core/capacity``); this module only collects them from the provisioner registry, so the diff asks by
type token and never names a cloud. Kubernetes objects follow one rule for every kind: a new name or
namespace is a new object, anything else is an update (pulumi-kubernetes replaces on ``metadata.name`` /
``metadata.namespace``; a Helm ``Release`` on its ``name`` and ``namespace``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gpuready.core.capacity.interface import Provisioner
from gpuready.core.capacity.readers import read_pools
from gpuready.core.capacity.registry import provisioners
from gpuready.core.lifecycle import FieldRule, PoolCapacity, ResourceTable
from gpuready.plan_diff.plan_file import PlanFormatError

CapacityReader = Callable[[Mapping[str, Any]], PoolCapacity | None]

TABLES: Mapping[str, ResourceTable] = {t.type: t for p in provisioners() for t in p.tables}
"""Replacement tables of the cloud resources gpuready creates, by Pulumi type token."""
GPU_POOL_TYPES: Mapping[str, tuple[Provisioner, ...]] = {
    t: tuple(p for p in provisioners() if p.pool_table.type == t) for t in {p.pool_table.type for p in provisioners()}
}
"""Cloud resources that hold GPU nodes, by type token, with the provisioners that write them (a ``karpenter.sh``
NodePool is written by several: Karpenter and Auto Mode on EKS, node auto-provisioning on AKS)."""


def _reader(type_token: str, inputs: Mapping[str, Any]) -> CapacityReader | None:
    """The capacity reader of the provisioner that wrote a resource: the only one of its type, else the one its
    pool reader names (a NodePool's node class group or labels tell its cloud and provisioner)."""
    writers = GPU_POOL_TYPES.get(type_token, ())
    if len(writers) <= 1:
        return writers[0].capacity if writers else None
    for facts in read_pools(type_token, inputs):
        same_cloud = [p for p in writers if p.cloud == facts.cloud]
        named = [p for p in same_cloud if p.key == facts.provisioner]
        if named or same_cloud:
            return (named or same_cloud)[0].capacity
    return None


_K8S_SOURCE = "pulumi/pulumi-kubernetes: metadata.name and metadata.namespace are replace-on-change for every kind"
KUBERNETES = ResourceTable(
    type="kubernetes:*",
    rules=(
        FieldRule("metadata.name", "replace", _K8S_SOURCE),
        FieldRule("metadata.namespace", "replace", _K8S_SOURCE),
        FieldRule("name", "replace", _K8S_SOURCE, "helm.sh/v3 Release: the release name"),
        FieldRule("namespace", "replace", _K8S_SOURCE, "helm.sh/v3 Release: the release namespace"),
    ),
    unlisted="update",
)
OTHER = ResourceTable(type="*", rules=(), unlisted="update")
"""Types gpuready has no facts for: shown as updates; ``pulumi preview`` tells their replacements."""


def read_capacity(resource: Mapping[str, Any], which: str) -> PoolCapacity | None:
    """The GPU capacity of a planned resource, None when it holds no GPU nodes; inputs that do not have the shape
    its type gives them are a ``PlanFormatError`` naming the resource."""
    inputs = resource.get("inputs") or {}
    try:
        reader = _reader(resource["type"], inputs)
        return None if reader is None else reader(inputs)
    except (TypeError, KeyError, IndexError, AttributeError, ValueError) as error:
        raise PlanFormatError(
            f"the {which} plan's resource {resource['urn']}: its inputs do not have the shape {resource['type']} gives "
            f"them ({type(error).__name__}: {error}); "
            "make both plans with gpuready plan -o json"
        ) from None


def table_for(type_token: str) -> ResourceTable:
    """The replacement table for a resource type."""
    if type_token in TABLES:
        return TABLES[type_token]
    if type_token.startswith("kubernetes:"):
        return KUBERNETES
    return OTHER
