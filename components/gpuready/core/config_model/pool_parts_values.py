"""The parts of a ``gpuready:nodePools`` entry as light objects: its ``gpu``, ``gpuRequirements``, ``sharing`` (by
``mode``), ``taints``, ``upgrade``, ``repair``, ``reservation`` and ``fabric`` keys, and what each gives the pool's
spec. Pure, and no pydantic: the fast path (``fast``) builds these, and the pydantic models of the same names
without ``Values`` (``pool_parts_model``, ``fabric_model``) subclass them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from gpuready.core.catalog.lookup import ExplicitGpu
from gpuready.core.config_model.fast import field_names
from gpuready.core.config_model.forms import Values
from gpuready.core.fabric.model import FabricKind, FabricNetwork, FabricSpec
from gpuready.core.health.repair import RepairPolicy
from gpuready.core.k8s_syntax import TaintEffect
from gpuready.core.specs import (
    GpuRequirements,
    GpuSharing,
    MigPartitioning,
    MigStrategy,
    Reservation,
    ReservationTerm,
    UpgradePolicy,
)
from gpuready.core.taints import Taint


class GpuValues(Values, shape="GpuConfig"):
    """``gpu``: an explicit GPU description for instance types the catalog does not list."""

    if TYPE_CHECKING:
        model: str
        count: int
        arch: str | None

    def to_spec(self) -> ExplicitGpu:
        return ExplicitGpu(model=self.model, count=self.count, arch=cast("Any", self.arch))


class GpuRequirementsValues(Values, shape="GpuRequirementsConfig"):
    """``gpuRequirements``: an elastic pool's nodes by their GPU model and count."""

    if TYPE_CHECKING:
        model: str
        count: int

    def to_spec(self) -> GpuRequirements:
        return GpuRequirements(model=self.model, count=self.count)


class NoSharingValues(Values, shape="NoSharingConfig"):
    """``sharing: {mode: none}``: the same as no sharing."""

    if TYPE_CHECKING:
        mode: str

    def to_spec(self) -> None:
        return None


class SharedGpuValues(Values, shape="SharedGpuConfig"):
    """Time-slicing or MPS."""

    if TYPE_CHECKING:
        mode: str
        replicas: int
        rename_by_default: bool
        fail_requests_greater_than_one: bool | None

    def to_spec(self) -> GpuSharing:
        return GpuSharing(
            mode=cast("Any", self.mode),
            replicas=self.replicas,
            rename_by_default=self.rename_by_default,
            fail_requests_greater_than_one=self.fail_requests_greater_than_one,
        )


class MigValues(Values, shape="MigConfig"):
    """Multi-Instance GPU: one profile on every GPU, or a layout."""

    if TYPE_CHECKING:
        mode: str
        profile: str | None
        layout: str | dict[str, int] | None
        strategy: str

    def to_spec(self) -> MigPartitioning:
        strategy = cast("MigStrategy", self.strategy)  # checked by sharing_rules, once, when the spec is made
        return MigPartitioning(profile=self.profile, layout=self.layout, strategy=strategy)


class TaintValues(Values, shape="TaintConfig"):
    """A taint, as a mapping or as ``key=value:Effect`` text (``forms.taint_from_text``)."""

    if TYPE_CHECKING:
        key: str
        value: str
        effect: str

    def to_spec(self) -> Taint:
        return Taint(key=self.key, value=self.value, effect=cast("TaintEffect", self.effect))


class UpgradeValues(Values, shape="UpgradeConfig"):
    """``upgrade``: how node upgrades roll; the values are checked by ``pool_rules``."""

    if TYPE_CHECKING:
        strategy: str | None
        max_unavailable: int | None
        max_surge: int | None
        batch_node_count: int | None
        batch_soak_seconds: int | None
        pool_soak_seconds: int | None

    def to_spec(self) -> UpgradePolicy:
        given = {name: getattr(self, name) for name in field_names("UpgradeConfig")}
        return UpgradePolicy(**{name: value for name, value in given.items() if value is not None})


class RepairValues(Values, shape="RepairConfig"):
    """``repair``: node auto repair, ``true`` / ``false`` or a mapping; the values are checked by the provisioner's
    repair rules (``gpuready.core.health.repair``)."""

    if TYPE_CHECKING:
        enabled: bool
        max_parallel: int | None
        max_unhealthy_percent: int | None

    def to_spec(self) -> RepairPolicy:
        return RepairPolicy(**{name: getattr(self, name) for name in field_names("RepairConfig")})


class ReservationTermValues(Values, shape="ReservationTermConfig"):
    """One ``reservation.selectorTerms`` entry (Karpenter ``capacityReservationSelectorTerms``)."""

    if TYPE_CHECKING:
        id: str | None
        tags: dict[str, str] | None
        owner_id: str | None
        instance_match_criteria: str | None

    def to_spec(self) -> ReservationTerm:
        return ReservationTerm(
            id=self.id, tags=self.tags, owner_id=self.owner_id, instance_match_criteria=self.instance_match_criteria
        )


class ReservationValues(Values, shape="ReservationConfig"):
    """``reservation``: what a ``reserved`` or ``capacity-block`` pool draws on (docs/capacity.md)."""

    if TYPE_CHECKING:
        ids: list[str] | None
        resource_group_arn: str | None
        selector_terms: Sequence[ReservationTermValues] | None
        instance_match_criteria: str | None
        fallback: str | None
        zone: str | None
        nodes: int | None
        affinity: str | None
        name: str | None
        project: str | None
        group_id: str | None
        region: str | None
        vm_size: str | None

    def to_spec(self) -> Reservation:
        terms = tuple(term.to_spec() for term in self.selector_terms or ())
        fallback = cast("Any", self.fallback)  # checked by capacity_offers, once, when the spec is made
        return Reservation(
            ids=tuple(self.ids or ()), resource_group_arn=self.resource_group_arn, selector_terms=terms,
            instance_match_criteria=self.instance_match_criteria, fallback=fallback, zone=self.zone, nodes=self.nodes,
            affinity=self.affinity, name=self.name, project=self.project, group_id=self.group_id, region=self.region,
            vm_size=self.vm_size,
        )  # fmt: skip


class FabricNetworkValues(Values, shape="FabricNetworkConfig"):
    """One additional node network of a fabric pool (GKE): a VPC and a subnet of it."""

    if TYPE_CHECKING:
        network: str
        subnetwork: str

    def to_spec(self) -> FabricNetwork:
        return FabricNetwork(network=self.network, subnetwork=self.subnetwork)


class FabricValues(Values, shape="FabricConfig"):
    """``fabric``: a fabric kind, or a mapping with its kind, placement and (GKE) additional node networks."""

    if TYPE_CHECKING:
        kind: str
        placement_group: str | None
        networks: Sequence[FabricNetworkValues] | None

    def to_spec(self) -> FabricSpec:
        kind = cast("FabricKind", self.kind)  # checked by fabric.rules, once, when the spec is made
        networks = tuple(n.to_spec() for n in self.networks or ())
        return FabricSpec(kind=kind, placement_group=self.placement_group, networks=networks)
