"""GKE: what differs on Google Kubernetes Engine node pools, as gpuready's cloud profile. Pure.

Sources: GKE node pool naming (lowercase letters, digits and '-', at most 40 characters), GKE taints (a value is
required), ``gpu_driver_version`` DEFAULT / LATEST (LATEST on COS only; pulumi_gcp 10.2.0 docs), GKE gpus-multi
(GPUs partitioned with ``gpu_partition_size``; MIG devices advertised as ``nvidia.com/gpu``), cloud-native-docs
``google-gke.rst`` (NVIDIA's stack only on Ubuntu pools with GKE's driver installation disabled, labelled
``gke-no-default-nvidia-gpu-device-plugin=true``), the GKE PriorityClass quota for system-node-critical pods.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gpuready.core.catalog.gpus import GpuModel
from gpuready.core.catalog.mig_profiles import MigTable
from gpuready.core.clouds.node_setup import Delivery, PlatformAdvertiser
from gpuready.core.clouds.profile import CloudProfile
from gpuready.core.scheduling import GPU_TAINT, GPUREADY_DOMAIN
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.errors import Problem
from gpuready.gke import (
    capacity,
    catalog,
    compute_class,
    fabric,
    fabric_objects,
    offline_answers,
    reservation_zone,
    stack_quota,
)
from gpuready.gke.catalog import GKE_ATTACHABLE, GKE_MACHINE_TYPES, GKE_MIG_MODELS
from gpuready.gke.fabric_profile import FABRIC
from gpuready.gke.images import IMAGES
from gpuready.gke.node_labels import (
    LABEL_GKE_MAX_SHARED_CLIENTS,
    LABEL_GKE_SHARING_STRATEGY,
    NODE_LABELS,
)
from gpuready.gke.plan import (
    DRIVER_INSTALLATION_DISABLED,
    LABEL_NO_DEVICE_PLUGIN,
    MAX_SHARED_CLIENTS,
    OWNED_INPUTS,
    to_gke_taint,
)
from gpuready.gke.platform_fits import PLATFORM_FITS
from gpuready.gke.zones import ZONE, zone_problems

if TYPE_CHECKING:
    from gpuready.core.config_model.cloud_keys import CloudSettingsValues
    from gpuready.gke.settings_keys import GkeSettingsValues
    from gpuready.gke.settings_model import GkeSettingsConfig

GKE_TOOLKIT_ENV = [{"name": "RUNTIME_CONFIG_SOURCE", "value": "file"}]
"""GKE 1.33+ (every version the operator supports on GKE: platform-support, K8s 1.33-1.36) needs the toolkit
to read containerd's config from its file (cloud-native-docs ``google-gke.rst``, known issues)."""
MPS_DOC = "https://cloud.google.com/kubernetes-engine/docs/how-to/nvidia-mps-gpus"
"""GKE: "Share GPUs with multiple workloads using NVIDIA MPS", section "Deploy workloads that use NVIDIA MPS with
GPUs" (its example Job runs with ``hostIPC: true`` and selects ``cloud.google.com/gke-gpu-sharing-strategy: mps``)."""
DRIVER_VERSIONS: tuple[str, ...] = tuple(dict.fromkeys(v for facts in IMAGES.values() for v in facts.driver_versions))
"""GKE-installed driver branches (``gpu_driver_version`` DEFAULT / LATEST; which image takes which: ``IMAGES``)."""
EVERY_IMAGE_DRIVER_VERSIONS: tuple[str, ...] = tuple(
    v for v in DRIVER_VERSIONS if all(v in facts.driver_versions for facts in IMAGES.values())
)
"""The driver versions every GKE image takes: what a pool on an image GKE lacks is judged by."""


class GkeProfile(CloudProfile):
    name = "gke"
    title = "GKE"
    image_facts = IMAGES
    fabric = FABRIC
    platform_fits = PLATFORM_FITS
    max_shared_clients = MAX_SHARED_CLIENTS
    images = tuple(IMAGES)
    # GKE node pools: lowercase letters, digits and '-', starting with a letter, at most 40 characters.
    name_rule = (
        re.compile(r"^[a-z](?:[-a-z0-9]{0,38}[a-z0-9])?\Z"),
        "1-40 lowercase letters, digits or '-', starting with a letter and not ending with '-'",
    )
    name_max = 40
    reserved_label_domains = ("kubernetes.io", "k8s.io", "cloud.google.com", GPUREADY_DOMAIN)
    own_label_keys = frozenset({LABEL_NO_DEVICE_PLUGIN})
    instance_types = GKE_MACHINE_TYPES
    attachable = GKE_ATTACHABLE
    accelerator_names = catalog.ACCELERATORS

    def unlisted_gpu_type(self, name: str) -> bool:
        return catalog.unlisted_gpu_type(name)

    def gpu_family(self, family: str) -> bool:
        return catalog.gpu_family(family)

    matrix_types = ("g2-standard-8", "a2-highgpu-1g")
    offerings_unchecked = (
        "GKE: whether the cluster's zones offer a pool's GPU and machine type is not checked (gpuready has no "
        "offline, machine-readable source of accelerator types per zone; see `gcloud compute accelerator-types "
        "list --filter=zone:<zone>`)"
    )
    stack_adapter = "gpuready.gke.stack_adapter"
    offline_answers = offline_answers.ANSWERS
    health_agents = {
        "platform": "GKE's own health checks (node auto-repair on NotReady; no GPU conditions; GPU metrics from "
        "GKE's managed DCGM exporter when the cluster enables it)",
    }
    provisioners = {"node-pool": capacity.PROVISIONER, "compute-class": compute_class.PROVISIONER}

    @property
    def settings(self) -> type[GkeSettingsConfig]:
        from gpuready.gke.settings_model import GkeSettingsConfig  # noqa: PLC0415 - pydantic late: not for check, label, verify

        return GkeSettingsConfig

    @property
    def settings_values(self) -> type[GkeSettingsValues]:
        from gpuready.gke.settings_keys import GkeSettingsValues  # noqa: PLC0415 - read only for a stack's settings

        return GkeSettingsValues

    example_pool = (
        "# One L4 per node on GKE's own driver and device plugin, scaled from zero on demand.\n"
        "- name: l4\n  instanceType: g2-standard-8\n  minSize: 0\n  maxSize: 2\n"
    )
    tags_are_labels = True
    cloud_driver_serves_nvidia_plugin = False
    blue_green = True
    cloud_sharing_labels = True
    node_labels = NODE_LABELS

    # disk_size_gb: "The smallest allowed disk size is 10GB. Defaults to 100GB" (pulumi_gcp 10.2.0
    # container/_inputs.py, NodePoolNodeConfigArgs); no largest size is stated there, so none is checked.
    disk_size_gb = (10, None, "pulumi_gcp NodePoolNodeConfig disk_size_gb")
    zone_rule = (ZONE, "zones of the cluster's region, like us-central1-a")
    inputs_package = "gpuready.gke"
    owned_inputs = OWNED_INPUTS

    policy_untainted_note = (
        "GKE adds it only when the cluster already has a non-GPU pool (terraform-google-kubernetes-engine#703), "
        "and a pool that declares other taints but not this one is replaced on every apply "
        "(terraform-provider-google#7928)"
    )
    policy_driver_hand_over = f"set gpuDriverInstallationConfig.gpuDriverVersion: {DRIVER_INSTALLATION_DISABLED!r}"
    policy_plugin_fix = f"Label the pool {LABEL_NO_DEVICE_PLUGIN}=true in nodeConfig.labels to turn GKE's off"
    policy_why_unserved = f"GKE's device plugin is off ({LABEL_NO_DEVICE_PLUGIN} or driver installation disabled)"

    def encoded_taint(self, taint: Taint) -> object:
        return to_gke_taint(taint)

    def driver_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        problems = []
        image = IMAGES.get(spec.image_family)  # None: an image GKE lacks (the image rule refuses it)
        if spec.driver == "operator" and (image is None or not image.operator_driver):
            problems.append(
                Problem(
                    "image",
                    "the GPU Operator on GKE needs Ubuntu nodes: its driver containers and container toolkit have no "
                    "Container-Optimized OS build (NVIDIA/nvidia-container-toolkit#209), and the operator on COS fails "
                    "to register its runtime with GKE's containerd (NVIDIA/gpu-operator#1679, unresolved)",
                    spec.image_family,
                    tuple(name for name, facts in IMAGES.items() if facts.operator_driver),
                    "set image: ubuntu (NVIDIA's driver manager route, cloud-native-docs google-gke.rst), or driver: "
                    "cloud to keep GKE's driver and device plugin",
                )
            )
        version = spec.driver_version
        if version is None:
            return problems
        if spec.driver != "cloud":
            return problems + super().driver_problems(spec)
        if version not in DRIVER_VERSIONS:
            problems.append(Problem("driverVersion", "unknown GKE driver version", version, DRIVER_VERSIONS))
        elif version not in (offered := image.driver_versions if image is not None else EVERY_IMAGE_DRIVER_VERSIONS):
            problems.append(
                Problem(
                    "driverVersion",
                    "GKE offers the LATEST driver on COS only",
                    version,
                    offered,
                    "use default",
                )
            )
        return problems

    def accelerator_problems(self, model: GpuModel) -> list[Problem]:
        if model.key in self.accelerator_names:
            return []
        offered = sorted(self.accelerator_names)
        return [Problem("gpu.model", "GKE offers no such accelerator", model.key, offered)]

    def taint_value_problems(self, path: str, taint: Taint) -> list[Problem]:
        return [] if taint.value else [Problem(path, "GKE requires a taint value", taint.value)]

    def mig_problems(self, spec: GpuPoolSpec, mig: MigPartitioning, model_key: str, table: MigTable) -> list[Problem]:
        problems = []
        if model_key not in GKE_MIG_MODELS:
            problems.append(
                Problem(
                    "sharing.mode",
                    "GKE does not partition this GPU with MIG",
                    model_key,
                    sorted(GKE_MIG_MODELS),
                    "use driver: operator to let the MIG manager do it",
                )
            )
        if mig.strategy != "single":
            problems.append(
                Problem(
                    "sharing.strategy",
                    "GKE advertises MIG partitions as nvidia.com/gpu (single)",
                    mig.strategy,
                    ("single",),
                )
            )
        return problems

    def stack_settings_problems(
        self, settings: CloudSettingsValues, pools: Sequence[GpuPoolSpec], prefix: str
    ) -> list[Problem]:
        wiring = self.settings_values.narrow(settings)
        locations = tuple(wiring.gke_node_locations)
        found = zone_problems(wiring.gke_location or None, locations, pools, prefix)
        found += reservation_zone.stack_problems(wiring.gke_location or None, locations, pools, prefix)
        return [*found, *fabric.stack_zone_problems(locations, pools, prefix),
                *fabric_objects.installer_problems(pools, prefix)]  # fmt: skip

    def platform_advertiser(self, image: str, driver: str) -> PlatformAdvertiser:
        return "gke-device-plugin" if driver == "cloud" else "nvidia"

    def delivery(self, driver: str, mode: str) -> Delivery:
        if mode != "none" and driver == "cloud":
            return "cloud"
        return super().delivery(driver, mode)

    def cloud_labels(self, spec: GpuPoolSpec) -> dict[str, str]:
        return {LABEL_NO_DEVICE_PLUGIN: "true"} if spec.driver == "operator" else {}

    def implicit_taints(self, spec: GpuPoolSpec) -> tuple[Taint, ...]:
        """GKE taints GPU nodes ``nvidia.com/gpu=present:NoSchedule`` itself once the cluster has a non-GPU pool
        (cloud.google.com kubernetes-engine/docs/how-to/gpus, "Tainting GPU nodes"), whatever taint the pool
        declares: under a team's other GPU taint (``gpuready:conventions``) the nodes may carry both."""
        gpu = spec.conventions.gpu_taint
        return () if (gpu.key, gpu.effect) == (GPU_TAINT.key, GPU_TAINT.effect) else (GPU_TAINT,)

    def operator_values(self, *, operator_driver: bool) -> Mapping[str, Mapping[str, Any]]:
        return {"toolkit": {"env": GKE_TOOLKIT_ENV}} if operator_driver else {}

    def stack_objects(self, namespace: str, pools: Sequence[GpuPoolSpec]) -> list[Any]:
        return [stack_quota.priority_quota(namespace, pools)]

    def workload_pod_fields(self, spec: GpuPoolSpec) -> dict[str, Any]:
        """GKE's MPS: pods talk to the MPS control daemon through the host's IPC namespace, so ``hostIPC: true``
        is required (GKE "Deploy workloads that use NVIDIA MPS with GPUs", ``MPS_DOC``). NVIDIA's own device
        plugin does not need it: it mounts the daemon's pipe and shm directories into each container instead
        (NVIDIA/k8s-device-plugin v0.20.0 ``internal/plugin/mps.go``, ``updateReponse``)."""
        return {"hostIPC": True} if self._gke_mps(spec) is not None else {}

    def workload_node_labels(self, spec: GpuPoolSpec) -> dict[str, str]:
        """GKE's MPS example selects ``cloud.google.com/gke-gpu-sharing-strategy: mps``; GKE also labels the nodes
        with their clients per GPU (``MPS_DOC``), so a pod never lands on a pool recreated without MPS."""
        replicas = self._gke_mps(spec)
        if replicas is None:
            return {}
        return {LABEL_GKE_SHARING_STRATEGY: "mps", LABEL_GKE_MAX_SHARED_CLIENTS: str(replicas)}

    def _gke_mps(self, spec: GpuPoolSpec) -> int | None:
        """Shares per GPU when GKE itself runs MPS on the pool (its driver and device plugin), else None."""
        sharing = spec.sharing
        if isinstance(sharing, GpuSharing) and sharing.mode == "mps" and self.delivery(spec.driver, "mps") == "cloud":
            return sharing.replicas
        return None


PROFILE = GkeProfile()
