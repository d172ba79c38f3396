"""Helm values of the NVIDIA device-plugin chart (0.20.0) for a stack's pools. Pure.

Keys and defaults: DP ``values.yaml`` (shared reference nvidia.md section 3). The plugin's DaemonSet has a
required node affinity on ``feature.node.kubernetes.io/pci-10de.present``, ``nvidia.com/gpu.present`` or an
NVIDIA CPU vendor; gpuready pools carry ``nvidia.com/gpu.present=true`` from creation, so the plugin lands
even before NFD has run. ``gfd.enabled`` also brings the bundled NFD (Chart.yaml ``condition:
nfd.enabled,gfd.enabled``), aliased ``nfd``; ``nfd.enabled: false`` keeps GFD on an existing NFD.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpuready.core.gpu_stack import mig_pools, placement, plugin_configs
from gpuready.core.gpu_stack.kind import StackSettings
from gpuready.core.specs import GpuPoolSpec


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
