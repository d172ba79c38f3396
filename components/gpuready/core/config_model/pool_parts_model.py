"""The parts of a ``gpuready:nodePools`` entry: the config models of its ``gpu``, ``gpuRequirements``, ``sharing``
(by ``mode``), ``taints``, ``upgrade``, ``repair`` and ``reservation`` keys. Pure; ``pool_model.PoolConfig`` holds them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, cast, get_args

from pydantic import Discriminator, Field, Tag, model_validator

from gpuready.core.catalog.lookup import ExplicitGpu
from gpuready.core.config_model.base import ConfigModel, Words
from gpuready.core.config_model.problems import CONFIG_ERROR, config_error
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
from gpuready.core.taints import Taint, parse_taint_text


class GpuConfig(ConfigModel):
    """``gpu``: an explicit GPU description for instance types the catalog does not list."""

    words: ClassVar = {"arch": Words("unknown CPU architecture")}

    model: str
    count: int
    arch: Literal["arm64", "x86_64"] | None = None

    def to_spec(self) -> ExplicitGpu:
        return ExplicitGpu(model=self.model, count=self.count, arch=self.arch)


def _types_form(value: Any) -> str | None:
    if isinstance(value, str):
        return "one"
    return "list" if isinstance(value, list) else None


InstanceTypes = Annotated[
    Annotated[str, Tag("one")] | Annotated[list[str], Tag("list")],
    Discriminator(
        _types_form,
        custom_error_type=CONFIG_ERROR,
        custom_error_message="must be an instance type or (elastic pools) a list of them",
    ),
]


class GpuRequirementsConfig(ConfigModel):
    """``gpuRequirements``: an elastic pool's nodes by their GPU model and count (``capacity.gpu_choice``)."""

    model: str
    count: int

    def to_spec(self) -> GpuRequirements:
        return GpuRequirements(model=self.model, count=self.count)


class NoSharingConfig(ConfigModel):
    """``sharing: {mode: none}``: the same as no sharing."""

    mode: Literal["none"]

    def to_spec(self) -> None:
        return None


class SharedGpuConfig(ConfigModel):
    """Time-slicing or MPS."""

    mode: Literal["time-slicing", "mps"]
    replicas: int
    rename_by_default: bool = False
    fail_requests_greater_than_one: bool | None = None

    def to_spec(self) -> GpuSharing:
        return GpuSharing(
            mode=self.mode,
            replicas=self.replicas,
            rename_by_default=self.rename_by_default,
            fail_requests_greater_than_one=self.fail_requests_greater_than_one,
        )


def _layout_form(value: Any) -> str | None:
    if isinstance(value, str):
        return "name"
    return "counts" if isinstance(value, Mapping) else None


Layout = Annotated[
    Annotated[str, Tag("name")] | Annotated[dict[str, int], Tag("counts")],
    Discriminator(
        _layout_form, custom_error_type=CONFIG_ERROR, custom_error_message="must be a layout name or profile -> count"
    ),
]


class MigConfig(ConfigModel):
    """Multi-Instance GPU: one profile on every GPU, or a layout."""

    mode: Literal["mig"]
    profile: str | None = None
    layout: Layout | None = None
    strategy: str = "single"

    def to_spec(self) -> MigPartitioning:
        strategy = cast("MigStrategy", self.strategy)  # checked by sharing_rules, once, when the spec is made
        return MigPartitioning(profile=self.profile, layout=self.layout, strategy=strategy)


SharingConfig = Annotated[NoSharingConfig | SharedGpuConfig | MigConfig, Field(discriminator="mode")]

SHARING_KEYS: dict[str, frozenset[str]] = {
    mode: frozenset(f.alias or n for n, f in form.model_fields.items())
    for form in (NoSharingConfig, SharedGpuConfig, MigConfig)
    for mode in get_args(form.model_fields["mode"].annotation)
}
"""Sharing mode -> the keys its form takes (``mode`` included)."""


class TaintConfig(ConfigModel):
    """A taint, as a mapping or as ``key=value:Effect`` text (``taints.parse_taint_text``)."""

    key: str
    value: str = ""
    effect: str
    """Checked by ``pool_rules`` (once), with the pool's other taint rules."""

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if isinstance(data, str):
            parts = parse_taint_text(data)
            if parts is None:
                raise config_error("must look like key=value:Effect", "e.g. dedicated=ml:NoSchedule")
            return {"key": parts[0], "value": parts[1], "effect": parts[2]}
        if not isinstance(data, Mapping):
            raise config_error("must be a mapping {key, value, effect} or key=value:Effect")
        return data

    def to_spec(self) -> Taint:
        return Taint(key=self.key, value=self.value, effect=cast("TaintEffect", self.effect))


class UpgradeConfig(ConfigModel):
    """``upgrade``: how node upgrades roll; the values are checked by ``pool_rules``."""

    strategy: str | None = None
    max_unavailable: int | None = None
    max_surge: int | None = None
    batch_node_count: int | None = None
    batch_soak_seconds: int | None = None
    pool_soak_seconds: int | None = None

    def to_spec(self) -> UpgradePolicy:
        return UpgradePolicy(**self.model_dump(exclude_none=True))


class RepairConfig(ConfigModel):
    """``repair``: node auto repair, ``true`` / ``false`` or a mapping; the values are checked by the provisioner's
    repair rules (``gpuready.core.health.repair``)."""

    enabled: bool = True
    max_parallel: int | None = None
    max_unhealthy_percent: int | None = None

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: Any) -> Any:
        if isinstance(value, bool):
            return {"enabled": value}
        if not isinstance(value, Mapping):
            raise config_error("must be true, false or a mapping", "repair: {enabled: true, maxParallel: 1}")
        return value

    def to_spec(self) -> RepairPolicy:
        return RepairPolicy(**self.model_dump())


class ReservationTermConfig(ConfigModel):
    """One ``reservation.selectorTerms`` entry (Karpenter ``capacityReservationSelectorTerms``): a
    reservation ``id``, or ``tags`` with an optional ``ownerID``; the values are checked by the cloud's rules."""

    id: str | None = None
    """A reservation id (``cr-...``)."""
    tags: dict[str, str] | None = None
    """Tags of the reservations to use (``*`` matches any value)."""
    owner_id: str | None = Field(default=None, alias="ownerID")
    """The 12-digit account that owns the reservations (a shared reservation)."""
    instance_match_criteria: str | None = None
    """``open`` or ``targeted``: the reservations of that kind."""

    def to_spec(self) -> ReservationTerm:
        return ReservationTerm(
            id=self.id, tags=self.tags, owner_id=self.owner_id, instance_match_criteria=self.instance_match_criteria
        )


class ReservationConfig(ConfigModel):
    """``reservation``: what a ``reserved`` or ``capacity-block`` pool draws on; which keys a pool may set is its
    provisioner's capacity table, their values the cloud's rules (docs/capacity.md)."""

    ids: list[str] | None = None
    """Reservation ids (EKS ``cr-...``: On-Demand Capacity Reservations or Capacity Blocks)."""
    resource_group_arn: str | None = None
    """EKS node groups: an On-Demand Capacity Reservation resource group's ARN."""
    selector_terms: list[ReservationTermConfig] | None = None
    """Karpenter: capacity reservation selector terms (ids, or tags and owner)."""
    instance_match_criteria: str | None = None
    """``open`` or ``targeted``."""
    fallback: str | None = None
    """What an elastic pool launches when the reservation is full: on-demand, spot or none (default)."""
    zone: str | None = None
    """The reservation's zone (the pool's subnets or zones must be there)."""
    nodes: int | None = None
    """How many nodes the reservation holds (maxSize may not exceed it without a fallback)."""
    # GKE
    affinity: str | None = None
    """GKE: ``any``, ``specific`` (by ``name``, and ``project`` when shared) or ``none``."""
    name: str | None = None
    """GKE: the specific reservation's name."""
    project: str | None = None
    """GKE: the project owning a shared reservation; unset: the cluster's."""
    # AKS
    group_id: str | None = None
    """AKS: the capacity reservation group's resource id
    (``/subscriptions/<id>/resourceGroups/<rg>/providers/Microsoft.Compute/capacityReservationGroups/<name>``)."""
    region: str | None = None
    """AKS: the capacity reservation group's region (e.g. ``eastus``), compared with the cluster's
    (``azure-native:location``) when the stack sets it."""
    vm_size: str | None = None
    """AKS: the VM size of the group's reservations (e.g. ``Standard_NC40ads_H100_v5``), which must be the pool's."""

    def to_spec(self) -> Reservation:
        terms = tuple(term.to_spec() for term in self.selector_terms or ())
        fallback = cast("Any", self.fallback)  # checked by capacity_offers, once, when the spec is made
        return Reservation(
            ids=tuple(self.ids or ()), resource_group_arn=self.resource_group_arn, selector_terms=terms,
            instance_match_criteria=self.instance_match_criteria, fallback=fallback, zone=self.zone, nodes=self.nodes,
            affinity=self.affinity, name=self.name, project=self.project, group_id=self.group_id, region=self.region,
            vm_size=self.vm_size,
        )  # fmt: skip
