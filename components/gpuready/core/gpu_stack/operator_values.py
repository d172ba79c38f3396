"""Helm values of the NVIDIA GPU Operator chart (v26.7.0) for a stack's pools. Pure.

Keys and defaults: GO ``values.yaml`` (shared reference nvidia.md section 2). Only what the pools decide is
set; everything else keeps the chart default. Driver and toolkit: off where the node image has them (EKS AL2023
NVIDIA, Bottlerocket, AKS with ``gpuProfile.driver=Install``), on where the pool disabled the cloud's driver
(AKS ``driver: None``, GKE installation disabled). Bottlerocket nodes opt out of the driver, toolkit,
device-plugin and MIG-manager operands by node labels (``nvidia.com/gpu.deploy.*=false``) set at creation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.clouds.profile import CloudProfile
from gpuready.core.gpu_stack import mig_manager_config, mig_pools, ownership, placement, plugin_configs
from gpuready.core.gpu_stack.kind import StackSettings
from gpuready.core.health.agent import operator_dcgm_values
from gpuready.core.specs import GpuPoolSpec

WITH_REBOOT_ENV = [{"name": "WITH_REBOOT", "value": "true"}]
DRIVER_UPGRADE_POLICY = {
    "autoUpgrade": True,
    "maxParallelUpgrades": 1,
    "maxUnavailable": "1",
    "gpuPodDeletion": {"force": False, "timeoutSeconds": 300, "deleteEmptyDir": False},
    "drain": {"enable": False},
}
"""How the operator rolls a new driver over the nodes it owns (GO values.yaml ``driver.upgradePolicy``, L167-198):
one node at a time (the chart's 25% takes a quarter of a large pool's GPUs at once), GPU pods evicted without
force and given 5 minutes, no full drain (only GPU pods hold the driver; draining would evict the rest too)."""


def operator_values(
    profile: CloudProfile,
    pools: Sequence[GpuPoolSpec],
    spec: StackSettings,
    *,
    plugin_config_name: str | None,
    mig_config_name: str | None,
) -> dict[str, Any]:
    """The values for one GPU Operator release serving ``pools`` (already checked by ``stack_rules``)."""
    nvidia_pools = [p for p in pools if p.resolved.platform_plugin != "gke-device-plugin"]
    operator_driver = bool(nvidia_pools) and all(
        ownership.pool_fit(p, spec.stack_kind).operator_driver for p in nvidia_pools
    )
    tolerations = placement.taint_tolerations(pools)
    values: dict[str, Any] = {
        "driver": {"enabled": operator_driver},
        "toolkit": {"enabled": operator_driver},
        # The chart's pre-upgrade hook applies its CRDs (templates/upgrade_crd.yaml): Helm never upgrades crds/.
        "operator": {"upgradeCRD": True},
    }
    if operator_driver:
        values["driver"]["upgradePolicy"] = DRIVER_UPGRADE_POLICY
    for section, settings in profile.operator_values(operator_driver=operator_driver).items():
        values[section].update(settings)
    for section, settings in profile.fabric.operator_values(pools).items():
        values.setdefault(section, {}).update(settings)
    values["daemonsets"] = {"tolerations": tolerations}
    values.update(nfd_values(spec, tolerations, placement.nfd_node_selector()))
    if plugin_config_name is not None:
        values["devicePlugin"] = {"config": {"name": plugin_config_name, "default": plugin_configs.DEFAULT_CONFIG}}
    strategy = mig_pools.mig_strategy(pools)
    if strategy is not None:
        values["mig"] = {"strategy": strategy}
    values["migManager"] = _mig_manager(pools, spec, mig_config_name)
    values.update(monitoring_values(spec))
    values.update(operator_dcgm_values(spec.health, spec.kind))
    return values


def nfd_values(
    spec: StackSettings, tolerations: Sequence[Mapping[str, str]], selector: Mapping[str, str]
) -> dict[str, Any]:
    """The chart's NFD switch and, when it deploys NFD, the worker on ``selector``'s nodes tolerating every taint."""
    values: dict[str, Any] = {"nfd": {"enabled": spec.nfd == "deploy"}}
    if spec.nfd == "deploy":
        worker = {"nodeSelector": dict(selector), "tolerations": [dict(t) for t in tolerations]}
        values["node-feature-discovery"] = {"worker": worker}
    return values


def monitoring_values(spec: StackSettings) -> dict[str, Any]:
    """``gpuStack.monitoring``: the DCGM exporter's ServiceMonitor on or off (nothing when unset)."""
    if spec.monitoring is None:
        return {}
    # The operator makes the ServiceMonitor from the CR's dcgmExporter.serviceMonitor (GO values.yaml L326-327
    # default it on); the exporter it scrapes must run.
    monitor = {"serviceMonitor": {"enabled": spec.monitoring}}
    return {"dcgmExporter": {"enabled": True, **monitor} if spec.monitoring else monitor}


def _mig_manager(pools: Sequence[GpuPoolSpec], spec: StackSettings, config_name: str | None) -> dict[str, Any]:
    if not mig_manager_config.mig_manager_pools(pools):
        return {"enabled": False}
    manager: dict[str, Any] = {"enabled": True}
    if spec.mig_reboot:
        manager["env"] = WITH_REBOOT_ENV
    if config_name is not None:
        manager["config"] = {"name": config_name, "default": mig_manager_config.ALL_DISABLED}
    return manager
