"""How an AKS agent pool gets capacity (issue #28): capacity reservation groups and proximity placement groups,
validated, not passed through. Pure.

Inputs: ``capacityReservationGroupID`` and ``proximityPlacementGroupID`` of azure-native 3.29.0
``containerservice.AgentPool`` (``aks/inputs.json``). The rules, each a row of ``tests/aks/test_capacity_rules.py``:

* both ids are Azure resource ids, ``/subscriptions/<GUID>/resourceGroups/<group>/providers/Microsoft.Compute/
  capacityReservationGroups/<name>`` and ``.../proximityPlacementGroups/<name>`` (Azure/azure-rest-api-specs
  ``Microsoft.Compute`` ComputeRP ``capacityReservation.json`` and ``proximityPlacementGroup.json`` paths; the
  subscription id a GUID, the group name as ``aks.settings_model`` checks it);
* a capacity reservation group serves on-demand VMs only, not Spot (Azure docs "On-demand capacity reservation",
  limitations); AKS takes it at node pool creation (MicrosoftDocs/azure-aks-docs ``use-capacity-reservation-groups.md``:
  ``az aks nodepool add --crg-id``), and changing it replaces the pool (hashicorp/terraform-provider-azurerm
  ``kubernetes_cluster_node_pool.html.markdown``: "Changing this forces a new resource to be created");
* a reservation group and a proximity placement group do not go together on a scale set (terraform-provider-azurerm
  ``linux_virtual_machine_scale_set.html.markdown``: "capacity_reservation_group_id cannot be used with
  proximity_placement_group_id");
* a proximity placement group maps to at most one availability zone (MicrosoftDocs/azure-aks-docs
  ``reduce-latency-ppg.md``), so the pool names one zone or none;
* both live in the cluster's subscription where the stack knows it (the subscription of ``gpuready:aksVnetSubnetId``);
  the region is not part of a resource id: the user may state the group's ``reservation.region``, compared with the
  cluster's ``azure-native:location`` while the program runs (a plan warning, ``region_warning``);
* a stated ``reservation.zone`` must be one of the pool's ``zones``, and a pool without ``zones`` (regional) cannot
  draw on a zonal reservation (``ZONAL_SOURCE``), ``reservation.nodes`` bounds ``maxSize`` and
  ``reservation.vmSize`` is the pool's VM size (a capacity reservation holds VMs of one size, which only VMs of that
  size consume: Azure docs "On-demand capacity reservation") (``_sized_problems``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gpuready.core.capacity.capacity_offers import CapacityOffer, reading
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

_GUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_COMPUTE_ID = (
    rf"^/subscriptions/(?P<subscription>{_GUID})/resourceGroups/[-\w.()]{{1,90}}/providers/Microsoft\.Compute/"
)
RESERVATION_GROUP_ID = re.compile(_COMPUTE_ID + r"capacityReservationGroups/[-\w.]{1,80}\Z", re.IGNORECASE)
PLACEMENT_GROUP_ID = re.compile(_COMPUTE_ID + r"proximityPlacementGroups/[-\w.]{1,80}\Z", re.IGNORECASE)
SUBSCRIPTION = re.compile(rf"^/subscriptions/(?P<subscription>{_GUID})/", re.IGNORECASE)
PPG_OVERRIDE = "overrides.proximityPlacementGroupID"
ZONAL_SOURCE = 'Azure docs "On-demand capacity reservation", Work with capacity reservation'
"""MicrosoftDocs/azure-compute-docs ``articles/virtual-machines/capacity-reservation-overview.md`` @05a44856
(ms.date 02/17/2026), "Work with capacity reservation": a group sets its eligible zones, and a group without zones
takes VMs "deployed without specifying a zone"; "If the group doesn't have a reservation matching the size and
location, Azure returns an error message". A zonal reservation and a regional pool (no ``zones``) do not match."""
CAPACITIES: tuple[str, ...] = ("on-demand", "spot", "reserved")
"""The AKS agent pool's capacities (``AksAgentPool.capacities``)."""
OFFERS: Mapping[str, CapacityOffer] = reading(CAPACITIES, frozenset({"groupId", "zone", "nodes", "region", "vmSize"}))
"""The AKS agent pool's row of the capacity table (``capacity.capacity_offers``): a reservation group, with the zone
and size of its reservation when the user states them, which ``problems`` allows on reserved pools only."""
AZ = re.compile(r"^[1-9]\Z")
REGION = re.compile(r"^[a-z][a-z0-9]+\Z")
"""An Azure region's name as resource ids and ``azure-native:location`` write it (``eastus``, ``westeurope``)."""
"""An AKS availability zone as agent pools name it (``availabilityZones``: ``"1"``, ``"2"``, ``"3"``)."""


def _id_form(kind: str) -> str:
    return f"/subscriptions/<subscription GUID>/resourceGroups/<group>/providers/Microsoft.Compute/{kind}/<name>"


def problems(spec: GpuPoolSpec) -> list[Problem]:
    """Every capacity rule the pool breaks."""
    group = spec.reservation.group_id if spec.reservation is not None else None
    found: list[Problem] = []
    if spec.capacity == "reserved" and group is None:
        found.append(Problem("reservation.groupId", "a reserved AKS pool names its capacity reservation group", None,
                             (), f"set reservation.groupId: {_id_form('capacityReservationGroups')}"))  # fmt: skip
    if group is not None:
        if spec.capacity != "reserved":
            hint = "set capacity: reserved" if spec.capacity == "on-demand" else "remove reservation"
            found.append(Problem("reservation.groupId", f"a {spec.capacity} pool consumes no reservation (Spot VMs "
                                 "cannot use capacity reservations)" if spec.capacity == "spot" else
                                 f"a {spec.capacity} pool consumes no reservation", group, (), hint))  # fmt: skip
        if not isinstance(group, str) or not RESERVATION_GROUP_ID.match(group):
            found.append(Problem("reservation.groupId", "not a capacity reservation group resource id", group, (),
                                 f"{_id_form('capacityReservationGroups')}; print it with az capacity reservation "
                                 "group show -g <group> -n <name> --query id -o tsv"))  # fmt: skip
    found.extend(_sized_problems(spec))
    placement = placement_group(spec)
    if placement is not None:
        found.extend(_placement_problems(spec, placement, group))
    return found


def _sized_problems(spec: GpuPoolSpec) -> list[Problem]:
    """The reservation's stated zone and size: on a reserved pool only, the zone one of the pool's ``zones`` (a
    zonal reservation holds VMs of that zone only: Azure docs "On-demand capacity reservation", zonal reservations);
    ``nodes`` bounds ``maxSize`` through the shared rule (``core.capacity.reservation_rules``)."""
    reservation = spec.reservation
    if reservation is None:
        return []
    stated = {"zone": reservation.zone, "nodes": reservation.nodes, "region": reservation.region,
              "vmSize": reservation.vm_size}  # fmt: skip
    if spec.capacity != "reserved":
        why = f"describes a capacity reservation, which a pool of capacity {spec.capacity} does not consume"
        return [Problem(f"reservation.{key}", why, value, (), f"remove reservation.{key}, or set capacity: reserved")
                for key, value in stated.items() if value is not None]  # fmt: skip
    found: list[Problem] = []
    region = reservation.region
    if region is not None and (not isinstance(region, str) or not REGION.match(region)):
        found.append(Problem("reservation.region", "not an Azure region name", region, (),
                             "e.g. eastus (az account list-locations --query [].name -o tsv)"))  # fmt: skip
    size, pool_size = reservation.vm_size, spec.instance_type
    if size is not None and isinstance(pool_size, str) and str(size).lower() != pool_size.lower():
        why = f"the group's reservations hold {size} VMs, and the pool's nodes are {pool_size}: they draw on none of it"
        found.append(Problem("reservation.vmSize", why, size, (pool_size,),
                             f"use a group of {pool_size}, or set instanceType: {size}"))  # fmt: skip
    zone = reservation.zone
    if zone is None:
        return found
    if not isinstance(zone, str) or not AZ.match(zone):
        return [
            Problem(
                "reservation.zone",
                "not an availability zone as AKS names it",
                zone,
                ("1", "2", "3"),
                'e.g. zone: "1" (the zone number, as in the pool\'s zones)',
            )
        ]
    zones: Sequence[str] = spec.zones if isinstance(spec.zones, tuple) else ()
    if not zones:
        why = (
            "is a zonal reservation, and a pool without zones is regional: Azure consumes a reservation of a group "
            "only for VMs matching its size and location, and errors otherwise "
            f"({ZONAL_SOURCE})"
        )
        return [*found, Problem("reservation.zone", why, zone, (), f"set zones: [\"{zone}\"] (the reservation's "
                                "zone), or remove reservation.zone if the group is regional")]  # fmt: skip
    if zone not in zones:
        why = "is not one of the pool's zones: a zonal reservation outside them is never consumed"
        return [*found, Problem("reservation.zone", why, zone, tuple(zones), f"set zones: [\"{zone}\"], or "
                                "reservation.zone to the reservation's zone (az capacity reservation show --query "
                                "zones)")]  # fmt: skip
    return found


def region_warning(spec: GpuPoolSpec, cluster_location: str | None) -> str | None:
    """What the plan warns of a reservation group in another region than the cluster's (``azure-native:location``,
    read when the program runs): a group serves VMs of its own region only (Azure docs "On-demand capacity
    reservation": a capacity reservation is created for a region, and VMs in that region consume it). A warning, not a
    refusal: the provider's location is known only while the program runs, after other pools may have registered."""
    region = spec.reservation.region if spec.reservation is not None else None
    if region is None or not cluster_location:
        return None
    location = cluster_location.replace(" ", "").lower()
    if region == location:
        return None
    return (
        f"pool {spec.name}: reservation.region {region} is not the cluster's location {location} "
        "(azure-native:location): the group's reservations serve VMs of their own region only; use a group of "
        f"{location}, or correct reservation.region"
    )


def placement_group(spec: GpuPoolSpec) -> object:
    """The pool's ``overrides.proximityPlacementGroupID``, None when unset."""
    return spec.overrides.get("proximityPlacementGroupID") if isinstance(spec.overrides, Mapping) else None


def _placement_problems(spec: GpuPoolSpec, placement: object, group: str | None) -> list[Problem]:
    found: list[Problem] = []
    if not isinstance(placement, str) or not PLACEMENT_GROUP_ID.match(placement):
        found.append(Problem(PPG_OVERRIDE, "not a proximity placement group resource id", placement, (),
                             f"{_id_form('proximityPlacementGroups')}; print it with az ppg show -g <group> -n <name> "
                             "--query id -o tsv"))  # fmt: skip
    if group is not None:
        why = "a scale set takes a capacity reservation group or a proximity placement group, not both"
        found.append(Problem(PPG_OVERRIDE, why, placement, (), f"remove {PPG_OVERRIDE} or reservation.groupId"))
    zones: Sequence[str] = spec.zones if isinstance(spec.zones, tuple) else ()
    if len(zones) > 1:
        found.append(Problem("zones", "a proximity placement group maps to one availability zone at most",
                             list(zones), (), f"keep one zone, or remove {PPG_OVERRIDE}"))  # fmt: skip
    return found


def subscription_problems(spec: GpuPoolSpec, cluster_subscription: str | None, where: str) -> list[Problem]:
    """The pool's reservation and placement group ids outside the cluster's subscription (when the stack knows it);
    ``where`` is the pool's path prefix (``gpuready:nodePools[0].``)."""
    if cluster_subscription is None:
        return []
    found: list[Problem] = []
    group = spec.reservation.group_id if spec.reservation is not None else None
    for path, given in (("reservation.groupId", group), (PPG_OVERRIDE, placement_group(spec))):
        found_id = SUBSCRIPTION.match(given) if isinstance(given, str) else None
        if found_id is not None and found_id["subscription"].lower() != cluster_subscription.lower():
            found.append(Problem(f"{where}{path}", f"is in another subscription than the cluster's "
                                 f"({cluster_subscription}, from gpuready:aksVnetSubnetId)", given, (),
                                 "use a group of the cluster's subscription"))  # fmt: skip
    return found


def cluster_subscription(subnet_id: str) -> str | None:
    """The subscription of the stack's ``aksVnetSubnetId`` (the cluster's), None when unset."""
    found = SUBSCRIPTION.match(subnet_id) if subnet_id else None
    return found["subscription"] if found is not None else None


def policy_problems(where: str, props: Mapping[str, Any]) -> list[str]:
    """The id rules above on any program's AKS agent pool (an ``AgentPool``, or a ``ManagedCluster`` profile)."""
    group = props.get("capacityReservationGroupID")
    placement = props.get("proximityPlacementGroupID")
    found: list[str] = []
    for field, given, pattern, kind in (
        ("capacityReservationGroupID", group, RESERVATION_GROUP_ID, "capacityReservationGroups"),
        ("proximityPlacementGroupID", placement, PLACEMENT_GROUP_ID, "proximityPlacementGroups"),
    ):
        if given is not None and (not isinstance(given, str) or not pattern.match(given)):
            found.append(f"{where}{field}: not a resource id of the kind {kind}; got {given!r}. Use {_id_form(kind)}")
    if group is not None and placement is not None:
        found.append(f"{where}proximityPlacementGroupID: a scale set takes a capacity reservation group or a "
                     "proximity placement group, not both. Remove one")  # fmt: skip
    if group is not None and props.get("scaleSetPriority") == "Spot":
        found.append(f"{where}capacityReservationGroupID: Spot VMs cannot use capacity reservations. Remove it or "
                     "use scaleSetPriority Regular")  # fmt: skip
    return found
