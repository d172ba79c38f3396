"""Rules on node fabrics in any program's stack: GPU pools whose types have a fabric they do not set up (each
cloud's ``CloudFabric.policy_problems``), and pods that request a fabric's devices on a pool without them. Pure.

A pod requesting an extended resource no node of the pool it selects advertises stays Pending (the scheduler's
``NodeResourcesFit``; kubernetes.io "Resource Management for Pods and Containers", extended resources). The pool a
pod lands on is read from its ``nodeSelector`` against the pools' node labels; a pod without one is not judged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.clouds.registry import cloud_profile, cloud_profiles
from gpuready.core.props import as_list, as_mapping, dig
from gpuready.policy.rules.gpu_pools import POOL_TYPES, GpuPool, gpu_pools
from gpuready.policy.rules.stack import Finding, StackResource
from gpuready.policy.rules.workloads import WORKLOAD_TYPES, pod_spec


def fabric_types() -> frozenset[str]:
    """The resource types the rule reads: pools, workloads, and what the clouds' fabric hooks read."""
    extra = {kind for profile in cloud_profiles() for kind in profile.fabric.policy_types}
    return POOL_TYPES | WORKLOAD_TYPES | extra


def fabric_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """Pools without the fabric their types have, and pods asking for a fabric their pool lacks."""
    stack = [(r.type, r.props) for r in resources]
    pools = [(r, pool) for r in resources for pool in gpu_pools(r.type, r.props)]
    findings = []
    for resource, pool in pools:
        for message in cloud_profile(pool.cloud).fabric.policy_problems(
            pool.where, pool.props, pool.instance_types, stack
        ):
            findings.append(Finding(resource.urn, f"{_kind(resource)} {resource.name!r}: {message}"))
    names = {name for profile in cloud_profiles() for name in profile.fabric.resource_names}
    for resource in resources:
        found = pod_spec(resource.type, resource.props)
        if found is None:
            continue
        path, spec = found
        wanted = sorted(_requested(spec) & names)
        selector = as_mapping(spec.get("nodeSelector")) or {}
        if not wanted or not selector:
            continue
        for _, pool in pools:
            if all(pool.labels.get(k) == v for k, v in selector.items()):
                findings += _lacking(resource, path, wanted, pool)
    return findings


def _requested(spec: Mapping[str, Any]) -> set[str]:
    names: set[str] = set()
    for key in ("initContainers", "containers"):
        for container in as_list(spec.get(key)):
            for side in ("limits", "requests"):
                names.update(str(n) for n in as_mapping(dig(container, "resources", side)) or {})
    return names


def _lacking(resource: StackResource, path: tuple[str, ...], wanted: list[str], pool: GpuPool) -> list[Finding]:
    fabric = cloud_profile(pool.cloud).fabric
    offered: set[str] = set()
    for name in pool.instance_types:
        offered.update(fabric.type_resources(name))
    missing = [name for name in wanted if name not in offered]
    if not missing:
        return []
    types = ", ".join(pool.instance_types) or "its instance types"
    return [
        Finding(
            resource.urn,
            f"{_kind(resource)} {resource.name!r}: {'.'.join(path)} requests {', '.join(missing)}, but its "
            f"nodeSelector picks the pool on {types}, which has none: its pods stay Pending. Select a pool with the "
            "fabric (fabric: efa on a gpuready pool), or drop the request",
        )
    ]


def _kind(resource: StackResource) -> str:
    return resource.type.rsplit(":", 1)[-1]
