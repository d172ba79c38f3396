"""The one interface behind which a way of advertising GPUs to Kubernetes lives. Pure.

An advertiser owns every fact that depends on how the pool's GPUs reach the scheduler: the resource names,
what each node offers (allocatable), what a workload's containers ask for, which node resources count as
GPUs when verifying, and the advertised part of a pool's summary. There are two: extended resources
published by the NVIDIA device plugin or the GPU Operator (``extended_resources``), and Dynamic Resource
Allocation through NVIDIA's DRA driver (ResourceSlices and ResourceClaims, ``dra``). A pool chooses one with its
``advertise`` key (``registry.advertiser_for``); nothing else branches on them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from gpuready.core.advertisers.device_selectors import DeviceSelector
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec
    from gpuready.errors import Problem


@record(frozen=True, kw_only=True, slots=True)
class AdvertisedResources:
    """The advertised part of a pool's summary (its published outputs)."""

    resource_name: str
    """The resource most workloads on the pool request."""
    allocatable: Mapping[str, int]
    """Resource name -> units each Ready node of the pool should advertise."""


@record(frozen=True, kw_only=True, slots=True)
class GpuRequest:
    """A validated GPU request of one container: ``count`` units of ``resource``."""

    resource: str
    count: int
    mig_profile: str | None = None
    """A MIG profile the devices must have (DRA: ``mig.nvidia.com`` devices of that profile)."""
    selectors: tuple[DeviceSelector, ...] = ()
    """Conditions on the devices' attributes (DRA only)."""


class Advertiser(ABC):
    """How a pool's GPUs are advertised to Kubernetes, and everything that follows from it."""

    slice_driver: ClassVar[str | None] = None
    """The DRA driver whose ResourceSlices publish the pool's devices (None: the node's resources advertise them)."""
    key: ClassVar[str]
    """Registry key, e.g. ``extended-resources``."""
    pool_value: ClassVar[str]
    """The pool's ``advertise`` value that chooses this advertiser (``device-plugin``, ``dra``)."""

    @abstractmethod
    def allocatable_per_node(self, spec: GpuPoolSpec) -> dict[str, int]:
        """Resource name -> units each Ready node of the pool should advertise."""

    def devices_per_node(self, spec: GpuPoolSpec) -> dict[str, int]:
        """DeviceClass -> devices each node publishes in ResourceSlices of ``slice_driver``; none by default."""
        return {}

    def resource_names(self, spec: GpuPoolSpec) -> list[str]:
        """Names a workload requests on this pool, the one with most units first."""
        allocatable = self.allocatable_per_node(spec)
        return sorted(allocatable, key=lambda name: (-allocatable[name], name))

    def primary_resource(self, spec: GpuPoolSpec) -> str:
        """The resource most workloads on this pool request."""
        return self.resource_names(spec)[0]

    def summary(self, spec: GpuPoolSpec) -> AdvertisedResources:
        """The advertised part of the pool's summary (its ``resource_name`` and ``allocatable`` outputs)."""
        allocatable = self.allocatable_per_node(spec)
        return AdvertisedResources(resource_name=self.primary_resource(spec), allocatable=allocatable)

    @abstractmethod
    def request(
        self,
        spec: GpuPoolSpec,
        gpus: object,
        resource: str | None,
        *,
        mig_profile: str | None = None,
        selectors: Sequence[object] = (),
    ) -> GpuRequest:
        """The validated request for ``gpus`` units of ``resource`` (None: the pool's primary one) per container,
        of ``mig_profile`` and matching ``selectors`` where the advertiser can choose devices so; raises
        ``SpecError`` listing every problem."""

    @abstractmethod
    def container_resources(self, request: GpuRequest) -> dict[str, Any]:
        """A container's ``resources`` fragment for ``request``."""

    def node_labels(self, spec: GpuPoolSpec) -> dict[str, str]:
        """Labels the pool's nodes carry from creation because of how their GPUs are advertised; none by default."""
        return {}

    def spec_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        """What this advertiser cannot serve in the pool's spec (run by ``pool_rules``); nothing by default."""
        return []

    def pod_fields(self, request: GpuRequest) -> dict[str, Any]:
        """PodSpec fields the request needs beside the containers' (DRA: ``resourceClaims``); none by default."""
        return {}

    def workload_objects(self, request: GpuRequest, namespace: str) -> list[dict[str, Any]]:
        """Kubernetes objects the workload's pods need in ``namespace`` (DRA: its ResourceClaimTemplate); none by
        default."""
        return []

    def serves_device_class(self, name: str) -> bool:
        """Whether a pod claims this advertiser's devices through DeviceClass ``name`` (DRA); none by default."""
        return False

    def serves_node_labels(self, labels: Mapping[str, str]) -> bool:
        """Whether a pool or node with ``labels`` has its GPUs advertised this way (read from any program)."""
        return False

    @abstractmethod
    def is_gpu_resource(self, name: str) -> bool:
        """Whether a node resource name is one of this advertiser's GPU resources."""

    @abstractmethod
    def shows_partitions(self, capacity: Mapping[str, int]) -> bool:
        """Whether a node's resource capacity shows partitioned (MIG) GPUs."""

    @abstractmethod
    def inferred_allocatable(
        self,
        capacity: Mapping[str, int],
        gpus: int | None,
        replicas: int | None,
        *,
        mig: bool,
        renamed: bool | None = None,
        mig_layout: Mapping[str, int] | None = None,
        mig_strategy: str = "single",
    ) -> dict[str, int]:
        """What a GPU node no known pool owns should advertise, from its capacity and what is known of its GPUs
        and of the sharing its labels ask for (``renamed``: shares under their own name, None when no label
        says; ``mig_layout``: profile -> instances per GPU, advertised per ``mig_strategy``); empty when it
        cannot be told."""
