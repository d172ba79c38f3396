"""The parts of a GPU pool spec: capacity, driver owner, sharing, MIG and upgrade settings. Pure.

They live apart from ``specs.GpuPoolSpec`` so that the rules validating a spec can use them without importing the
spec (which runs those rules when it is made): no import cycle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from gpuready.record import record

Capacity = Literal["on-demand", "spot", "reserved", "capacity-block", "flex-start", "queued"]
"""How a pool's nodes get their capacity: bought on demand, spot, from a reservation (EKS On-Demand Capacity
Reservations, GKE reservations, AKS capacity reservation groups), from an EC2 Capacity Block for ML, or queued by
GKE's Dynamic Workload Scheduler (flex-start, queued provisioning). Which a pool may use is its provisioner's
``capacities`` table (``gpuready.core.capacity.capacity_offers``)."""
CAPACITIES: tuple[Capacity, ...] = ("on-demand", "spot", "reserved", "capacity-block", "flex-start", "queued")
QUEUED_CAPACITIES: tuple[Capacity, ...] = ("flex-start", "queued")
"""Capacities obtained through a queue (GKE Dynamic Workload Scheduler): the pools Kueue objects are made for
(``gpuready.core.kueue``)."""

Fallback = Literal["on-demand", "spot", "none"]
FALLBACKS: tuple[Fallback, ...] = ("on-demand", "spot", "none")
"""What an elastic pool may launch when its reservation is full (``reservation.fallback``)."""
MATCH_CRITERIA: tuple[str, ...] = ("open", "targeted")
"""``instanceMatchCriteria``: EC2's ``open`` (any matching instance uses it) or ``targeted`` reservations (botocore
ec2 ``InstanceMatchCriteria``; the EC2NodeClass CRD's ``capacityReservationSelectorTerms[].instanceMatchCriteria``)."""


@record(frozen=True, kw_only=True, slots=True)
class ReservationTerm:
    """One ``reservation.selectorTerms`` entry: a Karpenter / Auto Mode ``capacityReservationSelectorTerms`` term,
    a reservation by ``id``, or by ``tags`` (and optional ``owner_id``, the account that owns it)."""

    id: str | None = None
    tags: Mapping[str, str] | None = None
    owner_id: str | None = None
    instance_match_criteria: str | None = None


@record(frozen=True, kw_only=True, slots=True)
class Reservation:
    """``reservation``: the capacity a ``reserved`` or ``capacity-block`` pool draws on. Which fields a pool may set
    is its provisioner's capacity table (``capacity_offers.CapacityOffer.fields``); each cloud checks their values
    (EKS: ``gpuready.eks.reservation``)."""

    ids: tuple[str, ...] = ()
    """Reservation ids (EKS On-Demand Capacity Reservation or Capacity Block ids, ``cr-...``)."""
    resource_group_arn: str | None = None
    """EKS node groups: an ODCR resource group (launch template ``CapacityReservationResourceGroupArn``)."""
    selector_terms: tuple[ReservationTerm, ...] = ()
    """Karpenter / Auto Mode: ``capacityReservationSelectorTerms`` (ids or tags)."""
    instance_match_criteria: str | None = None
    """``open`` (any matching instance uses the reservation) or ``targeted`` (only instances that name it)."""
    fallback: Fallback | None = None
    """What an elastic pool launches when the reservation is full; None: the provisioner's default (none)."""
    zone: str | None = None
    """The reservation's zone: the pool's nodes (its subnets or zones) must be there."""
    nodes: int | None = None
    """How many nodes the reservation holds: ``maxSize`` may not exceed it without a fallback."""
    # GKE node pools and ComputeClasses (issue #28, GKE part)
    affinity: str | None = None
    """GKE: ``any`` (any matching reservation, then on demand), ``specific`` (the one named) or ``none``."""
    name: str | None = None
    """GKE: the specific reservation's name."""
    project: str | None = None
    """GKE: the project that owns a shared specific reservation; None: the cluster's project."""
    # AKS node pools (issue #28, AKS part)
    group_id: str | None = None
    """AKS: the capacity reservation group's resource id."""
    region: str | None = None
    """AKS: the group's region (a resource id names none), compared with the cluster's when the stack sets it."""
    vm_size: str | None = None
    """AKS: the VM size the group's reservations hold, which must be the pool's."""


DriverOwner = Literal["cloud", "operator"]
"""Who installs the NVIDIA driver: the cloud or node image, or the NVIDIA GPU Operator's driver containers."""
DRIVER_OWNERS: tuple[DriverOwner, ...] = ("cloud", "operator")

SharingMode = Literal["none", "time-slicing", "mps", "mig"]
SHARING_MODES: tuple[SharingMode, ...] = ("none", "time-slicing", "mps", "mig")

MigStrategy = Literal["single", "mixed"]
MIG_STRATEGIES: tuple[MigStrategy, ...] = ("single", "mixed")


@record(frozen=True, kw_only=True, slots=True)
class GpuSharing:
    """Time-slicing or MPS: each physical GPU is advertised ``replicas`` times."""

    mode: Literal["time-slicing", "mps"]
    replicas: int
    """Shares per GPU; the device plugin refuses fewer than 2."""
    rename_by_default: bool = False
    """Advertise ``nvidia.com/gpu.shared`` instead of ``nvidia.com/gpu`` (NVIDIA device plugin only)."""
    fail_requests_greater_than_one: bool | None = None
    """Refuse pods asking for more than one share; None keeps the plugin default (false; MPS: true)."""


@record(frozen=True, kw_only=True, slots=True)
class MigPartitioning:
    """Multi-Instance GPU: a single profile on every GPU, or a layout of several profiles."""

    profile: str | None = None
    """One profile on every GPU, as many as fit, e.g. ``1g.10gb``."""
    layout: str | Mapping[str, int] | None = None
    """A mig-parted layout name (``all-balanced``) or profile -> instances per GPU."""
    strategy: MigStrategy = "single"
    """How the device plugin advertises MIG devices: all as ``nvidia.com/gpu`` or per profile."""

    @property
    def mode(self) -> Literal["mig"]:
        return "mig"


Sharing = GpuSharing | MigPartitioning

DEFAULT_ADVERTISE = "device-plugin"
"""A pool's ``advertise`` when not given (the first of ``advertisers.registry.ADVERTISE_VALUES``)."""


@record(frozen=True, kw_only=True, slots=True)
class GpuRequirements:
    """``gpuRequirements``: an elastic pool's nodes chosen by their GPUs instead of by named instance types.

    One GPU model and one count per pool, as for ``instanceType``: gpuready labels every node of a pool with its
    GPU model and configures sharing and MIG per pool (``gpuready.core.capacity.gpu_choice``)."""

    model: str
    """Key of a GPU model in the catalog, e.g. ``l4``."""
    count: int
    """GPUs per node."""


UpgradeStrategy = Literal["rolling", "surge", "blue-green"]
UPGRADE_STRATEGIES: tuple[UpgradeStrategy, ...] = ("rolling", "surge", "blue-green")


@record(frozen=True, kw_only=True, slots=True)
class UpgradePolicy:
    """How the cloud rolls the pool's nodes to a new image or version (``gpuready.core.upgrade_rules``).

    ``rolling`` (default) takes ``max_unavailable`` nodes down, then brings their replacements up: no spare GPU
    needed. ``surge`` brings ``max_surge`` new nodes up first (spare GPU quota needed). ``blue-green`` (GKE)
    creates a whole second set of nodes, then drains the old set in batches (twice the GPU quota).
    """

    strategy: UpgradeStrategy = "rolling"
    max_unavailable: int | None = None
    """Nodes down at once; None: 1 when rolling, 0 when surging."""
    max_surge: int | None = None
    """New nodes before old ones go (``surge`` only); None: 1 when surging."""
    batch_node_count: int = 1
    """``blue-green``: old nodes drained per batch."""
    batch_soak_seconds: int = 0
    """``blue-green``: wait after each batch."""
    pool_soak_seconds: int = 3600
    """``blue-green``: wait after the old nodes are drained, before they are deleted (GKE's default is 1 h)."""

    @property
    def unavailable(self) -> int:
        if self.max_unavailable is not None:
            return self.max_unavailable
        return 1 if self.strategy == "rolling" else 0

    @property
    def surge(self) -> int:
        if self.max_surge is not None:
            return self.max_surge
        return 1 if self.strategy == "surge" else 0
