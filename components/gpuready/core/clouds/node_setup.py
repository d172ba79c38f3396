"""What a cloud puts on its GPU nodes (``NodeSetup``): the platform's device plugin, who delivers sharing, its
taints and labels, the GPU Operator values and objects it needs, and what a workload's pods need there. Read by
resolution, scheduling, the GPU stack and workloads. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from gpuready.core.clouds.cloud_node_labels import CloudNodeLabels
from gpuready.core.clouds.fit_rows import ByDriver
from gpuready.core.clouds.named import NamedCloud

if TYPE_CHECKING:
    from gpuready.core.catalog.mig_profiles import MigTable
    from gpuready.core.clouds.images import ImageFacts
    from gpuready.core.health.conditions import HealthCondition, ReasonFact
    from gpuready.core.specs import GpuPoolSpec
    from gpuready.core.taints import Taint

Delivery = Literal["none", "cloud", "device-plugin-config", "mig-manager"]
"""Who applies a pool's sharing: nobody, the cloud, NVIDIA's device plugin (its config), the MIG manager."""
PlatformAdvertiser = Literal["nvidia", "gke-device-plugin", "bottlerocket", "eks-auto-mode"]
"""Which device plugin advertises a pool's GPUs: NVIDIA's (a chart, or yours), GKE's, Bottlerocket's or EKS Auto
Mode's (a provisioner's, ``Provisioner.platform_advertiser``)."""

PlatformFits = Mapping[PlatformAdvertiser, Mapping[str, ByDriver]]
"""A cloud's own device plugins -> their rows per GPU stack kind (``gpuready.core.gpu_stack.stack_fits``)."""


class NodeSetup(NamedCloud, Protocol):
    """What the cloud installs and sets on a pool's nodes, and how sharing reaches them."""

    health_agents: ClassVar[Mapping[str, str]] = {}
    """Health agents the cloud offers (``gpuStack.health.agent``) and what each reports, for the plan."""
    health_conditions: ClassVar[tuple[HealthCondition, ...]] = ()
    """The node conditions the cloud's own health reporters set (``gpuready.core.health.conditions``)."""
    condition_reasons: ClassVar[tuple[ReasonFact, ...]] = ()
    """What the reasons its reporters give for those conditions mean (the EKS agent's GPU reasons)."""
    cloud_driver_serves_nvidia_plugin: ClassVar[bool] = True
    """Whether a pool whose driver the cloud installs can run NVIDIA's device plugin (not where the cloud runs
    its own plugin with its driver)."""
    own_label_keys: ClassVar[frozenset[str]] = frozenset()
    """Keys of the node labels gpuready sets on the cloud's pools for it (``cloud_labels``): the pool rules refuse
    them in the extra labels of a pool on any cloud."""
    own_taint_keys: ClassVar[frozenset[str]] = frozenset()
    """Keys of the taints the cloud puts on pools itself, which gpuready declares (``cloud_taints``): the pool rules
    refuse them in the own taints of a pool on any cloud."""
    platform_fits: ClassVar[PlatformFits] = {}
    """How each GPU stack kind fits a pool whose platform brings the cloud's own device plugin (``stack_fits``'
    rows of each plugin the cloud's images and provisioners bring, besides ``nvidia``)."""

    def platform_advertiser(self, image: str, driver: str) -> PlatformAdvertiser:
        """The device plugin that comes with the platform, or ``nvidia`` when none does (the image's, by default)."""
        facts = self.image_facts.get(image)
        return facts.platform_plugin if facts is not None else "nvidia"

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

    def workload_pod_fields(self, spec: GpuPoolSpec) -> dict[str, Any]:
        """PodSpec fields a GPU workload on ``spec``'s pool needs because of how the cloud shares the GPUs."""
        return {}

    def workload_node_labels(self, spec: GpuPoolSpec) -> dict[str, str]:
        """Node labels such a workload selects besides the pool's (the cloud's own sharing labels)."""
        return {}

    image_facts: ClassVar[Mapping[str, ImageFacts]]
    """The cloud's node image families for GPU pools (its ``<cloud>/images.py`` table), in ``images`` order."""
    node_labels: ClassVar[CloudNodeLabels] = CloudNodeLabels()
    """The labels the cloud puts on GPU nodes that verification reads (its ``<cloud>/node_labels.py``)."""
    cloud_sharing_labels: ClassVar[bool] = False
    """Whether the sharing the cloud delivers shows in node labels verification checks (GKE's partition size and
    max shared clients)."""

    def image_name(self, image: str) -> str:
        """How messages name a node image of this cloud (``EKS AL2023 NVIDIA``)."""
        facts = self.image_facts.get(image)
        return facts.title if facts is not None else f"{self.title} {image}"
