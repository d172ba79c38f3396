"""The parts of a ``gpuready:nodePools`` entry: the config models of its ``gpu``, ``gpuRequirements``, ``sharing``
(by ``mode``), ``taints``, ``upgrade``, ``repair`` and ``reservation`` keys. Pure; ``pool_model.PoolConfig`` holds them.

Each model subclasses its light class (``pool_parts_values``: what it gives the pool's spec); its validators are
the plain functions of ``forms``, which the fast path runs too.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Discriminator, Field, Tag

from gpuready.core.config_model.base import CONFIG_ERROR, ConfigModel, Words, before_model
from gpuready.core.config_model.forms import layout_form, repair_shorthand, taint_from_text, types_form
from gpuready.core.config_model.pool_parts_values import (
    GpuRequirementsValues,
    GpuValues,
    MigValues,
    NoSharingValues,
    RepairValues,
    ReservationTermValues,
    ReservationValues,
    SharedGpuValues,
    TaintValues,
    UpgradeValues,
)
from gpuready.core.config_model.pool_values import SHARING_KEYS

__all__ = ["SHARING_KEYS", "InstanceTypes", "SharingConfig"]


class GpuConfig(GpuValues, ConfigModel):
    """``gpu``: an explicit GPU description for instance types the catalog does not list."""

    words: ClassVar = {"arch": Words("unknown CPU architecture")}

    model: str
    count: int
    arch: Literal["arm64", "x86_64"] | None = None


InstanceTypes = Annotated[
    Annotated[str, Tag("one")] | Annotated[list[str], Tag("list")],
    Discriminator(
        types_form,
        custom_error_type=CONFIG_ERROR,
        custom_error_message="must be an instance type or (elastic pools) a list of them",
    ),
]


class GpuRequirementsConfig(GpuRequirementsValues, ConfigModel):
    """``gpuRequirements``: an elastic pool's nodes by their GPU model and count (``capacity.gpu_choice``)."""

    model: str
    count: int


class NoSharingConfig(NoSharingValues, ConfigModel):
    """``sharing: {mode: none}``: the same as no sharing."""

    mode: Literal["none"]


class SharedGpuConfig(SharedGpuValues, ConfigModel):
    """Time-slicing or MPS."""

    mode: Literal["time-slicing", "mps"]
    replicas: int
    rename_by_default: bool = False
    fail_requests_greater_than_one: bool | None = None


Layout = Annotated[
    Annotated[str, Tag("name")] | Annotated[dict[str, int], Tag("counts")],
    Discriminator(
        layout_form, custom_error_type=CONFIG_ERROR, custom_error_message="must be a layout name or profile -> count"
    ),
]


class MigConfig(MigValues, ConfigModel):
    """Multi-Instance GPU: one profile on every GPU, or a layout."""

    mode: Literal["mig"]
    profile: str | None = None
    layout: Layout | None = None
    strategy: str = "single"


SharingConfig = Annotated[NoSharingConfig | SharedGpuConfig | MigConfig, Field(discriminator="mode")]


class TaintConfig(TaintValues, ConfigModel):
    """A taint, as a mapping or as ``key=value:Effect`` text (``taints.parse_taint_text``)."""

    key: str
    value: str = ""
    effect: str
    """Checked by ``pool_rules`` (once), with the pool's other taint rules."""

    _from_text = before_model(taint_from_text)


class UpgradeConfig(UpgradeValues, ConfigModel):
    """``upgrade``: how node upgrades roll; the values are checked by ``pool_rules``."""

    strategy: str | None = None
    max_unavailable: int | None = None
    max_surge: int | None = None
    batch_node_count: int | None = None
    batch_soak_seconds: int | None = None
    pool_soak_seconds: int | None = None


class RepairConfig(RepairValues, ConfigModel):
    """``repair``: node auto repair, ``true`` / ``false`` or a mapping; the values are checked by the provisioner's
    repair rules (``gpuready.core.health.repair``)."""

    enabled: bool = True
    max_parallel: int | None = None
    max_unhealthy_percent: int | None = None

    _shorthand = before_model(repair_shorthand)


class ReservationTermConfig(ReservationTermValues, ConfigModel):
    """One ``reservation.selectorTerms`` entry (the NodeClass's ``capacityReservationSelectorTerms``): a
    reservation ``id``, or ``tags`` with an optional ``ownerID`` (Karpenter only); the values are checked by the
    provisioner's rules."""

    id: str | None = None
    """A reservation id (``cr-...``)."""
    tags: dict[str, str] | None = None
    """Tags of the reservations to use (``*`` matches any value)."""
    owner_id: str | None = Field(default=None, alias="ownerID")
    """The 12-digit account that owns the reservations (a shared reservation)."""
    instance_match_criteria: str | None = None
    """``open`` or ``targeted``: the reservations of that kind."""


class ReservationConfig(ReservationValues, ConfigModel):
    """``reservation``: what a ``reserved`` or ``capacity-block`` pool draws on; which keys a pool may set is its
    provisioner's capacity table, their values the cloud's rules (docs/capacity.md)."""

    ids: list[str] | None = None
    """Reservation ids (EKS ``cr-...``: On-Demand Capacity Reservations or Capacity Blocks)."""
    resource_group_arn: str | None = None
    """EKS node groups: an On-Demand Capacity Reservation resource group's ARN."""
    selector_terms: list[ReservationTermConfig] | None = None
    """Karpenter and EKS Auto Mode: capacity reservation selector terms (ids, or tags with an owner on Karpenter;
    ids or tags on Auto Mode)."""
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
