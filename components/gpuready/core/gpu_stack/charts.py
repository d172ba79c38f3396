"""The NVIDIA Helm charts gpuready installs: names, pinned versions, repositories, values keys. Pure.

Facts from the released charts (shared reference nvidia.md section 1): GPU Operator chart ``gpu-operator``
``v26.7.0`` (leading ``v``) from ``https://helm.ngc.nvidia.com/nvidia`` (NVIDIA cloud-native-docs
``getting-started.rst``); device plugin chart ``nvidia-device-plugin`` ``0.20.0`` (no ``v``) from
``https://nvidia.github.io/k8s-device-plugin`` (k8s-device-plugin README, "Deployment via helm"). Both bundle
node-feature-discovery 0.19.0: unaliased (``node-feature-discovery.*``) in the operator chart, aliased ``nfd``
in the device-plugin chart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from gpuready.core import namespaces
from gpuready.core.props import as_flag, dig

StackKind = Literal["gpu-operator", "device-plugin", "dra-driver", "gpu-operator-dra", "none", "external"]
STACK_KINDS: tuple[StackKind, ...] = (
    "gpu-operator",
    "device-plugin",
    "dra-driver",
    "gpu-operator-dra",
    "none",
    "external",
)
"""``gpu-operator`` / ``device-plugin`` / ``dra-driver`` / ``gpu-operator-dra``: gpuready installs that chart
(``dra-driver``: NVIDIA's DRA driver, for pools with ``advertise: dra``; ``gpu-operator-dra``: the GPU Operator's
experimental GPUCluster stack, which runs the DRA driver, for such pools too). ``none``: the cloud's own stack
advertises the GPUs (GKE with its driver, Bottlerocket). ``external``: you run NVIDIA's stack yourself; gpuready
installs nothing and only checks that the pools can carry it."""

ChartKind = Literal["gpu-operator", "device-plugin", "dra-driver", "gpu-operator-dra"]
DRA_ADVERTISER = "dra"
"""``Chart.advertiser`` of the charts that serve DRA pools (the DRA advertiser's registry key)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Chart:
    """One Helm chart as gpuready pins it."""

    kind: ChartKind
    name: str
    """Chart name in its repository."""
    version: str
    repository: str
    namespace: str
    """Default release namespace (never ``default``)."""
    nfd_key: str
    """Values key of the bundled node-feature-discovery subchart (empty: the chart bundles none)."""
    version_prefix: str
    """``v`` when the chart's versions start with it."""
    advertiser: str = "extended-resources"
    """Key of the advertiser (``advertisers.registry``) whose pools the chart serves."""
    disable_openapi_validation: bool = False
    """Helm's ``--disable-openapi-validation`` on upgrade: the GPU Operator applies its new CRDs in a pre-upgrade
    hook (``operator.upgradeCRD``), and its values.yaml (L87-89) says that "requires --disable-openapi-validation
    flag to be passed during helm upgrade" (the new ClusterPolicy is validated before the hook ran)."""
    cluster_apis: tuple[str, ...] = ()
    """API resources (``group/version/Kind``) the chart's own validations require the cluster to serve: offline,
    ``helm template --api-versions`` must name them."""
    experimental: bool = False
    """Upstream marks the stack experimental (the plan and the support matrix say so)."""


GPU_OPERATOR = Chart(
    kind="gpu-operator",
    name="gpu-operator",
    version="v26.7.0",
    repository="https://helm.ngc.nvidia.com/nvidia",
    namespace=namespaces.GPU_OPERATOR,
    nfd_key="node-feature-discovery",
    version_prefix="v",
    disable_openapi_validation=True,
)
DEVICE_PLUGIN = Chart(
    kind="device-plugin",
    name="nvidia-device-plugin",
    version="0.20.0",
    repository="https://nvidia.github.io/k8s-device-plugin",
    namespace=namespaces.DEVICE_PLUGIN,
    nfd_key="nfd",
    version_prefix="",
)
DRA_DRIVER = Chart(
    kind="dra-driver",
    name="dra-driver-nvidia-gpu",
    version="0.4.0",
    repository="https://helm.ngc.nvidia.com/nvidia",
    namespace=namespaces.DRA_DRIVER,
    nfd_key="",
    version_prefix="",
    advertiser=DRA_ADVERTISER,
)
"""NVIDIA's DRA driver for GPUs (NVIDIA/k8s-dra-driver-gpu ``deployments/helm/dra-driver-nvidia-gpu``, tag
``v0.4.0``; NVIDIA publishes the packaged chart on its NGC Helm repository). It bundles no NFD and installs no
NVIDIA driver."""
GPU_OPERATOR_DRA = Chart(
    kind="gpu-operator-dra",
    name=GPU_OPERATOR.name,
    version=GPU_OPERATOR.version,
    repository=GPU_OPERATOR.repository,
    namespace=GPU_OPERATOR.namespace,
    nfd_key=GPU_OPERATOR.nfd_key,
    version_prefix=GPU_OPERATOR.version_prefix,
    advertiser=DRA_ADVERTISER,
    disable_openapi_validation=True,
    cluster_apis=("resource.k8s.io/v1/DeviceClass",),
    experimental=True,
)
"""The GPU Operator chart's GPUCluster stack (``gpuCluster.deployCR=true``, ``clusterPolicy.deployCR=false``),
"experimental" in v26.7.0 (SOURCES.md; ``values.yaml`` L565-576): the operator runs NVIDIA's DRA driver (image
v0.5.0), DCGM, the DCGM exporter and a DRA validator (``newGPUClusterStates`` in ``internal/state/manager.go``),
and no device plugin, GFD, MIG manager or container toolkit. Its ``templates/validations.yaml`` (L25-29) fails
unless the cluster serves a ``resource.k8s.io`` DeviceClass API."""
CHARTS: Mapping[ChartKind, Chart] = {"gpu-operator": GPU_OPERATOR, "device-plugin": DEVICE_PLUGIN}
"""The charts that advertise GPUs by NVIDIA's device plugin (each bundles NFD)."""
STACK_CHARTS: Mapping[ChartKind, Chart] = {**CHARTS, "dra-driver": DRA_DRIVER, "gpu-operator-dra": GPU_OPERATOR_DRA}
"""Every chart a ``gpuStack`` kind installs."""

FREE_FORM_VALUE_MAPS: Mapping[ChartKind, tuple[str, ...]] = {
    # Maps whose keys are the user's, not the chart's (label keys, config names, file names).
    "gpu-operator": (
        "node-feature-discovery.worker.nodeSelector",
        "devicePlugin.config.data",
        "migManager.config.data",
    ),
    "device-plugin": ("nfd.worker.nodeSelector", "nodeSelector", "config.map"),
    "dra-driver": ("featureGates", "kubeletPlugin.nodeSelector", "controller.nodeSelector"),
    "gpu-operator-dra": ("node-feature-discovery.worker.nodeSelector", "draDriver.featureGates"),
}
"""Value paths under which gpuready's keys are not chart keys (the fidelity test skips below them)."""


def gpu_cluster_deployed(values: Mapping[str, Any]) -> bool:
    """Whether GPU Operator chart ``values`` deploy the GPUCluster (``gpuCluster.deployCR``, default false: GO
    values.yaml L575-576), read as Helm reads a boolean."""
    return as_flag(dig(values, "gpuCluster", "deployCR")) is True
