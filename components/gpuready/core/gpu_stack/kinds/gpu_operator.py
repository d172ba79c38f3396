"""``gpu-operator``: NVIDIA's GPU Operator chart and its ClusterPolicy stack. Pure.

Chart facts (shared reference nvidia.md section 1): ``gpu-operator`` ``v26.7.0`` (leading ``v``) from
``https://helm.ngc.nvidia.com/nvidia`` (NVIDIA cloud-native-docs ``getting-started.rst``); it bundles
node-feature-discovery 0.19.0 unaliased (``node-feature-discovery.*``). Its values: ``operator_values``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpuready.core import namespaces
from gpuready.core.clouds.fit_rows import FitRow
from gpuready.core.clouds.profile import CloudProfile
from gpuready.core.component_entry import ReleaseEntry
from gpuready.core.gpu_stack import mig_manager_config, stack_objects
from gpuready.core.gpu_stack import owned_values as ov
from gpuready.core.gpu_stack.charts import Chart
from gpuready.core.gpu_stack.kind import PROVIDER_HINT, GpuStackKind, Refusal, StackSettings
from gpuready.core.gpu_stack.kind_values import MIG_CONFIG_BASE, add_config, add_plugin_config
from gpuready.core.gpu_stack.operator_values import operator_values
from gpuready.core.specs import GpuPoolSpec

GPU_OPERATOR = Chart(
    kind="gpu-operator",
    name="gpu-operator",
    version="v26.7.0",
    repository="https://helm.ngc.nvidia.com/nvidia",
    namespace=namespaces.GPU_OPERATOR,
    nfd_key="node-feature-discovery",
    version_prefix="v",
    disable_openapi_validation=True,
    owned=(
        ov.Owned("driver.enabled", ov.DRIVER),
        ov.Owned("driver.upgradePolicy", "gpuready's driver rollout, one node at a time (when the operator owns it)"),
        ov.Owned("toolkit.enabled", ov.DRIVER),
        ov.Owned("toolkit.env", "the cloud's container-runtime settings (GKE: RUNTIME_CONFIG_SOURCE)", always=False),
        ov.Owned("operator.runtimeClass", "the cloud's runtime class for its own driver (AKS)", always=False),
        ov.Owned("operator.upgradeCRD", ov.CRD_UPGRADE),
        ov.Owned("daemonsets.tolerations", ov.TAINTS),
        ov.Owned("nfd.enabled", "gpuStack.nfd"),
        ov.Owned("node-feature-discovery.worker.nodeSelector", ov.NFD_PLACEMENT),
        ov.Owned("node-feature-discovery.worker.affinity", ov.NFD_PLACEMENT),
        ov.Owned("node-feature-discovery.worker.tolerations", ov.TAINTS),
        ov.Owned("devicePlugin.enabled", ov.DEVICE_PLUGIN),
        ov.Owned("devicePlugin.config", ov.SHARING),
        ov.Owned("mig.strategy", ov.MIG_STRATEGY),
        ov.Owned("migManager.enabled", ov.MIG_LAYOUT),
        ov.Owned("migManager.config", ov.MIG_LAYOUT),
        ov.Owned("migManager.env", "gpuStack.migReboot"),
        ov.Owned("dcgmExporter.serviceMonitor.enabled", ov.MONITORING),
        ov.Owned("dcgmExporter.enabled", ov.MONITORING_EXPORTER, always=False),
    ),
    free_form=("node-feature-discovery.worker.nodeSelector", "devicePlugin.config.data", "migManager.config.data"),
)


def operator_release(
    profile: CloudProfile,
    pools: Sequence[GpuPoolSpec],
    settings: StackSettings,
    objects: list[stack_objects.ReleaseObject],
) -> dict[str, Any]:
    """The GPU Operator's ClusterPolicy values, its plugin and MIG config maps, and the cloud's objects."""
    ns = settings.effective_namespace
    plugin_name = add_plugin_config(objects, ns, pools)
    mig_name = None
    if mig_manager_config.needs_custom_config(pools):
        data = {mig_manager_config.CONFIG_KEY: mig_manager_config.mig_parted_config(pools)}
        mig_name = add_config(objects, MIG_CONFIG_BASE, ns, data)
    values = operator_values(profile, pools, settings, plugin_config_name=plugin_name, mig_config_name=mig_name)
    objects.extend(profile.stack_objects(ns, pools))
    return values


GPU_OPERATOR_STACK = GpuStackKind(
    key="gpu-operator",
    chart=GPU_OPERATOR,
    serves=GPU_OPERATOR.advertiser,
    gfd="always",
    mig_manager=True,
    driver_installer=True,
    refused={
        "gfd": Refusal(
            problem="the GPU Operator always runs GPU Feature Discovery; gfd only applies to the device-plugin chart",
            hint="remove gfd",
        )
    },
    nvidia_fits={
        "cloud": FitRow(ok=True, summary="GPU Operator; driver and toolkit from the {image} image"),
        "operator": FitRow(ok=True, summary="GPU Operator installs driver and toolkit", operator_driver=True),
    },
    values=operator_release,
    component=ReleaseEntry(
        name="GpuOperator",
        module="gpuready.gpu_stack.gpu_operator",
        description="NVIDIA's GPU Operator chart on gpuready pools (gpuready:gpuStack with kind gpu-operator). "
        + PROVIDER_HINT,
        skip=frozenset({"kind", "gfd", "clusterVersion"}),
    ),
)
