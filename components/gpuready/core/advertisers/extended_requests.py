"""Validation of a container's request for extended GPU resources: whole units that a node can hold. Pure.

Extended resources are whole numbers (``0.5`` and ``500m`` are rejected by the API server) and cannot be
overcommitted (kubernetes.io "Resource Management for Pods and Containers", "Consuming extended resources").
A fraction of a GPU is what time-slicing, MPS or MIG give; the error says which fits the pool.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gpuready.core.advertisers.interface import GpuRequest
from gpuready.core.pool_parts import GpuSharing
from gpuready.errors import Problem, SpecError

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec


DRA_ONLY_HINT = (
    "the pool's GPUs are advertised by the device plugin as extended resources; DeviceClasses, MIG profiles by "
    "name and device selectors are claimed through DRA: set advertise: dra on the pool"
)


def claim_only_problems(pool: GpuPoolSpec, mig_profile: object, selectors: Sequence[object]) -> list[Problem]:
    """What a request asks that only a claim (DRA) can express: a MIG profile by name, device selectors."""
    problems: list[Problem] = []
    if mig_profile is not None:
        problems.append(
            Problem(
                "migProfile",
                f"pool {pool.name!r} advertises MIG devices as extended resources, not by profile attribute",
                mig_profile,
                (),
                "request resource='nvidia.com/mig-<profile>' on a MIG mixed pool, or " + DRA_ONLY_HINT,
            )
        )
    if selectors:
        problems.append(
            Problem(
                "selectors", f"pool {pool.name!r} cannot choose GPUs by attribute", list(selectors), (), DRA_ONLY_HINT
            )
        )
    return problems


def whole_units_request(
    pool: GpuPoolSpec,
    allocatable: Mapping[str, int],
    name: str,
    gpus: object,
    *,
    claims_only: Sequence[Problem] = (),
) -> GpuRequest:
    """``gpus`` units of ``name`` on ``pool``; raises ``SpecError`` for fractions, resources the pool's nodes do
    not advertise, requests no node can hold, and ``claims_only`` (what only a claim could ask)."""
    problems: list[Problem] = list(claims_only)
    if name not in allocatable:
        hint = DRA_ONLY_HINT if "/" not in name else "request one of the pool's resources"
        problems.append(
            Problem(
                "resource",
                f"nodes of pool {pool.name!r} do not advertise this resource",
                name,
                sorted(allocatable),
                hint,
            )
        )
    count = _whole_units(pool, gpus, problems)
    if count is not None and name in allocatable:
        problems.extend(_fit_problems(pool, name, count, allocatable[name]))
    if problems or count is None:
        raise SpecError(problems)
    return GpuRequest(resource=name, count=count)


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
    if pool.resolved.delivery != "device-plugin-config":
        return False
    if sharing.fail_requests_greater_than_one is not None:
        return sharing.fail_requests_greater_than_one
    return sharing.mode == "mps"
