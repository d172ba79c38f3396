"""``dra-driver``: NVIDIA's DRA driver chart (``dra-driver-nvidia-gpu`` 0.4.0) and its values for a stack's DRA
pools. Pure.

The chart: NVIDIA's DRA driver for GPUs (NVIDIA/k8s-dra-driver-gpu ``deployments/helm/dra-driver-nvidia-gpu``, tag
``v0.4.0``; NVIDIA publishes the packaged chart on its NGC Helm repository). It bundles no NFD and installs no
NVIDIA driver.

Keys and defaults: the chart's ``values.yaml`` (NVIDIA/k8s-dra-driver-gpu v0.4.0; its keys in ``chart_facts``).
What gpuready decides:

- ``resourceApiVersion: resource.k8s.io/v1``: the chart otherwise takes the newest resource API the cluster
  serves, v1beta1 or v1beta2 included (``_helpers.tpl``); ``clusterVersion`` is at least 1.34, where
  ``resource.k8s.io/v1`` is GA (``dra_cluster.DRA_MIN_MINOR``), the API of gpuready's own claims.
- ``resources.gpus.enabled`` with ``gpuResourcesEnabledOverride``: the chart refuses to publish GPUs unless told
  that no device plugin runs on the same nodes (``templates/validation.yaml``). gpuready sets the override only
  together with a kubelet-plugin node affinity that selects exactly the stack's DRA pools (their
  ``gpuready.io/pool`` names, and ``gpuready.io/advertise=dra``); every device plugin gpuready plans avoids those
  nodes (the plugin chart's affinity, the GPU Operator's ``nvidia.com/gpu.deploy.device-plugin=false`` label).
- ``resources.computeDomains.enabled: false``: ComputeDomains hand out multi-node NVLink (IMEX channels) of
  GB200/GB300 NVL72-class systems; no pool gpuready offers has multi-node NVLink, so the controller and its
  DaemonSets stay off.
- The kubelet plugin tolerates every taint of the pools (``placement.taint_tolerations``), replacing the chart's
  single ``nvidia.com/gpu`` toleration.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpuready.core import namespaces
from gpuready.core.advertisers.dra import DYNAMIC_RESOURCES
from gpuready.core.clouds.fit_rows import FitRow
from gpuready.core.clouds.profile import CloudProfile
from gpuready.core.component_entry import ReleaseEntry
from gpuready.core.gpu_stack import owned_values as ov
from gpuready.core.gpu_stack import placement, stack_objects
from gpuready.core.gpu_stack.charts import DRA_ADVERTISER, Chart
from gpuready.core.gpu_stack.dra_cluster import DRA_RESOURCE_API
from gpuready.core.gpu_stack.kind import PROVIDER_HINT, GpuStackKind, StackSettings, lacks
from gpuready.core.gpu_stack.stack_fits import DRA_HINT, DRA_HINT_CLOUD
from gpuready.core.scheduling import LABEL_ADVERTISE, LABEL_POOL
from gpuready.core.specs import GpuPoolSpec

DRA_DRIVER = Chart(
    kind="dra-driver",
    name="dra-driver-nvidia-gpu",
    version="0.4.0",
    repository="https://helm.ngc.nvidia.com/nvidia",
    namespace=namespaces.DRA_DRIVER,
    nfd_key="",
    version_prefix="",
    advertiser=DRA_ADVERTISER,
    owned=(
        ov.Owned("resourceApiVersion", "gpuStack.clusterVersion (1.34+ serves resource.k8s.io/v1)"),
        ov.Owned("gpuResourcesEnabledOverride", ov.DRA_PLACEMENT),
        ov.Owned("resources.gpus.enabled", ov.DRA_PLACEMENT),
        ov.Owned("resources.computeDomains.enabled", ov.COMPUTE_DOMAINS),
        ov.Owned("kubeletPlugin.affinity", ov.DRA_PLACEMENT),
        ov.Owned("kubeletPlugin.nodeSelector", ov.DRA_PLACEMENT),
        ov.Owned("kubeletPlugin.tolerations", ov.TAINTS),
        ov.Owned("namespace", "gpuStack.namespace (the chart refuses a namespace value)"),
    ),
    free_form=("featureGates", "kubeletPlugin.nodeSelector", "controller.nodeSelector"),
)
"""NVIDIA's DRA driver for GPUs (NVIDIA/k8s-dra-driver-gpu ``deployments/helm/dra-driver-nvidia-gpu``, tag
``v0.4.0``; NVIDIA publishes the packaged chart on its NGC Helm repository). It bundles no NFD and installs no
NVIDIA driver."""


def dra_node_affinity(pools: Sequence[GpuPoolSpec]) -> dict[str, Any]:
    """The kubelet plugin's required node affinity: the DRA pools among ``pools``, by name and DRA label."""
    names = sorted(p.name for p in pools)
    term = {
        "matchExpressions": [
            {"key": LABEL_ADVERTISE, "operator": "In", "values": [DYNAMIC_RESOURCES.pool_value]},
            {"key": LABEL_POOL, "operator": "In", "values": names},
        ]
    }
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [term]}}}


def dra_driver_values(pools: Sequence[GpuPoolSpec]) -> dict[str, Any]:
    """The values for one DRA driver release serving ``pools`` (all DRA pools, checked by ``stack_rules``)."""
    return {
        "resourceApiVersion": DRA_RESOURCE_API,
        "gpuResourcesEnabledOverride": True,
        "resources": {"gpus": {"enabled": True}, "computeDomains": {"enabled": False}},
        "kubeletPlugin": {
            "affinity": dra_node_affinity(pools),
            "tolerations": placement.taint_tolerations(pools),
        },
    }


def dra_driver_release(
    profile: CloudProfile,
    pools: Sequence[GpuPoolSpec],
    settings: StackSettings,
    objects: list[stack_objects.ReleaseObject],
) -> dict[str, Any]:
    """NVIDIA's DRA driver chart's values (no config maps)."""
    return dra_driver_values(pools)


DRA_DRIVER_STACK = GpuStackKind(
    key="dra-driver",
    chart=DRA_DRIVER,
    serves=DRA_DRIVER.advertiser,
    refused=lacks(
        nfd="the DRA driver chart has no node-feature-discovery subchart",
        gfd="the DRA driver chart has no GPU Feature Discovery",
        migReboot="the DRA driver chart has no MIG manager",
        monitoring="the DRA driver chart has no DCGM exporter",
    ),
    nvidia_fits={
        "cloud": FitRow(ok=True, summary="DRA driver; NVIDIA driver from the {image} image"),
        "operator": FitRow(
            ok=False,
            summary="the DRA driver chart installs no NVIDIA driver and this pool's cloud installs none (driver: "
            "operator)",
            hint=DRA_HINT,
            hint_cloud_driver=DRA_HINT_CLOUD,
        ),
    },
    values=dra_driver_release,
    component=ReleaseEntry(
        name="NvidiaDraDriver",
        module="gpuready.gpu_stack.dra_driver",
        description="NVIDIA's DRA driver chart on gpuready's DRA pools (advertise: dra; gpuready:gpuStack with kind "
        "dra-driver; Kubernetes 1.34+). " + PROVIDER_HINT,
        skip=frozenset({"kind", "gfd", "nfd", "migReboot", "monitoring"}),
    ),
)
