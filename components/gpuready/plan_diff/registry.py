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

from gpuready.core.capacity.registry import provisioners
from gpuready.core.lifecycle import FieldRule, PoolCapacity, ResourceTable
from gpuready.plan_diff.plan_file import PlanFormatError

CapacityReader = Callable[[Mapping[str, Any]], PoolCapacity | None]

TABLES: Mapping[str, ResourceTable] = {t.type: t for p in provisioners() for t in p.tables}
"""Replacement tables of the cloud resources gpuready creates, by Pulumi type token."""
GPU_POOL_TYPES: Mapping[str, CapacityReader] = {p.pool_table.type: p.capacity for p in provisioners()}
"""Cloud resources that hold GPU nodes, and how to read their capacity from planned inputs."""

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
    reader = GPU_POOL_TYPES.get(resource["type"])
    if reader is None:
        return None
    try:
        return reader(resource.get("inputs") or {})
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
