"""The one interface behind which a way of making GPU capacity lives. Pure.

A provisioner owns every fact that depends on how a pool's nodes come to exist: its scaling bounds (what
verification waits for), its lifecycle facts (which inputs replace the cloud resource, which are read at
creation only, whether the cloud name rotates), the capacity part of the pool's summary, and the Pulumi
component that makes it (``adapter``, loaded lazily by ``gpuready.stack_adapters``). Each cloud has its fixed
node group (EKS managed node group, AKS agent pool, GKE node pool); EKS also has Karpenter
(``gpuready.eks.karpenter``). EKS Auto Mode NodePools, AKS node auto-provisioning and GKE ComputeClasses
(issue #14) are one implementation each plus one entry in their profile's ``provisioners``; nothing else branches
on them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from gpuready.core.capacity.capacity_offers import ON_DEMAND_AND_SPOT, CapacityOffer
from gpuready.core.capacity.node_facts import NodeFacts
from gpuready.core.capacity.pool_facts import PoolReader
from gpuready.core.component_entry import ComponentEntry
from gpuready.core.health.repair import RepairFacts
from gpuready.core.lifecycle import SUFFIX_LENGTH, ResourceTable
from gpuready.errors import Problem, RegistrationError
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.clouds.node_setup import PlatformAdvertiser
    from gpuready.core.clouds.spec_rules import SpecRules
    from gpuready.core.scale_path.model import ScaleDecider
    from gpuready.core.specs import GpuPoolSpec
    from gpuready.core.taints import Taint


@record(frozen=True, kw_only=True, slots=True)
class ScalingBounds:
    """How many nodes a pool may and should have."""

    min: int
    """Fewest nodes the pool scales down to."""
    max: int
    """Most nodes the pool scales up to."""
    initial: int
    """Nodes right after deploy: what verification waits for."""
    elastic: bool = False
    """Nodes appear on demand (Karpenter, NAP, ComputeClass): there is no minimum of nodes to wait for."""
    starts_later: bool = False
    """The pool's capacity has a start of its own (``CapacityOffer.starts_later``): no node to wait for at deploy."""

    @property
    def expected_nodes(self) -> int:
        """Nodes verification waits for after deploy: none for an elastic pool or capacity that starts later, else
        the initial size."""
        return 0 if self.elastic or self.starts_later else self.initial


@record(frozen=True, kw_only=True, slots=True)
class LifecycleFacts:
    """The lifecycle of the resource that holds a pool's nodes."""

    table: ResourceTable
    """Replacement facts of the resource that holds the nodes."""
    creation_only: tuple[str, ...]
    """Inputs (camelCase paths) read at creation only (``ignoreChanges``)."""
    rotates_name: bool
    """Whether a replacement gets a new cloud name (created before the old one is deleted)."""


@record(frozen=True, kw_only=True, slots=True)
class CapacitySummary:
    """The capacity part of a pool's summary (what ``gpuready plan`` can show of it)."""

    provisioner: str
    bounds: ScalingBounds
    max_gpus: int
    """GPUs the pool can hold at its maximum size."""


class Provisioner(ABC):
    """How a pool's GPU capacity is made on one cloud, and everything that follows from it."""

    key: ClassVar[str]
    """Registry key within the cloud, e.g. ``node-group`` (EKS) or ``node-pool`` (AKS, GKE)."""
    cloud: ClassVar[str]
    """The cloud the provisioner makes capacity on."""
    elastic: ClassVar[bool] = False
    """Whether nodes are made on demand rather than kept in a sized group."""
    component: ClassVar[ComponentEntry]
    """The provisioner's one registration entry: its Pulumi component, the module building it from the stack
    settings (``build_pool``, for the stack program: ``gpuready.stack_adapters.build_pool``) and from the component
    package's inputs (``package_pool``), its schema text (the facade and ``gpuready.package`` derive from it)."""
    tables: ClassVar[tuple[ResourceTable, ...]]
    """Replacement tables of every cloud resource the provisioner creates (``gpuready diff`` collects them)."""
    pool_table: ClassVar[ResourceTable]
    """The table of the resource that holds the GPU nodes."""
    capacities: ClassVar[Mapping[str, CapacityOffer]] = ON_DEMAND_AND_SPOT
    """The ``capacity`` values the provisioner offers and what each does with a ``reservation`` (its row of the
    capacity table, ``capacity.capacity_offers``)."""
    capacity_limit_reason: ClassVar[str] = ""
    """Why the provisioner offers no other ``capacity`` values, when it is a gap of gpuready's rather than of the
    platform's (said with the refusal); empty: nothing to add."""
    readers: ClassVar[Mapping[str, PoolReader]]
    """The one reader of each resource type the provisioner writes a pool as (``pool_table.type`` at least):
    Pulumi type token -> ``PoolReader`` (any program's resource -> ``PoolFacts``), kept beside the code that writes
    it. Provisioners that write the same type (the Karpenter ones) share its reader."""
    platform_advertiser: ClassVar[PlatformAdvertiser | None] = None
    """The NVIDIA software this provisioner's nodes come with whatever their image (EKS Auto Mode runs its own driver
    and device plugin), or None when the cloud profile decides from the image and driver owner
    (``gpuready.core.gpu_stack.ownership.platform_plugin``)."""
    node_facts: ClassVar[NodeFacts | None] = None
    """How any program's pool objects and any cluster's nodes of an elastic provisioner are recognised and read
    (``capacity.node_facts``); None for a node group, which the cloud profile reads."""
    scale_decider: ClassVar[ScaleDecider]
    """The autoscaler that makes the pool's nodes, as the scale-path model asks it (``core.scale_path``): whether a
    pending pod of a shape makes it create a node, and up to how many."""
    repair: ClassVar[RepairFacts | None] = None
    """What the platform does about unhealthy nodes of this provisioner (the ``repair`` pool key)."""
    provisioning_class: ClassVar[str | None] = None
    """The ProvisioningRequest class through which the provisioner makes a ``queued`` pool's nodes (GKE:
    ``queued-provisioning.gke.io``), None where it has no queued capacity (``core.kueue``)."""
    capacity_keys: ClassVar[frozenset[str]] = frozenset()
    """The capacity pool keys the provisioner reads besides ``capacity`` and ``reservation`` (whose fields are its
    ``capacities`` rows'): ``locationPolicy``, ``maxRunDuration``; any other is refused for it
    (``capacity.capacity_choice``)."""
    limits_gpus: ClassVar[bool] = False
    """Whether what the provisioner makes carries a GPU limit (a Karpenter NodePool's ``limits``): then the pool
    may set ``gpuLimit``."""
    node_lifetime: ClassVar[bool] = False
    """Whether what the provisioner makes is a Karpenter NodePool, with a node lifetime and disruption budgets
    (``capacity.node_disruption``): then the pool may set ``expireAfter``, ``terminationGracePeriod`` and
    ``disruptionBudgets``."""
    max_node_lifetime_hours: ClassVar[int | None] = None
    """The longest a node of the provisioner may live (EKS Auto Mode: 21 days), None: no cap (``Never`` allowed)."""
    image_version_refusal: ClassVar[str] = (
        "imageVersion pins the AMI alias of a Karpenter pool (provisioner: karpenter); a node group pins its image "
        "with releaseVersion where the cloud has one; remove imageVersion"
    )
    """Why the pool may not set ``imageVersion`` (the hint of the refusal); empty where it may."""

    def __init__(self) -> None:
        """Made once per provisioner, at import (its module's ``PROVISIONER``): refused without its registration
        entry, so an incomplete plug-in fails there, naming the part it lacks."""
        if not isinstance(getattr(self, "component", None), ComponentEntry):
            raise RegistrationError(
                f"provisioner {type(self).__name__} lacks component (its registration entry: a ComponentEntry naming "
                "its component class, module, builder module, description and wiring)"
            )

    def bounds(self, spec: GpuPoolSpec) -> ScalingBounds:
        """The pool's scaling bounds; a sized group by default."""
        offer = self.capacities.get(spec.capacity)
        return ScalingBounds(min=spec.min_size, max=spec.max_size, initial=spec.initial_size, elastic=self.elastic,
                             starts_later=offer is not None and offer.starts_later)  # fmt: skip

    def selection_labels(self, spec: GpuPoolSpec) -> dict[str, str]:
        """Node labels a pod must select, besides the pool's, for this provisioner to make nodes for it (a GKE
        ComputeClass's); none by default."""
        return {}

    def selection_taints(self, spec: GpuPoolSpec) -> tuple[Taint, ...]:
        """Taints the provisioner itself puts on the nodes, which the pool's workloads must tolerate; none by
        default."""
        return ()

    def spec_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        """What this provisioner cannot do with ``spec`` (run by ``capacity.rules`` while the spec is validated:
        ``spec.resolved`` is not set yet); the elastic size rules are common to all and not repeated here."""
        return []

    def policy_capacity_problems(self, where: str, props: Mapping[str, Any]) -> list[str]:
        """How any program's pool resource of this provisioner breaks the capacity rules gpuready enforces on its
        own pools (the policy pack; ``where`` prefixes each field); none by default."""
        return []

    def name_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        """What is wrong with the pool's ``name`` as the name of what this provisioner makes; by default the cloud's
        node-pool name rules (``CloudProfile.name_rule``), with room for the suffix a replacement rotates."""
        return cloud_name_problems(spec)

    def gpu_limit(self, spec: GpuPoolSpec) -> int | None:
        """The pool's GPU bound in physical GPUs (``gpuLimit``, else ``maxSize`` x GPUs per node), None when the
        provisioner's object has no limit (``limits_gpus``); a NodePool sets it as limits counted the way its nodes
        report (``scale_path.karpenter_limits``). Call on a validated spec."""
        if not self.limits_gpus:
            return None
        return spec.gpu_limit if spec.gpu_limit is not None else self.bounds(spec).max * spec.resolved.gpu.gpus

    def lifecycle(self, spec: GpuPoolSpec) -> LifecycleFacts:
        """The lifecycle facts of the pool's resource."""
        return LifecycleFacts(
            table=self.pool_table, creation_only=self.creation_only(spec), rotates_name=spec.rotates_name
        )

    @abstractmethod
    def creation_only(self, spec: GpuPoolSpec) -> tuple[str, ...]:
        """Inputs read at creation only (camelCase paths)."""

    def planned_capacity_problems(self, inputs: Mapping[str, Any]) -> list[str]:
        """What is wrong with how a planned resource of type ``pool_table.type`` (any program's) gets its capacity,
        as the policy pack words it (field, what, fix); none by default."""
        return []

    def summary(self, spec: GpuPoolSpec) -> CapacitySummary:
        """The capacity part of the pool's summary."""
        bounds = self.bounds(spec)
        limit = self.gpu_limit(spec)
        max_gpus = bounds.max * spec.resolved.gpu.gpus if limit is None else limit
        return CapacitySummary(provisioner=self.key, bounds=bounds, max_gpus=max_gpus)


def cloud_name_problems(spec: GpuPoolSpec) -> list[Problem]:
    """The pool's ``name`` as the cloud's node pool name (a fixed pool's, with its rotating suffix)."""
    profile: SpecRules = spec.profile
    pattern, rule = profile.name_rule
    if not pattern.match(spec.name):
        return [Problem("name", f"not a valid {profile.title} node pool name", spec.name, (), rule)]
    if spec.rotates_name and len(spec.name) + 1 + SUFFIX_LENGTH > profile.name_max:
        most = profile.name_max - 1 - SUFFIX_LENGTH
        return [
            Problem(
                "name",
                f"leaves no room for the {SUFFIX_LENGTH}-character suffix that changes when the pool is replaced "
                f"(at most {most} characters)",
                spec.name,
                (),
                "shorten the name, or set fixedName: true (a replacement then fails instead of renaming)",
            )
        ]
    return []
