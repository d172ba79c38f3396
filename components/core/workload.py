"""The pod-spec fragment that runs a workload on a gpuready pool. Pure.

Kubernetes rules (kubernetes.io "Schedule GPUs" and "Resource Management for Pods and Containers",
"Consuming extended resources"): extended resources are whole numbers (``0.5`` and ``500m`` are rejected by
the API server), cannot be overcommitted, and a GPU request must equal its limit, so the fragment sets both to
the same integer. The resource name is the one the pool's nodes advertise (``resources.allocatable_per_node``):
``nvidia.com/gpu``, ``nvidia.com/gpu.shared`` for renamed time-slicing/MPS, ``nvidia.com/mig-<profile>`` under
MIG ``mixed``. A fraction of a GPU is what time-slicing, MPS or MIG give; the error says which fits the pool.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from components.core import resources, sharing_plan
from components.core.scheduling import node_selector, pool_taints, toleration_for
from components.core.specs import GpuPoolSpec, GpuSharing
from components.core.workload_placement import Placement
from components.errors import Problem, SpecError


@dataclass(frozen=True, kw_only=True, slots=True)
class GpuWorkload:
    """Where and with what a workload runs on one pool."""

    pool: str
    resource: str
    """Extended resource the containers request."""
    count: int
    """Units per container (requests == limits)."""
    node_selector: Mapping[str, str]
    tolerations: tuple[Mapping[str, str], ...]
    placement: Placement = field(default_factory=Placement)

    def pod_spec(self) -> dict[str, Any]:
        """Fields to merge into a PodSpec: ``nodeSelector``, ``tolerations`` and the placement's fields."""
        return {
            "nodeSelector": dict(self.node_selector),
            "tolerations": [dict(t) for t in self.tolerations],
            **self.placement.pod_spec(),
        }

    def pod_labels(self) -> dict[str, str]:
        """Labels the pod template must carry for the placement (the pack group's)."""
        return self.placement.pod_labels()

    def resources(self) -> dict[str, Any]:
        """A container's ``resources``: the GPU units as both limit and request."""
        return {"limits": {self.resource: self.count}, "requests": {self.resource: self.count}}

    def container(self, container: Mapping[str, Any]) -> dict[str, Any]:
        """``container`` with the GPU units added to its ``resources`` (other resources kept)."""
        merged = dict(container)
        current = dict(merged.get("resources") or {})
        for key, units in self.resources().items():
            current[key] = {**dict(current.get(key) or {}), **units}
        merged["resources"] = current
        return merged


def gpu_workload(
    pool: GpuPoolSpec, gpus: object = 1, *, resource: str | None = None, placement: Placement | None = None
) -> GpuWorkload:
    """The placement and GPU request for ``gpus`` units of ``resource`` (default: the pool's main one) per
    container on ``pool``; raises ``SpecError`` for fractions, unknown resources and requests no node can hold."""
    allocatable = resources.allocatable_per_node(pool)
    name = resource if resource is not None else resources.primary_resource(pool)
    problems: list[Problem] = []
    if name not in allocatable:
        problems.append(
            Problem(
                "resource",
                f"nodes of pool {pool.name!r} do not advertise this resource",
                name,
                sorted(allocatable),
                "request one of the pool's resources",
            )
        )
    count = _whole_units(pool, gpus, problems)
    if count is not None and name in allocatable:
        problems.extend(_fit_problems(pool, name, count, allocatable[name]))
    if problems or count is None:
        raise SpecError(problems)
    taints = pool_taints(pool)
    return GpuWorkload(
        pool=pool.name,
        resource=name,
        count=count,
        node_selector=node_selector(pool),
        tolerations=tuple(toleration_for(t) for t in taints),
        placement=placement or Placement(),
    )


def _whole_units(pool: GpuPoolSpec, gpus: object, problems: list[Problem]) -> int | None:
    if isinstance(gpus, int) and not isinstance(gpus, bool):
        if gpus >= 1:
            return gpus
        problems.append(Problem("gpus", "must be at least 1", gpus, (), "omit the GPU request for CPU-only pods"))
        return None
    if isinstance(gpus, float) and gpus.is_integer() and gpus >= 1:
        return int(gpus)
    problems.append(
        Problem(
            "gpus",
            "GPUs are requested in whole units: Kubernetes refuses fractions of extended resources",
            gpus,
            (),
            _fraction_hint(pool),
        )
    )
    return None


def _fraction_hint(pool: GpuPoolSpec) -> str:
    sharing = pool.sharing
    if isinstance(sharing, GpuSharing):
        return (
            f"pool {pool.name!r} already shares each GPU {sharing.replicas} ways by {sharing.mode}; request 1 unit "
            "to get one share"
        )
    if sharing is not None:
        return f"pool {pool.name!r} is partitioned by MIG; request 1 unit of a MIG resource to get one partition"
    return (
        "to give a pod part of a GPU, share the pool's GPUs with sharing: {mode: time-slicing, replicas: N} or "
        "{mode: mps, replicas: N} (each unit is one share), or partition them with MIG on a MIG-capable GPU"
    )


def _fit_problems(pool: GpuPoolSpec, name: str, count: int, per_node: int) -> list[Problem]:
    problems: list[Problem] = []
    if count > per_node:
        problems.append(
            Problem(
                "gpus",
                f"no node of pool {pool.name!r} has that many: each advertises {per_node} {name}",
                count,
                (),
                f"request at most {per_node}, or split the work across pods",
            )
        )
    sharing = pool.sharing
    if isinstance(sharing, GpuSharing) and count > 1 and _refuses_multiple(pool, sharing):
        problems.append(
            Problem(
                "gpus",
                f"pool {pool.name!r} refuses requests of more than one share (failRequestsGreaterThanOne), so the "
                "pod would fail with UnexpectedAdmissionError",
                count,
                (),
                "request 1 unit, or use a pool without sharing for multi-GPU work",
            )
        )
    return problems


def _refuses_multiple(pool: GpuPoolSpec, sharing: GpuSharing) -> bool:
    """NVIDIA's plugin refuses >1 share when asked to; for MPS that is its default (DP v0.20.0 ``f14d3d12d``)."""
    if sharing_plan.delivery(pool.cloud, pool.driver, sharing.mode) != "device-plugin-config":
        return False
    if sharing.fail_requests_greater_than_one is not None:
        return sharing.fail_requests_greater_than_one
    return sharing.mode == "mps"
