"""How a GKE node pool gets capacity (issue #28): the table per ``capacity`` value and its cross-field rules. Pure.

Enums are pulumi_gcp 10.2.0's (``container/_inputs.py``: ``NodePoolNodeConfigReservationAffinityArgs``
``consume_reservation_type`` NO_RESERVATION / ANY_RESERVATION / SPECIFIC_RESERVATION with the key
``compute.googleapis.com/reservation-name``, L28510-28526; ``NodePoolAutoscalingArgs`` ``location_policy`` BALANCED /
ANY, L23729-23737; ``NodePoolNodeConfigArgs`` ``flex_start`` and ``max_run_duration`` ``"<n>s"``, L25015-25205;
``NodePoolQueuedProvisioningArgs`` ``enabled``, L29153-29160; ``NodePoolPlacementPolicyArgs`` ``type`` COMPACT,
L29073-29080). The input names are checked against ``gke/inputs.json`` by the tests.

The cross-field rules no schema states, each with its witness (GKE's documentation first, then the tooling that
enforces it; every rule is a row of ``tests/gke/test_capacity_rules.py``):

* flex-start and queued provisioning: location policy ANY, no reservation, node auto-repair off
  (GKE docs "Run a large-scale workload with flex-start with queued provisioning" and "Run a small batch workload
  with flex-start", node pool creation: ``--flex-start``, ``--location-policy=ANY``, ``--reservation-affinity=none``,
  ``--no-enable-autorepair``; GoogleCloudPlatform/cluster-toolkit v1.95.0 modules/compute/gke-node-pool/main.tf L120
  (location policy ANY), L415-425 (flex-start: auto_repair false, NO_RESERVATION);
  terraform-google-modules/terraform-google-kubernetes-engine @bb176b2 cluster.tf L862-867 (queued forces
  NO_RESERVATION));
* queued provisioning is flex-start too (GKE docs: "add the --flex-start and --enable-queued-provisioning flags"), has
  no compact placement and no minimum of nodes (cluster-toolkit main.tf L391-401), and its nodes carry the
  ``cloud.google.com/gke-queued`` NoSchedule taint, which GKE adds itself (cluster-toolkit main.tf L69-75);
* flex-start with COMPACT placement only on A3 Ultra, A4 and H4D machines (cluster-toolkit main.tf L452-459);
* spot capacity consumes no reservation (cluster-toolkit main.tf L435-437);
* a SPECIFIC reservation names it (pulumi_gcp docs above; cluster-toolkit main.tf L341-348).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gpuready.core.capacity.capacity_offers import CapacityOffer, reading
from gpuready.core.props import as_mapping, as_text, dig
from gpuready.core.taints import Taint
from gpuready.errors import Problem
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

LOCATION_POLICIES: tuple[str, ...] = ("ANY", "BALANCED")
AFFINITIES: Mapping[str, str] = {
    "any": "ANY_RESERVATION",
    "specific": "SPECIFIC_RESERVATION",
    "none": "NO_RESERVATION",
}
"""``reservation.affinity`` -> ``consumeReservationType``."""
RESERVATION_NAME_KEY = "compute.googleapis.com/reservation-name"
QUEUED_TAINT = Taint(key="cloud.google.com/gke-queued", value="true", effect="NoSchedule")
"""The taint GKE puts on a queued pool's nodes (cluster-toolkit main.tf L69-75)."""
COMPACT = "COMPACT"
FLEX_COMPACT_MACHINES: tuple[str, ...] = ("a3-ultragpu-", "a4-", "h4d-")
"""Machine type prefixes on which flex-start takes COMPACT placement (cluster-toolkit main.tf L452-459)."""
MAX_RUN_SECONDS = (30, 7 * 24 * 3600)
"""``maxRunDuration`` bounds: GCE's shortest run limit, and flex-start's longest node life, seven days (GKE docs
"About GPU obtainability with flex-start"; ComputeClass ``flexStart.nodeRecycling.leadTimeSeconds`` maximum 604800
in computeclass_v1.json)."""
RESOURCE_NAME = re.compile(r"^[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?\Z")
"""A GCE resource name (RFC 1035, at most 63 characters): a reservation's."""
PROJECT_ID = re.compile(r"^[a-z][-a-z0-9]{4,28}[a-z0-9]\Z")
"""A Google Cloud project id: 6-30 lowercase letters, digits or '-', starting with a letter."""


@record(frozen=True, kw_only=True, slots=True)
class GkeCapacity:
    """What one ``capacity`` value means for a GKE node pool."""

    spot: bool = False
    flex_start: bool = False
    queued: bool = False
    location_policies: tuple[str, ...] = LOCATION_POLICIES
    """Allowed ``locationPolicy`` values, the default first."""
    affinities: tuple[str, ...] = ("none",)
    """Allowed ``reservation.affinity`` values."""
    needs_reservation: bool = False
    """``reservation`` is required (a ``reserved`` pool)."""
    forced_affinity: str | None = None
    """``consumeReservationType`` set whatever the pool says (flex-start and queued: NO_RESERVATION)."""


ANY_FIRST = ("ANY", "BALANCED")
CAPACITIES: Mapping[str, GkeCapacity] = {
    "on-demand": GkeCapacity(location_policies=("BALANCED", "ANY")),
    "spot": GkeCapacity(spot=True, location_policies=ANY_FIRST),
    "reserved": GkeCapacity(location_policies=ANY_FIRST, affinities=("any", "specific"), needs_reservation=True),
    "flex-start": GkeCapacity(flex_start=True, location_policies=("ANY",), forced_affinity="none"),
    "queued": GkeCapacity(flex_start=True, queued=True, location_policies=("ANY",), forced_affinity="none"),
}
"""The GKE node pool's capacities (``GkeNodePool.capacities`` has its keys)."""
RESERVATION_KEYS: frozenset[str] = frozenset({"affinity", "name", "project", "zone", "nodes"})
"""The ``reservation`` fields a GKE node pool or ComputeClass reads (which capacity takes which: ``problems``; a
specific reservation's ``zone`` against the pool's zones: ``gke.reservation_zone``)."""
OFFERS: Mapping[str, CapacityOffer] = reading(tuple(CAPACITIES), RESERVATION_KEYS)
"""The GKE node pool's row of the capacity table (``capacity.capacity_offers``)."""


def facts(spec: GpuPoolSpec) -> GkeCapacity:
    return CAPACITIES[spec.capacity]


def location_policy(spec: GpuPoolSpec) -> str:
    """``autoscaling.locationPolicy``: the pool's, else its capacity's default."""
    return spec.location_policy or facts(spec).location_policies[0]


def affinity(spec: GpuPoolSpec) -> str | None:
    """The pool's ``reservation.affinity`` as it applies (forced for flex-start and queued), None: unset."""
    forced = facts(spec).forced_affinity
    if forced is not None:
        return forced
    return spec.reservation.affinity if spec.reservation is not None else None


def reservation_affinity(spec: GpuPoolSpec) -> dict[str, Any] | None:
    """``nodeConfig.reservationAffinity`` (python spelling), None when the pool leaves GKE's default."""
    chosen = affinity(spec)
    if chosen is None:
        return None
    planned: dict[str, Any] = {"consume_reservation_type": AFFINITIES[chosen]}
    reservation = spec.reservation
    if chosen == "specific" and reservation is not None and reservation.name is not None:
        value = reservation.name
        if reservation.project is not None:
            value = f"projects/{reservation.project}/reservations/{reservation.name}"
        planned |= {"key": RESERVATION_NAME_KEY, "values": [value]}
    return planned


def problems(spec: GpuPoolSpec) -> list[Problem]:
    """Every capacity rule the pool breaks (``spec.capacity`` is one of ``CAPACITIES``)."""
    if spec.capacity not in CAPACITIES:
        return []
    found = _location_problems(spec) + _reservation_problems(spec) + _run_problems(spec)
    found += _queue_problems(spec) + _placement_problems(spec)
    return found


def class_problems(spec: GpuPoolSpec) -> list[Problem]:
    """A ComputeClass pool's capacity rules: the reservation ones of a node pool, and the run limit's bounds (a
    class sets ``maxRunDurationSeconds`` on any priority, not only flex-start's)."""
    if spec.capacity not in CAPACITIES:
        return []
    found = _reservation_problems(spec)
    seconds = spec.max_run_duration
    low, high = MAX_RUN_SECONDS
    if seconds is not None and (
        isinstance(seconds, bool) or not isinstance(seconds, int) or not low <= seconds <= high
    ):
        found.append(Problem("maxRunDuration", f"must be whole seconds between {low} and {high} (seven days)", seconds))
    return found


def _location_problems(spec: GpuPoolSpec) -> list[Problem]:
    given = spec.location_policy
    allowed = facts(spec).location_policies
    if given is None or given in allowed:
        return []
    if given not in LOCATION_POLICIES:
        return [Problem("locationPolicy", "unknown location policy", given, LOCATION_POLICIES)]
    return [
        Problem("locationPolicy", f"a {spec.capacity} pool scales up with location policy ANY only", given, allowed,
                "set locationPolicy: ANY or leave it out")
    ]  # fmt: skip


def _reservation_problems(spec: GpuPoolSpec) -> list[Problem]:
    gke = facts(spec)
    reservation = spec.reservation
    chosen = reservation.affinity if reservation is not None else None
    if chosen is None:
        if gke.needs_reservation:
            hint = "set reservation: {affinity: any}, or {affinity: specific, name: ...}"
            return [Problem("reservation.affinity", "a reserved pool names how it consumes reservations", None,
                            gke.affinities, hint)]  # fmt: skip
        return _specific_problems(spec, None)
    if chosen not in AFFINITIES:
        return [Problem("reservation.affinity", "unknown reservation affinity", chosen, tuple(AFFINITIES))]
    if chosen not in gke.affinities:
        if spec.capacity == "on-demand":
            why, hint = "consumes no reservation", "set capacity: reserved to consume one"
        elif gke.needs_reservation:
            why, hint = "consumes a reservation", "set reservation.affinity: any, or specific with its name"
        else:
            why, hint = "consumes no reservation (GKE: NO_RESERVATION)", "remove reservation"
        return [Problem("reservation.affinity", f"a {spec.capacity} pool {why}", chosen, gke.affinities, hint)]
    return _specific_problems(spec, chosen)


def _specific_problems(spec: GpuPoolSpec, chosen: str | None) -> list[Problem]:
    reservation = spec.reservation
    if reservation is None:
        return []
    found: list[Problem] = []
    if chosen != "specific":
        why = f"only a specific reservation takes a name, project, zone and size (affinity is {chosen or 'unset'})"
        found += [
            Problem(f"reservation.{key}", why, value, (),
                    f"set reservation.affinity: specific, or remove reservation.{key}")
            for key, value in (("name", reservation.name), ("project", reservation.project),
                               ("zone", reservation.zone), ("nodes", reservation.nodes))
            if value is not None
        ]  # fmt: skip
        return found
    if reservation.name is None:
        found.append(Problem("reservation.name", "is required for a specific reservation", None, (),
                             "set reservation.name to the reservation's name"))  # fmt: skip
    elif not RESOURCE_NAME.match(reservation.name):
        found.append(Problem("reservation.name", "not a GCE reservation name", reservation.name, (),
                             "1-63 lowercase letters, digits or '-', starting with a letter"))  # fmt: skip
    if reservation.project is not None and not PROJECT_ID.match(reservation.project):
        found.append(Problem("reservation.project", "not a Google Cloud project id", reservation.project, (),
                             "6-30 lowercase letters, digits or '-', starting with a letter"))  # fmt: skip
    return found


def _run_problems(spec: GpuPoolSpec) -> list[Problem]:
    seconds = spec.max_run_duration
    if seconds is None:
        return []
    if not facts(spec).flex_start:
        why = f"only flex-start and queued nodes have a run limit here, not {spec.capacity}"
        hint = "remove maxRunDuration, or set capacity: flex-start or queued"
        return [Problem("maxRunDuration", why, seconds, (), hint)]
    low, high = MAX_RUN_SECONDS
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not low <= seconds <= high:
        return [Problem("maxRunDuration", f"must be whole seconds between {low} and {high} (seven days)", seconds)]
    return []


def _queue_problems(spec: GpuPoolSpec) -> list[Problem]:
    gke = facts(spec)
    found: list[Problem] = []
    if gke.flex_start and spec.repair.enabled:
        found.append(Problem("repair", f"a {spec.capacity} pool needs node auto-repair off", True, ("false",),
                             "set repair: false (flex-start nodes are not repaired in place)"))  # fmt: skip
    if gke.queued and spec.min_size != 0:
        found.append(Problem("minSize", "a queued pool has no minimum: its nodes come only through a "
                             "ProvisioningRequest", spec.min_size, ("0",), "set minSize: 0"))  # fmt: skip
    if gke.queued and spec.desired_size not in (None, 0):
        found.append(Problem("desiredSize", "a queued pool starts empty", spec.desired_size, ("0",),
                             "remove desiredSize"))  # fmt: skip
    return found


def _placement_problems(spec: GpuPoolSpec) -> list[Problem]:
    placement = as_mapping(spec.overrides.get("placementPolicy")) if isinstance(spec.overrides, Mapping) else None
    if placement is None or as_text(placement.get("type")) != COMPACT:
        return []
    gke = facts(spec)
    path = "overrides.placementPolicy.type"
    if gke.queued:
        return [Problem(path, "a queued pool takes no compact placement", COMPACT, (),
                        "remove overrides.placementPolicy")]  # fmt: skip
    machine = spec.instance_type if isinstance(spec.instance_type, str) else ""
    if gke.flex_start and not machine.startswith(FLEX_COMPACT_MACHINES):
        machines = ", ".join(f"{prefix}*" for prefix in FLEX_COMPACT_MACHINES)
        return [Problem(path, f"flex-start takes compact placement on {machines} machines only", COMPACT, (),
                        "remove overrides.placementPolicy")]  # fmt: skip
    return []


def policy_problems(where: str, props: Mapping[str, Any]) -> list[str]:
    """The rules above on any program's ``gcp.container.NodePool`` (camelCase inputs): a queued pool with COMPACT
    placement or BALANCED location policy, a flex-start or queued pool consuming a reservation or auto-repaired."""
    queued = dig(props, "queuedProvisioning", "enabled") is True
    flex = queued or dig(props, "nodeConfig", "flexStart") is True
    found: list[str] = []
    if queued and as_text(dig(props, "placementPolicy", "type")) == COMPACT:
        found.append(f"{where}placementPolicy.type: a queued node pool takes no COMPACT placement "
                     "(cluster-toolkit gke-node-pool main.tf L391-393). Remove placementPolicy")  # fmt: skip
    policy = as_text(dig(props, "autoscaling", "locationPolicy"))
    if flex and policy is not None and policy != "ANY":
        found.append(f"{where}autoscaling.locationPolicy: a flex-start or queued node pool scales up with location "
                     f"policy ANY only; got {policy!r}. Set it to 'ANY'")  # fmt: skip
    consumed = as_text(dig(props, "nodeConfig", "reservationAffinity", "consumeReservationType"))
    if flex and consumed not in (None, AFFINITIES["none"]):
        found.append(f"{where}nodeConfig.reservationAffinity.consumeReservationType: a flex-start or queued node "
                     f"pool consumes no reservation; got {consumed!r}. Set it to {AFFINITIES['none']!r}")  # fmt: skip
    if flex and dig(props, "management", "autoRepair") is True:
        found.append(f"{where}management.autoRepair: a flex-start or queued node pool needs auto-repair off "
                     "(cluster-toolkit gke-node-pool main.tf L415-417). Set it to false")  # fmt: skip
    return found
