"""What a cloud refuses in a pool spec (``SpecRules``): names, labels, taints, driver, sharing, upgrades, escape
hatches, and the provisioners it offers. Read by the pool rules while a spec is validated. Pure.

Each hook returns the problems it finds, in the order they are reported; the defaults are what a cloud does when
it adds no limit beyond Kubernetes'."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Protocol

from gpuready.core.clouds.named import NamedCloud
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.capacity.interface import Provisioner
    from gpuready.core.catalog.gpus import GpuModel
    from gpuready.core.catalog.mig_profiles import MigTable
    from gpuready.core.specs import GpuPoolSpec, MigPartitioning
    from gpuready.core.taints import Taint


class SpecRules(NamedCloud, Protocol):
    """The cloud's own rules for a pool spec."""

    images: ClassVar[tuple[str, ...]]
    """Node image families for GPU pools; the first is the default."""
    name_rule: ClassVar[tuple[re.Pattern[str], str]]
    """The cloud's node pool name pattern, and the rule in words."""
    name_max: ClassVar[int]
    """The longest cloud name ``name_rule`` admits."""
    reserved_label_domains: ClassVar[tuple[str, ...]]
    """Label prefixes the kubelet or the cloud reserves (a pool's extra labels may not use them)."""
    rotates_names: ClassVar[bool] = True
    """Whether pools get a suffix that changes when they are replaced (create before delete)."""
    provisioners: ClassVar[Mapping[str, Provisioner]]
    """How capacity is made here: key -> pure implementation (imported by the profile); the first is the default."""
    max_pools: ClassVar[tuple[int, str] | None] = None
    """(hard node pool limit per cluster, its source), if the cloud has one."""
    max_shared_clients: ClassVar[int | None] = None
    """The most clients per GPU the cloud's own sharing takes (sharing it delivers itself), if it shares GPUs."""

    def driver_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        """Problems of the pool's driver owner and driver version on this cloud."""
        if spec.driver_version is None:
            return []
        return [
            Problem(
                "driverVersion",
                "only GKE pools whose driver GKE installs take a driver version",
                spec.driver_version,
                (),
                "remove driverVersion",
            )
        ]

    def accelerator_problems(self, model: GpuModel) -> list[Problem]:
        """Problems when the cloud does not offer the pool's GPU model."""
        return []

    def label_problems(self, path: str, key: str, value: str) -> list[Problem]:
        """The cloud's own limits on a node label."""
        return []

    def taint_key_problems(self, path: str, taint: Taint) -> list[Problem]:
        """The cloud's own limits on a taint key (checked once the key is a valid qualified name)."""
        return []

    def taint_value_problems(self, path: str, taint: Taint) -> list[Problem]:
        """The cloud's own limits on a taint value."""
        return []

    def taint_count_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        """The cloud's limit on taints per pool."""
        return []

    def sharing_blocked(self, spec: GpuPoolSpec) -> Problem | None:
        """Why no sharing at all can be configured on this pool's image, if so."""
        return None

    def mig_problems(self, spec: GpuPoolSpec, mig: MigPartitioning, model_key: str, table: MigTable) -> list[Problem]:
        """The cloud's own limits on MIG (which GPUs, which strategy, which profiles)."""
        return []

    def upgrade_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        """The cloud's own limits on the pool's upgrade settings."""
        return []

    surge_needs_new_node: ClassVar[bool] = True
    """Whether a surge upgrade needs ``maxSurge`` of at least 1 (EKS decides the surge itself)."""
    blue_green: ClassVar[bool] = False
    """Whether the cloud offers blue-green node upgrades."""

    def release_version_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        """Problems of ``releaseVersion`` (only EKS pins AMI releases)."""
        if spec.release_version is None:
            return []
        return [Problem("releaseVersion", "pins an EKS AMI release; other clouds have none", spec.release_version)]

    disk_size_gb: ClassVar[tuple[int, int | None, str]]
    """(smallest, largest or None where the cloud states no limit, source) of a pool's ``diskSizeGb``."""
    zone_rule: ClassVar[tuple[re.Pattern[str], str] | None]
    """What a zone of this cloud looks like and the rule in words; None: pools take no ``zones`` here."""
    inputs_package: ClassVar[str]
    """Package whose ``inputs.json`` is the input tree of the pool resource (``gpuready.core.resource_inputs``)."""
    owned_inputs: ClassVar[Mapping[str, str]]
    """Inputs of the pool resource gpuready decides (provider path -> the pool key or setting that decides it):
    refused as ``overrides``."""

    def hatch_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        """The cloud's own limits on ``diskSizeGb``, ``zones`` and ``overrides`` taken together."""
        return []
