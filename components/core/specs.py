"""The GPU pool spec: one validated description of a GPU node pool, for any of the three clouds.

Frozen dataclasses validated on creation: constructing a ``GpuPoolSpec`` either succeeds with a pool
that every later layer can trust, or raises ``SpecError`` listing every problem with its field path.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from components.core.catalog.lookup import ExplicitGpu, ResolvedGpu
from components.core.clouds.registry import Cloud, cloud_profile
from components.core.taints import Taint

Capacity = Literal["on-demand", "spot"]
CAPACITIES: tuple[Capacity, ...] = ("on-demand", "spot")

DriverOwner = Literal["cloud", "operator"]
"""Who installs the NVIDIA driver: the cloud or node image, or the NVIDIA GPU Operator's driver containers."""
DRIVER_OWNERS: tuple[DriverOwner, ...] = ("cloud", "operator")

SharingMode = Literal["none", "time-slicing", "mps", "mig"]
SHARING_MODES: tuple[SharingMode, ...] = ("none", "time-slicing", "mps", "mig")

MigStrategy = Literal["single", "mixed"]
MIG_STRATEGIES: tuple[MigStrategy, ...] = ("single", "mixed")


@dataclass(frozen=True, kw_only=True, slots=True)
class GpuSharing:
    """Time-slicing or MPS: each physical GPU is advertised ``replicas`` times."""

    mode: Literal["time-slicing", "mps"]
    replicas: int
    """Shares per GPU; the device plugin refuses fewer than 2."""
    rename_by_default: bool = False
    """Advertise ``nvidia.com/gpu.shared`` instead of ``nvidia.com/gpu`` (NVIDIA device plugin only)."""
    fail_requests_greater_than_one: bool | None = None
    """Refuse pods asking for more than one share; None keeps the plugin default (false; MPS: true)."""


@dataclass(frozen=True, kw_only=True, slots=True)
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

UpgradeStrategy = Literal["rolling", "surge", "blue-green"]
UPGRADE_STRATEGIES: tuple[UpgradeStrategy, ...] = ("rolling", "surge", "blue-green")


@dataclass(frozen=True, kw_only=True, slots=True)
class UpgradePolicy:
    """How the cloud rolls the pool's nodes to a new image or version (``components.core.upgrade_rules``).

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


@dataclass(frozen=True, kw_only=True, slots=True)
class GpuPoolSpec:
    """A GPU node pool, validated against the GPU catalog and the target cloud's rules."""

    cloud: Cloud
    name: str
    """Node pool / node group name, following the cloud's naming rules."""
    instance_type: str
    """EC2 instance type, Azure VM size or GCE machine type."""
    min_size: int
    max_size: int
    desired_size: int | None = None
    """Initial node count; None starts at ``min_size``."""
    capacity: Capacity = "on-demand"
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
    upgrade: UpgradePolicy = field(default_factory=UpgradePolicy)
    """How node upgrades roll (``upgrade`` in the stack config)."""
    release_version: str | None = None
    """EKS only: pin the AMI release version (``releaseVersion``); None takes the latest at creation."""
    fixed_name: bool | None = None
    """Keep the cloud name equal to ``name`` (pools made before gpuready rotated names). A change that forces
    replacement then fails at create instead of replacing: gpuready never deletes first. None: the cloud's
    default (EKS and GKE rotate names; AKS names, at most 12 characters, stay fixed)."""
    resolved: ResolvedGpu = field(init=False, repr=False, compare=False)
    """GPU model, count and architecture, filled in by validation."""

    def __post_init__(self) -> None:
        from components.core import pool_rules  # noqa: PLC0415 - pool_rules imports this module

        object.__setattr__(self, "labels", dict(self.labels))
        object.__setattr__(self, "taints", tuple(self.taints))
        object.__setattr__(self, "resolved", pool_rules.validate(self))

    @property
    def image_family(self) -> str:
        """The node image family, with the cloud default applied."""
        return self.image if self.image is not None else cloud_profile(self.cloud).images[0]

    @property
    def initial_size(self) -> int:
        """Nodes at creation."""
        return self.min_size if self.desired_size is None else self.desired_size

    @property
    def rotates_name(self) -> bool:
        """Whether the cloud name carries a suffix that changes with the inputs that force replacement."""
        return cloud_profile(self.cloud).rotates_names and not self.fixed_name

    @property
    def sharing_mode(self) -> SharingMode:
        return "none" if self.sharing is None else self.sharing.mode
