"""``device-plugin``: NVIDIA's device-plugin chart (0.20.0) and its values for a stack's pools. Pure.

Chart facts (shared reference nvidia.md section 1): ``nvidia-device-plugin`` ``0.20.0`` (no ``v``) from
``https://nvidia.github.io/k8s-device-plugin`` (k8s-device-plugin README, "Deployment via helm"); it bundles
node-feature-discovery 0.19.0 aliased ``nfd``.

Keys and defaults: DP ``values.yaml`` (shared reference nvidia.md section 3). The plugin's DaemonSet has a
required node affinity on ``feature.node.kubernetes.io/pci-10de.present``, ``nvidia.com/gpu.present`` or an
NVIDIA CPU vendor; gpuready pools carry ``nvidia.com/gpu.present=true`` from creation, so the plugin lands
even before NFD has run. ``gfd.enabled`` also brings the bundled NFD (Chart.yaml ``condition:
nfd.enabled,gfd.enabled``), aliased ``nfd``; ``nfd.enabled: false`` keeps GFD on an existing NFD.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpuready.core import namespaces
from gpuready.core.clouds.fit_rows import FitRow
from gpuready.core.clouds.profile import CloudProfile
from gpuready.core.component_entry import ReleaseEntry
from gpuready.core.gpu_stack import mig_pools, placement, plugin_configs, stack_objects
from gpuready.core.gpu_stack import owned_values as ov
from gpuready.core.gpu_stack.charts import Chart
from gpuready.core.gpu_stack.kind import PROVIDER_HINT, GpuStackKind, Refusal, StackSettings
from gpuready.core.gpu_stack.kind_values import add_plugin_config
from gpuready.core.specs import GpuPoolSpec

DEVICE_PLUGIN = Chart(
    kind="device-plugin",
    name="nvidia-device-plugin",
    version="0.20.0",
    repository="https://nvidia.github.io/k8s-device-plugin",
    namespace=namespaces.DEVICE_PLUGIN,
    nfd_key="nfd",
    version_prefix="",
    owned=(
        ov.Owned("tolerations", ov.TAINTS),
        ov.Owned("nodeSelector", "the plugin runs on every GPU node (the chart's NVIDIA-node affinity)"),
        ov.Owned("affinity", "the plugin runs on every GPU node but DRA pools (the chart's NVIDIA-node affinity)"),
        ov.Owned("devicePlugin.enabled", ov.DEVICE_PLUGIN),
        ov.Owned("gfd.enabled", "gpuStack.gfd"),
        ov.Owned("nfd.enabled", "gpuStack.nfd"),
        ov.Owned("nfd.worker.nodeSelector", ov.NFD_PLACEMENT),
        ov.Owned("nfd.worker.affinity", ov.NFD_PLACEMENT),
        ov.Owned("nfd.worker.tolerations", ov.TAINTS),
        ov.Owned("migStrategy", ov.MIG_STRATEGY),
        ov.Owned("config", ov.SHARING),
    ),
    free_form=("nfd.worker.nodeSelector", "nodeSelector", "config.map"),
)


def device_plugin_values(
    pools: Sequence[GpuPoolSpec], spec: StackSettings, *, plugin_config_name: str | None
) -> dict[str, Any]:
    """The values for one device-plugin release serving ``pools`` (already checked by ``stack_rules``)."""
    tolerations = placement.taint_tolerations(pools)
    values: dict[str, Any] = {
        "tolerations": [placement.CRITICAL_ADDONS_ONLY, *tolerations],
        # Never on a DRA pool (of this cluster's other stacks): the DRA GPU plugin must not share a node with it.
        "affinity": placement.device_plugin_affinity(),
        "gfd": {"enabled": spec.gfd},
    }
    if spec.gfd:
        if spec.nfd == "deploy":
            values["nfd"] = {
                "worker": {"nodeSelector": placement.nfd_node_selector(), "tolerations": [dict(t) for t in tolerations]}
            }
        else:
            values["nfd"] = {"enabled": False}
    strategy = mig_pools.mig_strategy(pools)
    if strategy is not None:
        values["migStrategy"] = strategy
    if plugin_config_name is not None:
        values["config"] = {"name": plugin_config_name, "default": plugin_configs.DEFAULT_CONFIG}
    return values


def device_plugin_release(
    profile: CloudProfile,
    pools: Sequence[GpuPoolSpec],
    settings: StackSettings,
    objects: list[stack_objects.ReleaseObject],
) -> dict[str, Any]:
    """The device-plugin chart's values and its sharing config map."""
    plugin_name = add_plugin_config(objects, settings.effective_namespace, pools)
    return device_plugin_values(pools, settings, plugin_config_name=plugin_name)


DEVICE_PLUGIN_STACK = GpuStackKind(
    key="device-plugin",
    chart=DEVICE_PLUGIN,
    serves=DEVICE_PLUGIN.advertiser,
    gfd="setting",
    refused={
        "monitoring": Refusal(
            problem="the device-plugin chart runs no DCGM exporter, so it has no ServiceMonitor to switch (only the "
            "GPU Operator's chart deploys the exporter: dcgmExporter in its values.yaml)",
            hint="use gpuStack.kind gpu-operator, or install NVIDIA's dcgm-exporter chart beside the device plugin",
        ),
        "migReboot": Refusal(
            problem="only the GPU Operator's MIG manager reboots nodes; the device-plugin chart has none",
            hint="remove migReboot",
        ),
    },
    nvidia_fits={
        "cloud": FitRow(ok=True, summary="device plugin; driver and toolkit from the {image} image"),
        "operator": FitRow(
            ok=False,
            summary="the device-plugin chart installs no driver and this pool's cloud installs none (driver: operator)",
            hint="use gpuStack.kind gpu-operator",
            hint_cloud_driver="use gpuStack.kind gpu-operator, or set the pool's driver: cloud",
        ),
    },
    values=device_plugin_release,
    component=ReleaseEntry(
        name="NvidiaDevicePlugin",
        module="gpuready.gpu_stack.device_plugin",
        description="NVIDIA's device-plugin chart on gpuready pools (gpuready:gpuStack with kind device-plugin). "
        + PROVIDER_HINT,
        skip=frozenset({"kind", "migReboot", "clusterVersion"}),
    ),
)
