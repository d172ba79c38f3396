"""Rules on how GPU pools live on: who owns their node count, and what a replacement does to their GPUs. Pure.

These read the resource options the engine sends with every resource (``ignoreChanges``, ``deleteBeforeReplace``):
``(resource_type, props, options, config) -> messages``. Facts (docs/day2.md "Day 2"):
- the initial count of an autoscaled pool is the autoscaler's after creation; without ``ignoreChanges`` the next
  refresh puts it back (EKS ``scalingConfig.desiredSize``, AKS ``count``), and on GKE ``initialNodeCount`` forces
  recreation, which a resize can trigger (pulumi_gcp 10.2.0 ``container/node_pool.py`` docstring). Which input a
  pool reads at creation only is its reader's fact (``PoolFacts.creation_only``), what changing it does is its
  provisioner's replacement table's;
- ``deleteBeforeReplace: true`` removes every GPU of the pool before its replacement exists.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.capacity.registry import provisioner_types, provisioners_for_type
from gpuready.core.lifecycle import ResourceTable
from gpuready.policy.rules.gpu_pools import gpu_pools


def _pool_table(resource_type: str) -> ResourceTable | None:
    """The replacement table of the provisioner that writes a sized GPU node group of ``resource_type`` (one
    each), None for any other type."""
    return next(
        (p.pool_table for p in provisioners_for_type(resource_type)
         if not p.elastic and p.pool_table.type == resource_type),
        None,
    )  # fmt: skip


LIFECYCLE_TYPES = provisioner_types(lambda p: () if p.elastic else (p.pool_table.type,))
"""The resources that hold a sized group of GPU nodes (a cluster's inline pool profiles are left out: their counts
live in one list with the cluster's own settings)."""


def autoscaled_count_problems(
    resource_type: str, props: Mapping[str, Any], options: Mapping[str, Any], config: Mapping[str, Any]
) -> list[str]:
    """An autoscaled GPU pool must leave its node count to the autoscaler after creation."""
    table = _pool_table(resource_type)
    if table is None:
        return []
    problems = []
    for pool in gpu_pools(resource_type, props):
        for field in pool.creation_only:
            if _ignored(field, options.get("ignoreChanges") or ()):
                continue
            if table.action(field) == "replace":
                harm = "a resize changes it, and the next refresh then replaces the whole pool"
            else:
                harm = (
                    "after the autoscaler resized the pool, the next refresh sets it back and can remove GPU nodes "
                    "mid-job"
                )
            problems.append(
                f"{field}: the autoscaler owns this count once the pool exists; {harm}. Add {field!r} to ignoreChanges"
            )
    return problems


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


def _ignored(field: str, ignored: Sequence[Any]) -> bool:
    return any(isinstance(i, str) and (field == i or field.startswith(f"{i}.")) for i in ignored)
