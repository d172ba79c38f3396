"""The GPU pool spec: one validated description of a GPU node pool, for any of the three clouds.

Frozen dataclasses validated on creation: constructing a ``GpuPoolSpec`` either succeeds with a pool
that every later layer can trust, or raises ``SpecError`` listing every problem with its field path.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from gpuready.core import pool_rules, resource_inputs
from gpuready.core.catalog.lookup import ExplicitGpu
from gpuready.core.clouds.profile import CloudProfile
from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.core.conventions import DEFAULT as DEFAULT_CONVENTIONS
from gpuready.core.conventions import Conventions
from gpuready.core.fabric.model import FabricSpec
from gpuready.core.health.repair import RepairPolicy
from gpuready.core.pool_parts import (
    CAPACITIES,
    DEFAULT_ADVERTISE,
    DRIVER_OWNERS,
    MIG_STRATEGIES,
    SHARING_MODES,
    UPGRADE_STRATEGIES,
    Capacity,
    DriverOwner,
    GpuRequirements,
    GpuSharing,
    MigPartitioning,
    MigStrategy,
    Reservation,
    ReservationTerm,
    Sharing,
    SharingMode,
    UpgradePolicy,
    UpgradeStrategy,
)
from gpuready.core.resolved_pool import ResolvedPool
from gpuready.core.taints import Taint
from gpuready.record import record

__all__ = [
    "CAPACITIES",
    "DRIVER_OWNERS",
    "MIG_STRATEGIES",
    "SHARING_MODES",
    "UPGRADE_STRATEGIES",
    "Capacity",
    "DriverOwner",
    "GpuPoolSpec",
    "GpuRequirements",
    "GpuSharing",
    "MigPartitioning",
    "MigStrategy",
    "Reservation",
    "ReservationTerm",
    "Sharing",
    "SharingMode",
    "UpgradePolicy",
    "UpgradeStrategy",
]


@record(frozen=True, kw_only=True, slots=True)
class GpuPoolSpec:
    """A GPU node pool, validated against the GPU catalog and the target cloud's rules."""

    cloud: Cloud
    name: str
    """Node pool / node group name, following the cloud's naming rules."""
    min_size: int
    max_size: int
    instance_type: str | tuple[str, ...] | None = None
    """EC2 instance type, Azure VM size or GCE machine type; an elastic pool may name several (of one GPU model and
    count) or give ``gpu_requirements`` instead (``capacity.gpu_choice``)."""
    gpu_requirements: GpuRequirements | None = None
    """Elastic pools: the GPU model and count of the nodes, any instance type of the catalog that has them."""
    gpu_limit: int | None = None
    """Elastic pools: most GPUs the provisioner may make (its ``nvidia.com/gpu`` limit); None: ``max_size`` x GPUs
    per node."""
    desired_size: int | None = None
    """Initial node count; None starts at ``min_size``."""
    capacity: Capacity = "on-demand"
    """How the nodes get capacity; which values the pool's provisioner offers is its ``capacities`` table."""
    reservation: Reservation | None = None
    """The reservation the pool draws on (which fields a provisioner reads: its ``capacities`` rows)."""
    location_policy: str | None = None
    """GKE node pools: the autoscaler's zone choice (``ANY`` / ``BALANCED``); None: by capacity."""
    max_run_duration: int | None = None
    """GKE flex-start / queued pools: seconds a node runs before GKE removes it; None: no limit."""
    provisioner: str | None = None
    """How the capacity is made: a key of the cloud profile's ``provisioners`` (EKS ``node-group`` or ``karpenter``);
    None: the cloud's default (its fixed node group). Chosen by ``capacity.registry.provisioner_for``."""
    advertise: str = DEFAULT_ADVERTISE
    """How the pool's GPUs reach the scheduler: ``device-plugin`` (extended resources such as ``nvidia.com/gpu``,
    from the NVIDIA device plugin or the GPU Operator) or ``dra`` (ResourceSlices and ResourceClaims from NVIDIA's
    DRA driver). The values are ``advertisers.registry.ADVERTISE_VALUES``."""
    image: str | None = None
    """Node image family (the cloud profile's ``images``); None picks the cloud's first (``al2023``, ``ubuntu``,
    ``cos``)."""
    driver: DriverOwner = "cloud"
    driver_version: str | None = None
    """GKE only: ``default`` or ``latest`` driver branch when the cloud installs the driver."""
    sharing: Sharing | None = None
    gpu: ExplicitGpu | None = None
    """Explicit GPU description for instance types the catalog does not list."""
    labels: Mapping[str, str] = field(default_factory=dict)
    """Extra node labels."""
    taints: tuple[Taint, ...] = ()
    """Extra taints, besides the GPU taint every pool gets."""
    conventions: Conventions = DEFAULT_CONVENTIONS
    """The team's GPU taint and labels (the stack's ``gpuready:conventions``, resolved once by the stack settings):
    the pool's nodes carry ``conventions.gpu_taint``, and SkyPilot's label only when ``skypilot_labels``."""
    upgrade: UpgradePolicy = field(default_factory=UpgradePolicy)
    """How node upgrades roll (``upgrade`` in the stack config)."""
    repair: RepairPolicy = field(default_factory=RepairPolicy)
    """Node auto repair (``repair`` in the stack config): what each provisioner does with it is its ``repair``
    facts (``gpuready.core.health.repair``)."""
    release_version: str | None = None
    """EKS only: pin the AMI release version (``releaseVersion``); None takes the latest at creation."""
    fixed_name: bool | None = None
    """Keep the cloud name equal to ``name`` (pools made before gpuready rotated names). A change that forces
    replacement then fails at create instead of replacing: gpuready never deletes first. None: the cloud's
    default (EKS and GKE rotate names; AKS names, at most 12 characters, stay fixed)."""
    disk_size_gb: int | None = None
    """Boot / OS disk of each node in GB (EKS GiB); None: the cloud's default for a node group (EKS 20 GiB, AKS by
    VM size, GKE 100 GB), ``capacity.node_disk.DEFAULT_GB`` for an elastic pool. Limits by cloud in
    ``CloudProfile.disk_size_gb``, by elastic provisioner in its ``spec_problems``."""
    image_version: str | None = None
    """Elastic pools whose node class pins an image (Karpenter: the AMI alias version, ``v20260714``), or
    ``latest`` to follow every release on purpose; None: the provisioner's pinned default."""
    expire_after: str | None = None
    """Karpenter NodePools: a node's most lifetime (``720h``) or ``Never``; None: ``Never`` for GPU pools
    (``capacity.node_disruption``)."""
    termination_grace_period: str | None = None
    """Karpenter NodePools: how long a node being removed drains before its pods are deleted; None: gpuready's
    default (``capacity.node_disruption``)."""
    disruption_budgets: Mapping[str, str] | None = None
    """Karpenter NodePools: nodes (``"1"``, ``"10%"``) Karpenter may disrupt at once, by reason (``Drifted``,
    ``Underutilized``, ``Empty``); None or a reason left out: gpuready's default for it."""
    zones: tuple[str, ...] = ()
    """Zones of the pool's nodes (AKS ``1``-``3``, GKE ``us-central1-a``); empty: the cloud's or the stack's
    default. EKS takes zones from its subnets (``overrides: {subnetIds: [...]}``)."""
    fabric: FabricSpec | None = None
    """The node-to-node fabric of the pool's nodes (EFA, GPUDirect, InfiniBand), valid only on instance types that
    have it (``gpuready.core.fabric``); None: none (collectives across nodes go over TCP)."""
    overrides: Mapping[str, Any] = field(default_factory=dict)
    """Extra inputs of the cloud resource in the provider's camelCase spelling, deep-merged into what gpuready
    plans; inputs gpuready owns are refused (``gpuready.core.resource_inputs``)."""
    profile: CloudProfile = field(init=False, repr=False, compare=False)
    """The cloud's profile, resolved before validation (every rule reads it)."""
    resolved: ResolvedPool = field(init=False, repr=False, compare=False)
    """Provisioner, advertiser, GPUs, image, sharing delivery and platform plugin, filled in by validation."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "profile", cloud_profile(self.cloud))
        object.__setattr__(self, "labels", dict(self.labels))
        object.__setattr__(self, "taints", tuple(self.taints))
        if isinstance(self.instance_type, list):
            object.__setattr__(self, "instance_type", tuple(self.instance_type))
        if isinstance(self.zones, list | tuple):
            object.__setattr__(self, "zones", tuple(self.zones))
        if isinstance(self.disruption_budgets, Mapping):
            budgets = {k: str(v) if isinstance(v, int) and not isinstance(v, bool) else v
                       for k, v in self.disruption_budgets.items()}  # fmt: skip
            object.__setattr__(self, "disruption_budgets", budgets)
        if isinstance(self.overrides, Mapping):
            object.__setattr__(self, "overrides", resource_inputs.copied(self.overrides))
        object.__setattr__(self, "resolved", pool_rules.validate(self))

    @property
    def image_family(self) -> str:
        """The node image family, with the cloud default applied."""
        return self.image if self.image is not None else self.profile.images[0]

    @property
    def initial_size(self) -> int:
        """Nodes at creation."""
        return self.min_size if self.desired_size is None else self.desired_size

    @property
    def rotates_name(self) -> bool:
        """Whether the cloud name carries a suffix that changes with the inputs that force replacement."""
        return self.profile.rotates_names and not self.fixed_name

    @property
    def sharing_mode(self) -> SharingMode:
        return "none" if self.sharing is None else self.sharing.mode
