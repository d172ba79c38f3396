"""AKS: what differs on Azure Kubernetes Service agent pools, as gpuready's cloud profile. Pure.

Sources: the Azure AVM agentpool module (``variables.tf``: Linux pool names 1-12 lowercase letters and digits),
the AKS quotas page (at most 100 node pools per cluster), azure-native 3.29.0 ``GPUInstanceProfile`` (MIG
through the pool's ``gpuInstanceProfile``), learn.microsoft.com ``nvidia-gpu-operator`` (AKS installs driver
and toolkit unless ``gpuProfile.driver=None``), AKS spot node pools (the ``kubernetes.azure.com/scalesetpriority``
taint).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gpuready.aks import capacity, capacity_rules, catalog, fabric, nap, network_operator, offline_answers
from gpuready.aks import health_conditions as npd
from gpuready.aks import mig as aks_mig
from gpuready.aks.catalog import AKS_VM_SIZES
from gpuready.aks.images import IMAGES
from gpuready.aks.node_labels import NODE_LABELS
from gpuready.aks.plan import OWNED_INPUTS
from gpuready.core.catalog.mig_profiles import MigTable
from gpuready.core.clouds.node_setup import Delivery
from gpuready.core.clouds.profile import CloudProfile
from gpuready.core.fabric.model import CloudFabric, FabricSpec, FabricWorkload, TypeFabric
from gpuready.core.scheduling import GPUREADY_DOMAIN, LABEL_POOL, tolerated_taints, toleration_for
from gpuready.core.specs import GpuPoolSpec, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.aks.settings_keys import AksSettingsValues
    from gpuready.aks.settings_model import AksSettingsConfig
    from gpuready.core.config_model.cloud_keys import CloudSettingsValues

AKS_RUNTIME_CLASS = "nvidia-container-runtime"
"""The runtime AKS's preinstalled toolkit registers; NVIDIA's AKS page sets ``operator.runtimeClass`` to it
(cloud-native-docs ``microsoft-aks.rst``)."""
SPOT_TAINT = Taint(key="kubernetes.azure.com/scalesetpriority", value="spot", effect="NoSchedule")
"""AKS adds this taint to every Spot pool; declaring it keeps the pool's taint list stable."""


class AksFabric(CloudFabric):
    """InfiniBand on AKS's ND-series sizes (``aks.fabric``), set up by NVIDIA's Network Operator
    (``aks.network_operator``). Here beside the profile: its cluster objects tolerate the pools' taints
    (``core.scheduling``), and a module of its own would join the run-time cycle through the cloud registry."""

    types: Mapping[str, TypeFabric] = fabric.TYPES
    resource_names = (network_operator.RDMA_RESOURCE,)
    # NCCL's own InfiniBand verbs transport: ``ncclNetIb.name`` (NVIDIA/nccl v2.30.7-1 src/transport/net_ib/common.cc
    # L193-194).
    nccl_networks = {"infiniband": ("IB",)}
    charts = {network_operator.CHART: network_operator.VERSION}
    node_causes = (
        "NVIDIA's Network Operator has not set up the node: its NicClusterPolicy's RDMA shared device plugin is not "
        "running there (the operator not installed, its DaemonSets not tolerating the node's taints, or the DOCA "
        "driver still loading), or the VM has no InfiniBand (AKSInfinibandSupport not registered)",
        "the RDMA shared device plugin advertises fewer devices than its NicClusterPolicy's rdmaHcaMax: it runs "
        "with another configuration",
    )
    node_fix = (
        f"check the NicClusterPolicy's state and the operator's pods on the node: kubectl get nicclusterpolicy "
        f"nic-cluster-policy -o jsonpath='{{.status}}'; kubectl -n {network_operator.NAMESPACE} get pods -o wide "
        "--field-selector spec.nodeName={node}"
    )

    def type_resources(self, instance_type: str) -> dict[str, int]:
        found = instance_type in self.types
        return {network_operator.RDMA_RESOURCE: network_operator.RDMA_HCA_MAX} if found else {}

    def resources(self, spec: GpuPoolSpec) -> dict[str, int]:
        found = spec.fabric is not None and spec.fabric.kind == "infiniband"
        return {network_operator.RDMA_RESOURCE: network_operator.RDMA_HCA_MAX} if found else {}

    def problems(self, spec: GpuPoolSpec, fabric_spec: FabricSpec) -> list[Problem]:
        return fabric.pool_problems(spec, self.type_of(spec, fabric_spec))

    def stack_problems(self, spec: GpuPoolSpec, stack_kind: str) -> list[Problem]:
        return fabric.stack_problems(spec, stack_kind)

    def operator_values(self, pools: Sequence[GpuPoolSpec]) -> dict[str, Any]:
        return network_operator.operator_values(pools)

    def cluster_objects(self, pools: Sequence[GpuPoolSpec]) -> list[Mapping[str, Any]]:
        ib = network_operator.infiniband_pools(pools)
        seen = {(t.key, t.effect): toleration_for(t) for p in ib for t in tolerated_taints(p)}
        return network_operator.fabric_objects(pools, list(seen.values()), LABEL_POOL)

    def workload(self, spec: GpuPoolSpec, share: Fraction) -> FabricWorkload:
        return FabricWorkload(
            resources=network_operator.container_resources(spec), container=network_operator.container_fields(spec)
        )

    def devices(self, spec: GpuPoolSpec) -> int:
        found = self.types.get(spec.resolved.gpu.instance_type)
        return 0 if found is None else found.devices


class AksProfile(CloudProfile):
    name = "aks"
    title = "AKS"
    image_facts = IMAGES
    images = tuple(IMAGES)
    # AKS Linux agent pools (Azure AVM agentpool variables.tf:17).
    name_rule = (re.compile(r"^[a-z][a-z0-9]{0,11}\Z"), "1-12 lowercase letters and digits, starting with a letter")
    name_max = 12
    reserved_label_domains = ("kubernetes.io", "k8s.io", "kubernetes.azure.com", GPUREADY_DOMAIN)
    own_taint_keys = frozenset({SPOT_TAINT.key})
    rotates_names = False
    instance_types = AKS_VM_SIZES

    def unlisted_gpu_type(self, name: str) -> bool:
        return catalog.unlisted_gpu_type(name)

    instance_types_fold_case = True
    matrix_types = ("Standard_NC4as_T4_v3", "Standard_NC24ads_A100_v4")
    offerings_unchecked = (
        "AKS: whether the cluster's location offers a pool's VM size is not checked (gpuready has no offline, "
        "machine-readable source of Azure VM sizes per region; see `az vm list-skus --location <location> "
        "--size <vmSize> --output table`)"
    )
    stack_adapter = "gpuready.aks.stack_adapter"
    node_labels = NODE_LABELS
    offline_answers = offline_answers.ANSWERS
    health_agents = {
        "platform": "AKS Node Problem Detector (GPUMissing, XIDErrors, NVLink and InfiniBand conditions; not on "
        "pools with driver: operator, where NVSentinel or the GPU Operator's DCGM exporter must watch instead)",
    }
    provisioners = {"node-pool": capacity.PROVISIONER, "nap": nap.PROVISIONER}

    @property
    def settings(self) -> type[AksSettingsConfig]:
        from gpuready.aks.settings_model import AksSettingsConfig  # noqa: PLC0415 - pydantic late: not for check, label, verify

        return AksSettingsConfig

    @property
    def settings_values(self) -> type[AksSettingsValues]:
        from gpuready.aks.settings_keys import AksSettingsValues  # noqa: PLC0415 - read only for a stack's settings

        return AksSettingsValues

    example_gpu_stack = "device-plugin"  # AKS's Ubuntu image has the driver, no device plugin
    example_pool = (
        "# One T4 per node, whole GPUs, scaled from zero on demand.\n"
        "- name: t4\n  instanceType: Standard_NC4as_T4_v3\n  minSize: 0\n  maxSize: 2\n"
    )
    max_pools = (100, "AKS quotas page: maximum node pools per cluster")

    # osDiskSizeGB: "If you specify 0, it will apply the default osDisk size according to the vmSize specified"
    # (azure-native 3.29.0 agent_pool.py); the range is the REST spec's ``ContainerServiceOSDisk`` (minimum 0,
    # maximum 2048; Azure/azure-rest-api-specs, Microsoft.ContainerService managedClusters.json).
    disk_size_gb = (0, 2048, "AKS REST API Agent Pools - Create Or Update, osDiskSizeGB; 0: the VM size's default")
    # Azure availability zones are numbered 1-3 in a region (MicrosoftDocs/azure-aks-docs availability-zones.md).
    zone_rule = (re.compile(r"^[1-3]\Z"), "1, 2 or 3")
    inputs_package = "gpuready.aks"
    owned_inputs = OWNED_INPUTS

    policy_taints_as_text = True
    policy_untainted_note = "AKS never taints GPU pools and has no ExtendedResourceToleration (Azure/AKS#1449)"
    policy_driver_hand_over = "set the pool's gpuProfile.driver: 'None' (immutable: recreate the pool)"
    policy_plugin_fix = "Remove one of them"
    policy_why_unserved = "AKS installs the driver but not the device plugin"

    policy_unowned_driver = (
        "no NVIDIA driver owner: gpuProfile.driver is 'None' and every GPU Operator release has driver.enabled: "
        "false. Set driver.enabled: true, or gpuProfile.driver: 'Install'"
    )

    def stack_settings_problems(
        self, settings: CloudSettingsValues, pools: Sequence[GpuPoolSpec], prefix: str
    ) -> list[Problem]:
        """Reservation and placement group ids in the cluster's subscription (``aks.capacity_rules``)."""
        subscription = capacity_rules.cluster_subscription(self.settings_values.narrow(settings).aks_vnet_subnet_id)
        return [
            problem
            for index, pool in enumerate(pools)
            for problem in capacity_rules.subscription_problems(pool, subscription, f"{prefix}nodePools[{index}].")
        ]

    def encoded_taint(self, taint: Taint) -> object:
        return str(taint)  # key=value:Effect, as AKS nodeTaints spell it

    def mig_problems(self, spec: GpuPoolSpec, mig: MigPartitioning, model_key: str, table: MigTable) -> list[Problem]:
        if mig.profile is None or aks_mig.gpu_instance_profile(table, mig.profile) is not None:
            return []
        return [
            Problem(
                "sharing.profile",
                "AKS gpuInstanceProfile cannot produce this profile",
                mig.profile,
                aks_mig.mig_choices(table),
            )
        ]

    def delivery(self, driver: str, mode: str) -> Delivery:
        if mode == "mig" and driver == "cloud":
            return "cloud"
        return super().delivery(driver, mode)

    def mig_choices(self, table: MigTable) -> list[str]:
        return aks_mig.mig_choices(table)

    def cloud_taints(self, spec: GpuPoolSpec) -> tuple[Taint, ...]:
        return (SPOT_TAINT,) if spec.capacity == "spot" else ()

    def operator_values(self, *, operator_driver: bool) -> Mapping[str, Mapping[str, Any]]:
        return {} if operator_driver else {"operator": {"runtimeClass": AKS_RUNTIME_CLASS}}

    fabric = AksFabric()
    health_conditions = npd.CONDITIONS


PROFILE = AksProfile()
