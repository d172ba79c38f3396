"""The values builders of the stack kinds that install a chart (``GpuStackKind.values``). Pure.

Each takes the pools and the release settings and returns the release's values; the config maps a release reads
(the device plugin's sharing configs, the MIG manager's layouts) and the cloud's objects beside it go into
``objects``, created in the release namespace before the release.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.clouds.profile import CloudProfile
from gpuready.core.gpu_stack import mig_manager_config, plugin_configs, stack_objects
from gpuready.core.gpu_stack.device_plugin_values import device_plugin_values
from gpuready.core.gpu_stack.dra_values import dra_driver_values
from gpuready.core.gpu_stack.gpu_cluster_values import gpu_cluster_values
from gpuready.core.gpu_stack.kind import StackSettings
from gpuready.core.gpu_stack.operator_values import operator_values
from gpuready.core.specs import GpuPoolSpec

PLUGIN_CONFIG_BASE = "gpuready-device-plugin-config"
MIG_CONFIG_BASE = "gpuready-mig-parted-config"


def operator_release(
    profile: CloudProfile,
    pools: Sequence[GpuPoolSpec],
    settings: StackSettings,
    objects: list[stack_objects.ReleaseObject],
) -> dict[str, Any]:
    """The GPU Operator's ClusterPolicy values, its plugin and MIG config maps, and the cloud's objects."""
    ns = settings.effective_namespace
    plugin_name = _add_config(objects, PLUGIN_CONFIG_BASE, ns, plugin_configs.plugin_configs(pools))
    mig_name = None
    if mig_manager_config.needs_custom_config(pools):
        data = {mig_manager_config.CONFIG_KEY: mig_manager_config.mig_parted_config(pools)}
        mig_name = _add_config(objects, MIG_CONFIG_BASE, ns, data)
    values = operator_values(profile, pools, settings, plugin_config_name=plugin_name, mig_config_name=mig_name)
    objects.extend(profile.stack_objects(ns, pools))
    return values


def device_plugin_release(
    profile: CloudProfile,
    pools: Sequence[GpuPoolSpec],
    settings: StackSettings,
    objects: list[stack_objects.ReleaseObject],
) -> dict[str, Any]:
    """The device-plugin chart's values and its sharing config map."""
    plugin_configs_data = plugin_configs.plugin_configs(pools)
    plugin_name = _add_config(objects, PLUGIN_CONFIG_BASE, settings.effective_namespace, plugin_configs_data)
    return device_plugin_values(pools, settings, plugin_config_name=plugin_name)


def dra_driver_release(
    profile: CloudProfile,
    pools: Sequence[GpuPoolSpec],
    settings: StackSettings,
    objects: list[stack_objects.ReleaseObject],
) -> dict[str, Any]:
    """NVIDIA's DRA driver chart's values (no config maps)."""
    return dra_driver_values(pools)


def gpu_cluster_release(
    profile: CloudProfile,
    pools: Sequence[GpuPoolSpec],
    settings: StackSettings,
    objects: list[stack_objects.ReleaseObject],
) -> dict[str, Any]:
    """The GPU Operator chart's GPUCluster values (no config maps)."""
    return gpu_cluster_values(pools, settings)


def _add_config(
    objects: list[stack_objects.ReleaseObject], base: str, namespace: str, data: Mapping[str, str]
) -> str | None:
    if not data:
        return None
    config_map = stack_objects.config_map(base, namespace, data)
    objects.append(config_map)
    return config_map.name
