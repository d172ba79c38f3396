"""GKE counts nodes per zone: how many zones a pool spans and what it starts with. Pure.

``initial_node_count`` is "the initial number of nodes for the pool. In regional or multi-zonal clusters, this is
the number of nodes per zone" and "changing this will force recreation of the resource" (pulumi_gcp 10.2.0
``container/node_pool.py``, docstring of ``initial_node_count``). A regional pool without ``node_locations``
spans the cluster's zones, whatever they are, and GPU types are offered in some zones only, so gpuready needs
the zones named for a regional cluster and starts exactly ``desiredSize`` nodes: the same number in each zone.
"""

from __future__ import annotations

from collections.abc import Sequence

from gpuready.core.capacity import rules as capacity_rules
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import Problem, SpecError
from gpuready.gke.zone_names import ZONE

__all__ = ["ZONE", "initial_per_zone", "initial_size_problem", "zone_count", "zone_problems"]


def zone_count(location: str | None, node_locations: Sequence[str] | None) -> int:
    """Zones the pool's nodes spread over; raise ``SpecError`` for a regional cluster without named zones."""
    if node_locations:
        bad = [z for z in node_locations if not ZONE.match(z)]
        if bad:
            raise SpecError.one("gkeNodeLocations", "are zones, like us-central1-a", bad[0])
        return len(set(node_locations))
    if location is not None and ZONE.match(location):
        return 1
    raise SpecError.one(
        "gkeNodeLocations",
        "is required for a regional or unknown cluster location: GKE starts initialNodeCount nodes in every zone "
        "of the pool, and offers each GPU type in some zones only",
        None,
        (),
        f"name the zones that offer the GPU, e.g. gkeNodeLocations: [{location or 'us-central1'}-a]",
    )


def initial_per_zone(spec: GpuPoolSpec, zones: int) -> int:
    """``initialNodeCount`` for the pool: ``desiredSize`` split evenly over the zones."""
    problem = initial_size_problem(spec, zones)
    if problem is not None:
        raise SpecError([problem])
    return spec.initial_size // zones


def initial_size_problem(spec: GpuPoolSpec, zones: int) -> Problem | None:
    """Why GKE cannot start exactly ``desiredSize`` nodes over ``zones`` zones, or None."""
    size = spec.initial_size
    if size % zones == 0:
        return None
    lower = size - size % zones
    upper = lower + zones
    choices = [str(n) for n in (lower, upper) if spec.min_size <= n <= spec.max_size]
    unset = spec.desired_size is None  # the pool starts minSize nodes; the fix is desiredSize, not the floor
    return Problem(
        "desiredSize",
        f"GKE starts the same number of nodes in each of the pool's {zones} zones, so the initial size "
        + ("(minSize, as desiredSize is not set) " if unset else "")
        + f"must be a multiple of {zones}",
        size,
        tuple(choices),
        ("set desiredSize to one of these (minSize stays the floor), " if unset else "")
        + "or name fewer zones (the pool's zones or gkeNodeLocations)",
    )


def zone_problems(
    location: str | None, node_locations: Sequence[str], pools: Sequence[GpuPoolSpec], prefix: str
) -> list[Problem]:
    """A GKE stack's zone problems, paths under ``prefix`` (``gpuready:``): each pool's zones (its own ``zones``,
    else the stack's ``gkeNodeLocations``) must be in the cluster's region; a node pool's must be known and its
    initial size must split evenly over them. An elastic pool (a ComputeClass) starts no nodes and names zones
    only as a preference (GKE picks among the cluster's otherwise), so it needs neither."""
    found: list[Problem] = []
    sized = [pool for pool in pools if not capacity_rules.is_elastic(pool)]
    if not pools or not all(pool.zones for pool in sized):
        try:
            zone_count(location, node_locations)
        except SpecError as error:
            found += [Problem(f"{prefix}{p.path}", p.problem, p.value, p.allowed, p.hint) for p in error.problems]
            return found
    for index, pool in enumerate(pools):
        under = f"{prefix}nodePools[{index}]"
        zones = pool.zones or tuple(node_locations)
        outside = [z for z in pool.zones if location and not _in_location(z, location)]
        if outside:
            found.append(
                Problem(f"{under}.zones", f"are not all in the cluster's location {location}", outside, (), "")
            )
        if pool not in sized:
            continue
        problem = initial_size_problem(pool, zone_count(location, zones))
        if problem is not None:
            found.extend(SpecError([problem]).under(under).problems)
    return found


def _in_location(zone: str, location: str) -> bool:
    """Whether ``zone`` lies in the cluster's ``location`` (a region, or a zone of a zonal cluster's region)."""
    region = location.rsplit("-", 1)[0] if ZONE.match(location) else location
    return zone.startswith(f"{region}-")
