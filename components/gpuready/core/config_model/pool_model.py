"""One entry of ``gpuready:nodePools``: the config model of a GPU pool, sharing by ``mode``. Pure.

The model checks the shape; the values that depend on the cloud and the catalog (names, sizes, capacity, image,
driver, labels, taints, sharing fit) are checked once, by ``pool_rules`` when the ``GpuPoolSpec`` is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, Protocol, cast, get_args, runtime_checkable

from pydantic import Discriminator, Field, Tag, field_validator, model_validator

from gpuready.core.capacity import rules as capacity_rules
from gpuready.core.catalog.lookup import ExplicitGpu
from gpuready.core.clouds.registry import Cloud
from gpuready.core.config_model.base import ConfigModel, Words
from gpuready.core.config_model.problems import CONFIG_ERROR, config_error
from gpuready.core.conventions import DEFAULT as DEFAULT_CONVENTIONS
from gpuready.core.conventions import Conventions
from gpuready.core.health.repair import RepairPolicy
from gpuready.core.k8s_syntax import TaintEffect
from gpuready.core.specs import (
    GpuPoolSpec,
    GpuRequirements,
    GpuSharing,
    MigPartitioning,
    MigStrategy,
    UpgradePolicy,
)
from gpuready.core.taints import Taint, parse_taint_text
from gpuready.errors import SpecError


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


class PoolConfig(ConfigModel):
    """One pool entry as a user writes it."""

    shape: ClassVar = Words("must be a mapping of pool settings")
    words: ClassVar = {
        "labels:dict_type": Words("must be a mapping of label key to value"),
        "labels:string_type": Words("must be a string (quote numbers and booleans)"),
        "labels:key": Words("label keys must be strings (quote them in YAML)"),
        "taints:list_type": Words("must be a list of taints"),
        "sharing.mode": Words("unknown sharing mode"),
        "overrides:dict_type": Words("must be a mapping of resource inputs (provider spelling, e.g. launchTemplate)"),
        "zones:list_type": Words("must be a list of zones"),
    }

    name: str
    """Pool name, unique in the stack."""
    instance_type: InstanceTypes | None = None
    """Instance / VM / machine type with GPUs (e.g. ``p4d.24xlarge``); the catalog knows its GPUs. An elastic pool
    may list several of one GPU model and count, or give ``gpuRequirements`` instead."""
    gpu_requirements: GpuRequirementsConfig | None = None
    """Elastic pools: the GPU model and count of the nodes instead of ``instanceType``."""
    min_size: int | None = None
    """Fewest nodes (0 scales to zero); required for a fixed pool, 0 or absent for an elastic one."""
    max_size: int
    """Most nodes."""
    gpu_limit: int | None = None
    """Elastic pools: most GPUs (the NodePool's ``nvidia.com/gpu`` limit); unset: ``maxSize`` x GPUs per node."""
    desired_size: int | None = None
    """Nodes at creation."""
    capacity: str | None = None
    """Capacity type (on-demand, spot, ...: what the cloud's provisioner offers)."""
    provisioner: str | None = None
    """How the nodes are made: the cloud's fixed pool (default) or an elastic provisioner."""
    advertise: str | None = None
    """How the GPUs reach the scheduler: device-plugin (default; nvidia.com/gpu extended resources) or dra
    (Dynamic Resource Allocation through NVIDIA's DRA driver)."""
    image: str | None = None
    """Node image family; unset: the cloud's GPU image."""
    driver: str | None = None
    """Who installs the NVIDIA driver (see docs/pool-keys.md)."""
    driver_version: str | None = None
    """NVIDIA driver version, where the cloud lets it be chosen."""
    gpu: GpuConfig | None = None
    sharing: SharingConfig | None = None
    """GPU sharing by ``mode``: none, time-slicing, mps or mig."""
    labels: dict[str, str] | None = None
    """Extra Kubernetes labels on the pool's nodes."""
    taints: list[TaintConfig] | None = None
    """Extra taints on the pool's nodes (mappings, or ``key=value:Effect`` text)."""
    upgrade: UpgradeConfig | None = None
    """How node upgrades roll."""
    repair: RepairConfig | None = None
    """Node auto repair: on (default) or off, and how many GPU nodes at once (see docs/gpu-health.md)."""
    release_version: str | None = None
    """Node image release version to pin."""
    fixed_name: bool | None = None
    """Keep the cloud name fixed: no rename on replacement (a replacement then fails at create)."""
    disk_size_gb: int | None = None
    """Node disk size in GB; elastic pools default to one that holds GPU images (docs/elastic-pools.md)."""
    image_version: str | None = None
    """Karpenter pools: the AMI alias version to pin (al2023 ``v20260714``, bottlerocket ``v1.61.0``), or
    ``latest`` to follow every release on purpose (each release then drifts, so replaces, every node)."""
    expire_after: str | None = None
    """NodePool pools: a node's most lifetime (``720h``) or ``Never`` (the default for GPU pools)."""
    termination_grace_period: str | None = None
    """NodePool pools: how long a node being removed drains before its pods are deleted (default ``168h``)."""
    disruption_budgets: dict[str, int | str] | None = None
    """NodePool pools: nodes Karpenter may disrupt at once, by reason (``Drifted``, ``Underutilized``, ``Empty``):
    a count or a percentage (``"10%"``); reasons left out keep gpuready's default."""
    zones: list[str] | None = None
    """Zones of the pool's nodes."""
    overrides: dict[str, Any] | None = None
    """Extra inputs of the cloud resource; keys are checked by ``pool_rules`` against the SDK's inputs."""

    @field_validator("sharing", mode="before")
    @classmethod
    def _sharing_form(cls, value: Any) -> Any:
        if value == "none":
            return None
        if isinstance(value, str):
            raise config_error("must be none or a mapping with a mode", "sharing: {mode: mps, replicas: 2}")
        if not isinstance(value, Mapping):
            raise config_error("must be none or a mapping")
        mode = value.get("mode")
        if mode is not None and not isinstance(mode, str):
            raise config_error("must be a string", at="mode", value=mode)
        return value

    def spec(self, cloud: Cloud, conventions: Conventions = DEFAULT_CONVENTIONS) -> GpuPoolSpec:
        """The ``GpuPoolSpec`` with the stack's ``conventions`` (validated by ``pool_rules`` as it is made; raises
        ``SpecError``).

        Field for field: every key of the model is the spec's field of the same name (``test_pool_model`` holds
        the two to one list), a sub-model gives its ``to_spec()``, a list of them a tuple; unset keys keep the
        spec's defaults."""
        given = {name: _to_spec(getattr(self, name)) for name in type(self).model_fields}
        kept = {name: value for name, value in given.items() if value is not None}
        if self.min_size is not None:
            return GpuPoolSpec(cloud=cloud, conventions=conventions, **kept)
        missing = capacity_rules.missing_min_size_problems(cloud, self.provisioner)
        try:  # an absent minSize is 0: what an elastic pool needs, and a stand-in for a fixed one's other rules
            spec = GpuPoolSpec(cloud=cloud, conventions=conventions, min_size=0, **kept)
        except SpecError as error:
            raise SpecError([*missing, *error.problems]) from None
        if missing:
            raise SpecError(missing)
        return spec


@runtime_checkable
class _SpecPart(Protocol):
    """A sub-model of the pool entry: gives the spec's value of its key."""

    def to_spec(self) -> object: ...


def _to_spec(given: object) -> Any:
    """A config value as the spec holds it."""
    if isinstance(given, list):
        return tuple(_to_spec(item) for item in given)
    return given.to_spec() if isinstance(given, _SpecPart) else given


POOL_KEYS = tuple(field.alias or name for name, field in PoolConfig.model_fields.items())
"""Keys a pool entry accepts."""
