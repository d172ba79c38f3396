"""A GKE specific reservation's zone and project against the pool's (issue #28; modelplaneai/modelplane #184: a
mismatch fails in the plan, not opaquely at node creation). Pure.

A Compute Engine reservation holds VMs in one zone (GKE docs "Consuming reserved zonal resources",
cloud.google.com/kubernetes-engine/docs/how-to/consuming-reservations: "reserve Compute Engine instances in a specific
zone"), and a node pool that targets a SPECIFIC reservation creates its nodes only from it, so a
``reservation.zone`` outside the pool's node locations (its ``zones``, else the stack's ``gkeNodeLocations``, else a
zonal cluster's own zone) can never be consumed: refused. Witness: GoogleCloudPlatform/cluster-toolkit@098a055e
``modules/compute/gke-node-pool/reservation_definitions.tf`` L27-47 looks a specific reservation up in the node pool's
own zones only (``for zone in var.zones``). ``reservation.nodes`` bounds ``maxSize`` through the shared
rule (``core.capacity.reservation_rules``: GKE's ``maxSize`` is the pool's total, ``total_max_node_count``).

A reservation of another project (``reservation.project``) must be shared with the cluster's project (GKE docs
"Consuming reserved zonal resources", shared reservations); whether it is cannot be known offline, so when the stack
names the cluster's project (``gcp:project``) and it differs, the plan warns (``project_warning``).

A reservation is one zone's, but reservations of one name may exist in several zones (each zone's reservation is its
own resource; the cluster-toolkit witness above looks the name up in every zone of the pool). A pool spanning more
zones than ``reservation.zone`` therefore creates nodes in the others only if a reservation of that name exists there
too, which cannot be seen offline: the plan warns (``zones_warning``), naming the zones to check.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gpuready.errors import Problem
from gpuready.gke.zone_names import ZONE

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec


def _specific_zone(spec: GpuPoolSpec) -> str | None:
    reservation = spec.reservation
    if reservation is None or reservation.affinity != "specific":
        return None
    return reservation.zone


def problems(spec: GpuPoolSpec) -> list[Problem]:
    """The zone's form, and a zone outside the pool's own ``zones`` (when it names them)."""
    zone = _specific_zone(spec)
    if zone is None:
        return []
    if not isinstance(zone, str) or not ZONE.match(zone):
        return [Problem("reservation.zone", "not a Compute Engine zone", zone, (), "e.g. us-central1-a")]
    return outside_problems(spec, spec.zones, "")


def outside_problems(spec: GpuPoolSpec, zones: Sequence[str], prefix: str) -> list[Problem]:
    """A specific reservation's zone outside ``zones`` (the pool's node locations); ``prefix``: the pool's path."""
    zone = _specific_zone(spec)
    if zone is None or not zones or zone in zones or not ZONE.match(zone):
        return []
    where = "zones" if spec.zones else "the stack's gkeNodeLocations"
    return [
        Problem(f"{prefix}reservation.zone", f"is not among the pool's node locations ({where}): a zonal reservation "
                "outside them is never consumed", zone, tuple(zones),
                f"give the pool zones: [{zone}], or set reservation.zone to the reservation's zone "
                f"(gcloud compute reservations describe {spec.reservation.name if spec.reservation else '<name>'})")
    ]  # fmt: skip


def stack_problems(
    location: str | None, node_locations: Sequence[str], pools: Sequence[GpuPoolSpec], prefix: str
) -> list[Problem]:
    """Pools without zones of their own span the stack's ``gkeNodeLocations`` (or a zonal cluster's zone)."""
    zones = tuple(node_locations) or ((location,) if location and ZONE.match(location) else ())
    return [
        problem
        for index, pool in enumerate(pools)
        if not pool.zones
        for problem in outside_problems(pool, zones, f"{prefix}nodePools[{index}].")
    ]


def project_warning(spec: GpuPoolSpec, cluster_project: str | None) -> str | None:
    """What the plan warns of a specific reservation in another project than the cluster's (``gcp:project``)."""
    reservation = spec.reservation
    if (
        reservation is None
        or reservation.affinity != "specific"
        or reservation.project is None
        or not cluster_project
        or reservation.project == cluster_project
    ):
        return None
    return (
        f"pool {spec.name}: reservation {reservation.name} is in project {reservation.project}, not the cluster's "
        f"{cluster_project} (gcp:project): it must be shared with {cluster_project} (gcloud compute reservations "
        f"update {reservation.name} --project={reservation.project} --zone=<zone> --add-share-with={cluster_project}), "
        "else no node of the pool is created"
    )


def zones_warning(spec: GpuPoolSpec, spanned: Sequence[str]) -> str | None:
    """What the plan warns of a specific reservation in one zone for a pool spanning more (``spanned``: its zones)."""
    zone = _specific_zone(spec)
    others = [z for z in spanned if z != zone]
    if zone is None or zone not in spanned or not others or spec.reservation is None:
        return None
    name = spec.reservation.name
    return (
        f"pool {spec.name}: reservation {name} is in {zone}, but the pool also spans {', '.join(others)}: nodes there "
        f"are created only if a reservation named {name} exists in each of those zones too (gcloud compute "
        f"reservations list --filter=name={name}); else give the pool zones: [{zone}]"
    )
