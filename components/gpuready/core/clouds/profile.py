"""What differs by cloud, behind one interface: ``CloudProfile``. Pure.

Each cloud subclasses it in its own package (``components/gpuready/<cloud>/profile.py``) and sets the facts; the hooks'
defaults here are what a cloud does when it adds nothing of its own (no extra taint, no own device plugin, no
limit beyond Kubernetes'). Callers ask ``registry.cloud_profile(spec.cloud)``; they never compare names.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from gpuready.core import offerings
from gpuready.core.fabric.model import NO_FABRIC, CloudFabric
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.catalog.gpus import GpuModel
    from gpuready.core.catalog.instance_types import AttachableGpus, InstanceType
    from gpuready.core.catalog.mig_profiles import MigTable
    from gpuready.core.clouds.registry import Cloud
    from gpuready.core.config_model.settings_model import StackSettingsConfig
    from gpuready.core.specs import GpuPoolSpec, MigPartitioning
    from gpuready.core.taints import Taint

Delivery = Literal["none", "cloud", "device-plugin-config", "mig-manager"]
"""Who applies a pool's sharing: nobody, the cloud, NVIDIA's device plugin (its config), the MIG manager."""
PlatformAdvertiser = Literal["nvidia", "gke-device-plugin", "bottlerocket", "eks-auto-mode"]
"""Which device plugin advertises a pool's GPUs: NVIDIA's (a chart, or yours), GKE's, Bottlerocket's or EKS Auto
Mode's (a provisioner's, ``Provisioner.platform_advertiser``)."""


class CloudProfile(ABC):
    """Everything gpuready knows that differs by cloud. Subclasses set the class attributes; hooks: "nothing"."""

    name: ClassVar[Cloud]
    title: ClassVar[str]
    """How messages name the cloud (``EKS``)."""
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
    instance_types: ClassVar[Mapping[str, InstanceType]]
    """The cloud's GPU instance types (catalog)."""
    instance_types_fold_case: ClassVar[bool] = False
    """Whether the cloud matches instance type names case-insensitively (Azure VM sizes)."""
    attachable: ClassVar[AttachableGpus | None] = None
    """A machine family that takes GPUs as guest accelerators (GCE N1), if any."""
    matrix_types: ClassVar[tuple[str, str]]
    """A plain GPU type and a MIG-capable one, for the generated support matrix."""
    health_agents: ClassVar[Mapping[str, str]] = {}
    """Health agents the cloud offers (``gpuStack.health.agent``) and what each reports, for the plan."""
    health_agent_adapter: ClassVar[str | None] = None
    """``module:function`` installing the cloud's installable health agent (``health.agent.INSTALLED_AGENT``)."""
    stack_adapter: ClassVar[str]
    """Module of the cloud's stack-program adapter (``build_pool``, ``cluster_kubeconfig``; it imports the cloud's
    Pulumi SDK, so ``gpuready.stack_adapters`` loads it only for the stack's cloud)."""
    provisioners: ClassVar[Mapping[str, str]]
    """How capacity is made: provisioner key -> module of its ``PROVISIONER`` (core.capacity); the first: default."""
    required_settings: ClassVar[tuple[str, ...]] = ()
    """``gpuready:*`` keys a stack on this cloud must set besides ``cloud``, ``clusterName`` and ``nodePools``."""
    optional_settings: ClassVar[tuple[str, ...]] = ()
    """Other ``gpuready:*`` wiring keys of this cloud (``gpuready new`` offers a flag for each)."""
    example_pool: ClassVar[str]
    """One GPU pool valid on this cloud, as ``gpuready:nodePools`` YAML (the pool a new project starts with)."""
    example_gpu_stack: ClassVar[str] = ""
    """The ``gpuready:gpuStack`` the example pool needs (empty: none to install)."""
    cluster_target_setting: ClassVar[tuple[str, str] | None] = None
    """(config key, ``ClusterTarget`` field) the cluster's kubeconfig lookup needs, if any."""
    tags_are_labels: ClassVar[bool] = False
    """Whether ``gpuready:tags`` become cloud labels with label syntax (GCP resource labels)."""
    max_pools: ClassVar[tuple[int, str] | None] = None
    """(hard node pool limit per cluster, its source), if the cloud has one."""
    cloud_driver_serves_nvidia_plugin: ClassVar[bool] = True
    """Whether a pool whose driver the cloud installs can run NVIDIA's device plugin (not with the cloud's own)."""
    fabric: ClassVar[CloudFabric] = NO_FABRIC
    """The node fabrics of the cloud's instance types and its rules for them (``gpuready.core.fabric``)."""

    # --- pool spec rules (each returns the problems it finds, in the order they are reported) ---

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

    def stack_settings_problems(
        self, settings: StackSettingsConfig, pools: Sequence[GpuPoolSpec], prefix: str
    ) -> list[Problem]:
        """Problems of the stack's cloud settings given its pools (GKE: node locations and per-zone sizes)."""
        return []

    # --- which regions offer the pool's instance type (gpuready.core.offerings: a warning, never an error) ---

    region_settings: ClassVar[tuple[str, ...]] = ()
    """Provider config keys (``aws:region``) that name the region the pools go to; the first one set wins."""
    offerings_package: ClassVar[str | None] = None
    """Package whose ``offerings.json`` lists the regions offering the catalog's types; None: not checked."""
    offerings_unchecked: ClassVar[str] = ""
    """What is not checked about regional offerings on this cloud, and why (a cloud without offerings data)."""

    def region(self, settings: Mapping[str, str | None]) -> str | None:
        """The region the pools go to, from the stack's provider config (config key -> value or None)."""
        return next((value for key in self.region_settings if (value := settings.get(key))), None)

    def offering_warning(self, spec: GpuPoolSpec, region: str | None) -> str | None:
        """The warning when ``region`` does not offer the pool's instance type (``offerings.offering_warning``);
        None when it does, when no region is set, or when the cloud has no offerings data."""
        if self.offerings_package is None:
            return None
        data = offerings.load(self.offerings_package)
        return offerings.offering_warning(self.title, spec.resolved.instance_type, region, data)

    # --- escape hatches: diskSizeGb, zones, overrides (checked by gpuready.core.pool_hatches) ---

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

    # --- what the policy pack needs to read and fix any program's pools of this cloud ---

    policy_fields: ClassVar[tuple[str, str]]
    """Dotted paths of the taints and the labels inside the pool resource (``nodeConfig.taints``)."""
    policy_min_size_fields: ClassVar[tuple[str, ...]] = ()
    """Dotted paths of the pool resource's autoscaling minimum, the first one set wins (the scale-path rules: a DRA
    pool at zero nodes never scales up)."""
    policy_taints_as_text: ClassVar[bool] = False
    """Whether the resource spells taints as ``key=value:Effect`` text (else API objects with ``NO_SCHEDULE``)."""
    policy_untainted_note: ClassVar[str]
    """Why a GPU pool of this cloud without the GPU taint takes other pods (the cloud does not add it)."""
    policy_driver_hand_over: ClassVar[str]
    """How to hand the driver over to the GPU Operator when the cloud installs one."""
    policy_plugin_fix: ClassVar[str]
    """How to remove a second device plugin from a pool of this cloud."""
    policy_why_unserved: ClassVar[str]
    """Why nothing advertises a pool's GPUs when no release in the stack runs a device plugin."""

    policy_unowned_driver: ClassVar[str] = ""
    """The finding when a pool's cloud installs no driver and no GPU Operator release does ("" if the cloud always
    installs one where the GPU stack does not)."""

    def policy_preinstalled_driver(self, props: Mapping[str, Any], labels: Mapping[str, str]) -> str:
        """Who installs the driver on a pool resource outside the GPU stack, or ``""``."""
        return ""

    def policy_own_device_plugin(self, props: Mapping[str, Any], labels: Mapping[str, str]) -> str:
        """Who runs a device plugin on a pool resource outside the GPU stack, or ``""``."""
        return ""

    def policy_health_gap(self, where: str, props: Mapping[str, Any]) -> str:
        """Why the cloud runs no GPU health checks on a pool resource (with the alternative), or ``""``."""
        return ""

    def policy_mig_problems(
        self, where: str, props: Mapping[str, Any], model: GpuModel | None, instance_types: Sequence[str]
    ) -> list[str]:
        """Problems of the cloud's own MIG settings on a pool resource (messages name the field and the fix)."""
        return []

    def policy_sharing_problems(self, props: Mapping[str, Any], limit: float) -> list[str]:
        """Problems of the cloud's own GPU sharing settings on a pool resource (at most ``limit`` shares)."""
        return []

    def policy_image_problems(self, props: Mapping[str, Any], types: Sequence[str], arch: str | None) -> list[str]:
        """Problems of the node image a GPU pool resource names (for ``arch`` when the catalog knows it)."""
        return []

    def policy_accelerators(self, node_config: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        """A pool's node config entries attaching NVIDIA GPUs to a machine (none where the type brings them)."""
        return []

    @abstractmethod
    def encoded_taint(self, taint: Taint) -> object:
        """``taint`` as this cloud's pool resource spells it (the fix a policy message proposes)."""

    # --- what the cloud installs and how sharing reaches the nodes ---

    def platform_advertiser(self, image: str, driver: str) -> PlatformAdvertiser:
        """The device plugin that comes with the platform, or ``nvidia`` when none does."""
        return "nvidia"

    def delivery(self, driver: str, mode: str) -> Delivery:
        """Which party applies sharing ``mode`` on a pool whose driver ``driver`` owns."""
        if mode == "none":
            return "none"
        return "mig-manager" if mode == "mig" else "device-plugin-config"

    def mig_choices(self, table: MigTable) -> list[str]:
        """The MIG profiles a pool of this cloud may ask for on a GPU with ``table``."""
        return list(table.profiles)

    def cloud_taints(self, spec: GpuPoolSpec) -> tuple[Taint, ...]:
        """Taints the cloud puts on the pool's nodes itself (after the GPU taint, before the spec's)."""
        return ()

    def implicit_taints(self, spec: GpuPoolSpec) -> tuple[Taint, ...]:
        """Taints the cloud may add to the pool's nodes unasked (not declared on the pool, so not in its inputs):
        gpuready's GPU stack, workloads and the scale-path model tolerate them too."""
        return ()

    def cloud_labels(self, spec: GpuPoolSpec) -> dict[str, str]:
        """Labels gpuready sets on this cloud's nodes because of the platform (before the spec's extras)."""
        return {}

    def operator_values(self, *, operator_driver: bool) -> Mapping[str, Mapping[str, Any]]:
        """GPU Operator values this cloud needs, by top-level section (merged into the section)."""
        return {}

    def stack_objects(self, namespace: str, pools: Sequence[GpuPoolSpec]) -> list[Any]:
        """Objects a GPU Operator release needs in its namespace on this cloud (``stack_objects.ReleaseObject``)."""
        return []

    # --- what a workload's pods need on the cloud's pools (core.workload) ---

    def workload_pod_fields(self, spec: GpuPoolSpec) -> dict[str, Any]:
        """PodSpec fields a GPU workload on ``spec``'s pool needs because of how the cloud shares the GPUs."""
        return {}

    def workload_node_labels(self, spec: GpuPoolSpec) -> dict[str, str]:
        """Node labels such a workload selects besides the pool's (the cloud's own sharing labels)."""
        return {}

    image_titles: ClassVar[Mapping[str, str]] = {}
    """How messages name a node image, where not ``<title> <image>``."""
    cloud_sharing_labels: ClassVar[bool] = False
    """Whether the sharing the cloud delivers shows in node labels verification checks (GKE's partition size and
    max shared clients)."""

    def image_name(self, image: str) -> str:
        """How messages name a node image of this cloud (``EKS AL2023 NVIDIA``)."""
        return self.image_titles.get(image, f"{self.title} {image}")
