"""What ``gpuready diff`` knows per resource type: the clouds' replacement tables and GPU pool capacity.

Each cloud package owns its facts (``components/gpuready/<cloud>/lifecycle.py``) and each provisioner declares them
(``gpuready/core/capacity``); this module only collects them from the provisioner registry, so the diff asks by
type token and never names a cloud. Kubernetes objects follow one rule for every kind: a new name or
namespace is a new object, anything else is an update (pulumi-kubernetes replaces on ``metadata.name`` /
``metadata.namespace``; a Helm ``Release`` on its ``name`` and ``namespace``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.capacity.interface import Provisioner
from gpuready.core.capacity.readers import read_pools, shape_problems
from gpuready.core.capacity.registry import provisioners
from gpuready.core.lifecycle import FieldRule, PoolCapacity, ResourceTable
from gpuready.plan_diff.plan_file import PlanFormatError

TABLES: Mapping[str, ResourceTable] = {t.type: t for p in provisioners() for t in p.tables}
"""Replacement tables of the cloud resources gpuready creates, by Pulumi type token."""
GPU_POOL_TYPES: Mapping[str, tuple[Provisioner, ...]] = {
    t: tuple(p for p in provisioners() if p.pool_table.type == t) for t in {p.pool_table.type for p in provisioners()}
}
"""Cloud resources that hold GPU nodes, by type token, with the provisioners that write them (a ``karpenter.sh``
NodePool is written by several: Karpenter and Auto Mode on EKS, node auto-provisioning on AKS)."""


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
    """The GPU capacity of a planned resource, None when it holds no GPU nodes gpuready can count, read by its
    provisioner's pool reader (``PoolFacts``): the GPU model, GPUs per node and most nodes (a NodePool without a
    ``nodes`` limit: its GPU limit in whole nodes). A field the reader reads that does not have the shape its type
    gives it is a ``PlanFormatError`` naming the resource."""
    type_token = resource["type"]
    if type_token not in GPU_POOL_TYPES:
        return None
    inputs = resource.get("inputs") or {}
    problems = shape_problems(type_token, inputs)
    if problems:
        raise PlanFormatError(
            f"the {which} plan's resource {resource['urn']}: its inputs do not have the shape {type_token} gives "
            f"them ({'; '.join(problems)}); make both plans with gpuready plan -o json"
        )
    pool = next(iter(read_pools(type_token, inputs)), None)
    if pool is None or pool.model is None or not pool.gpus_per_node:
        return None
    nodes = pool.max_nodes
    if nodes is None and pool.gpu_limit is not None:
        nodes = pool.gpu_limit // pool.gpus_per_node
    return PoolCapacity(pool.model.key, pool.gpus_per_node, nodes)


def table_for(type_token: str) -> ResourceTable:
    """The replacement table for a resource type."""
    if type_token in TABLES:
        return TABLES[type_token]
    if type_token.startswith("kubernetes:"):
        return KUBERNETES
    return OTHER
