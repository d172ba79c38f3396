"""gpuready: GPU node pools on EKS, AKS and GKE that are correct by construction.

The public names load lazily, so ``import components`` (and the CLI) does not pull in the Pulumi SDKs
until a component class is used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from components.aks.node_pool import AksGpuNodePool, AksGpuNodePoolArgs
    from components.core.binpack.scheduler_config import BinPackSchedulerSpec
    from components.core.catalog.lookup import ExplicitGpu
    from components.core.gpu_stack.stack_spec import GpuStackSpec
    from components.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
    from components.core.taints import Taint
    from components.core.workload import gpu_workload
    from components.core.workload_placement import Placement
    from components.eks.node_pool import EksGpuNodePool, EksGpuNodePoolArgs
    from components.errors import ConfigError, GpuReadyError, SpecError
    from components.gke.node_pool import GkeGpuNodePool, GkeGpuNodePoolArgs
    from components.gpu_stack.device_plugin import NvidiaDevicePlugin, NvidiaDevicePluginArgs
    from components.gpu_stack.gpu_operator import GpuOperator, GpuOperatorArgs
    from components.pool_outputs import GpuNodePoolBase
    from components.scheduler.binpack_scheduler import GpuBinPackingScheduler

_EXPORTS = {
    "AksGpuNodePool": "components.aks.node_pool",
    "AksGpuNodePoolArgs": "components.aks.node_pool",
    "EksGpuNodePool": "components.eks.node_pool",
    "EksGpuNodePoolArgs": "components.eks.node_pool",
    "GkeGpuNodePool": "components.gke.node_pool",
    "GkeGpuNodePoolArgs": "components.gke.node_pool",
    "GpuNodePoolBase": "components.pool_outputs",
    "GpuOperator": "components.gpu_stack.gpu_operator",
    "GpuOperatorArgs": "components.gpu_stack.gpu_operator",
    "NvidiaDevicePlugin": "components.gpu_stack.device_plugin",
    "NvidiaDevicePluginArgs": "components.gpu_stack.device_plugin",
    "GpuStackSpec": "components.core.gpu_stack.stack_spec",
    "gpu_workload": "components.core.workload",
    "Placement": "components.core.workload_placement",
    "BinPackSchedulerSpec": "components.core.binpack.scheduler_config",
    "GpuBinPackingScheduler": "components.scheduler.binpack_scheduler",
    "GpuPoolSpec": "components.core.specs",
    "GpuSharing": "components.core.specs",
    "MigPartitioning": "components.core.specs",
    "Taint": "components.core.taints",
    "ExplicitGpu": "components.core.catalog.lookup",
    "GpuReadyError": "components.errors",
    "SpecError": "components.errors",
    "ConfigError": "components.errors",
}

__all__ = [
    "AksGpuNodePool",
    "AksGpuNodePoolArgs",
    "BinPackSchedulerSpec",
    "ConfigError",
    "EksGpuNodePool",
    "EksGpuNodePoolArgs",
    "ExplicitGpu",
    "GkeGpuNodePool",
    "GkeGpuNodePoolArgs",
    "GpuBinPackingScheduler",
    "GpuNodePoolBase",
    "GpuOperator",
    "GpuOperatorArgs",
    "GpuPoolSpec",
    "GpuReadyError",
    "GpuSharing",
    "GpuStackSpec",
    "MigPartitioning",
    "NvidiaDevicePlugin",
    "NvidiaDevicePluginArgs",
    "Placement",
    "SpecError",
    "Taint",
    "gpu_workload",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'components' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
