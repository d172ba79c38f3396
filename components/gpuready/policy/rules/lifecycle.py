"""Rules on how GPU pools live on: who owns their node count, and what a replacement does to their GPUs. Pure.

These read the resource options the engine sends with every resource (``ignoreChanges``, ``deleteBeforeReplace``):
``(resource_type, props, options, config) -> messages``. Facts (docs/day2.md "Day 2"):
- the initial count of an autoscaled pool is the autoscaler's after creation; without ``ignoreChanges`` the next
  refresh puts it back (EKS ``scalingConfig.desiredSize``, AKS ``count``), and on GKE ``initialNodeCount`` forces
  recreation, which a resize can trigger (pulumi_gcp 10.2.0 ``container/node_pool.py`` docstring);
- ``deleteBeforeReplace: true`` removes every GPU of the pool before its replacement exists.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.props import as_mapping, as_number, dig
from gpuready.policy.rules.gpu_pools import (
    AKS_AGENT_POOL,
    EKS_NODE_GROUP,
    GKE_NODE_POOL,
    gpu_pools,
)

CREATION_ONLY_COUNT: Mapping[str, str] = {
    EKS_NODE_GROUP: "scalingConfig.desiredSize",
    AKS_AGENT_POOL: "count",
    GKE_NODE_POOL: "initialNodeCount",
}
"""The input holding a pool's initial node count, per pool resource type (a ManagedCluster's inline profiles
are left out: their counts live in one list with the cluster's own settings)."""
LIFECYCLE_TYPES = frozenset(CREATION_ONLY_COUNT)


def autoscaled_count_problems(
    resource_type: str, props: Mapping[str, Any], options: Mapping[str, Any], config: Mapping[str, Any]
) -> list[str]:
    """An autoscaled GPU pool must leave its node count to the autoscaler after creation."""
    field = CREATION_ONLY_COUNT.get(resource_type)
    if field is None or not gpu_pools(resource_type, props) or not _autoscaled(resource_type, props):
        return []
    if _ignored(field, options.get("ignoreChanges") or ()):
        return []
    if resource_type == GKE_NODE_POOL:
        harm = "a resize changes it, and the next refresh then replaces the whole pool"
    else:
        harm = "after the autoscaler resized the pool, the next refresh sets it back and can remove GPU nodes mid-job"
    return [f"{field}: the autoscaler owns this count once the pool exists; {harm}. Add {field!r} to ignoreChanges"]


def delete_first_problems(
    resource_type: str, props: Mapping[str, Any], options: Mapping[str, Any], config: Mapping[str, Any]
) -> list[str]:
    """A GPU pool replaced delete-first has no GPUs until its replacement is ready."""
    if options.get("deleteBeforeReplace") is not True or not gpu_pools(resource_type, props):
        return []
    return [
        "deleteBeforeReplace: a replacement deletes every GPU node of the pool before the new pool exists. Give the "
        "pool a name that changes with the inputs that force replacement (gpuready's pools do) and drop the option"
    ]


def _autoscaled(resource_type: str, props: Mapping[str, Any]) -> bool:
    if resource_type == EKS_NODE_GROUP:
        scaling = as_mapping(props.get("scalingConfig")) or {}
        low, high = as_number(scaling.get("minSize")), as_number(scaling.get("maxSize"))
        return low is not None and high is not None and high > low
    if resource_type == AKS_AGENT_POOL:
        return props.get("enableAutoScaling") is True
    return dig(props, "autoscaling") is not None and "initialNodeCount" in props


def _ignored(field: str, ignored: Sequence[Any]) -> bool:
    return any(isinstance(i, str) and (field == i or field.startswith(f"{i}.")) for i in ignored)
