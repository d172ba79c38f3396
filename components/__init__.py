"""gpuready: GPU node pools on EKS, AKS and GKE that are correct by construction.

The public names load lazily, so ``import components`` (and the CLI) does not pull in the Pulumi SDKs
until a component class is used. ``_EXPORTS`` is the one list of public names; ``__all__`` is derived from it,
and a test checks that the ``TYPE_CHECKING`` imports (what type checkers see) name the same objects.
Programs import from here only (``from components import ...``), never from the modules behind.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from components.aks.nap_pool import AksNapGpuPool as AksNapGpuPool
    from components.aks.nap_pool import AksNapGpuPoolArgs as AksNapGpuPoolArgs
    from components.aks.node_pool import AksGpuNodePool as AksGpuNodePool
    from components.aks.node_pool import AksGpuNodePoolArgs as AksGpuNodePoolArgs
    from components.core.advertisers.device_selectors import DeviceSelector as DeviceSelector
    from components.core.binpack.scheduler_config import BinPackSchedulerSpec as BinPackSchedulerSpec
    from components.core.binpack.scheduler_config import gpu_resources_of as gpu_resources_of
    from components.core.catalog.lookup import ExplicitGpu as ExplicitGpu
    from components.core.gpu_stack.stack_spec import GpuStackSpec as GpuStackSpec
    from components.core.pool_parts import GpuSharing as GpuSharing
    from components.core.pool_parts import MigPartitioning as MigPartitioning
    from components.core.specs import GpuPoolSpec as GpuPoolSpec
    from components.core.taints import Taint as Taint
    from components.core.workload import gpu_workload as gpu_workload
    from components.core.workload_placement import Placement as Placement
    from components.eks.auto_mode_pool import EksAutoModeGpuPool as EksAutoModeGpuPool
    from components.eks.auto_mode_pool import EksAutoModeGpuPoolArgs as EksAutoModeGpuPoolArgs
    from components.eks.karpenter_pool import EksKarpenterGpuPool as EksKarpenterGpuPool
    from components.eks.karpenter_pool import EksKarpenterGpuPoolArgs as EksKarpenterGpuPoolArgs
    from components.eks.node_pool import EksGpuNodePool as EksGpuNodePool
    from components.eks.node_pool import EksGpuNodePoolArgs as EksGpuNodePoolArgs
    from components.errors import ConfigError as ConfigError
    from components.errors import GpuReadyError as GpuReadyError
    from components.errors import SpecError as SpecError
    from components.gke.compute_class_pool import GkeComputeClassGpuPool as GkeComputeClassGpuPool
    from components.gke.compute_class_pool import GkeComputeClassGpuPoolArgs as GkeComputeClassGpuPoolArgs
    from components.gke.node_pool import GkeGpuNodePool as GkeGpuNodePool
    from components.gke.node_pool import GkeGpuNodePoolArgs as GkeGpuNodePoolArgs
    from components.gpu_stack.device_plugin import NvidiaDevicePlugin as NvidiaDevicePlugin
    from components.gpu_stack.device_plugin import NvidiaDevicePluginArgs as NvidiaDevicePluginArgs
    from components.gpu_stack.dra_driver import NvidiaDraDriver as NvidiaDraDriver
    from components.gpu_stack.dra_driver import NvidiaDraDriverArgs as NvidiaDraDriverArgs
    from components.gpu_stack.gpu_operator import GpuOperator as GpuOperator
    from components.gpu_stack.gpu_operator import GpuOperatorArgs as GpuOperatorArgs
    from components.gpu_stack.gpu_operator_dra import GpuOperatorDra as GpuOperatorDra
    from components.gpu_stack.gpu_operator_dra import GpuOperatorDraArgs as GpuOperatorDraArgs
    from components.pool_outputs import GpuNodePoolBase as GpuNodePoolBase
    from components.scheduler.binpack_scheduler import GpuBinPackingScheduler as GpuBinPackingScheduler
    from components.scheduler.binpack_scheduler import GpuBinPackingSchedulerArgs as GpuBinPackingSchedulerArgs

_EXPORTS = {
    "AksGpuNodePool": "components.aks.node_pool",
    "AksGpuNodePoolArgs": "components.aks.node_pool",
    "EksGpuNodePool": "components.eks.node_pool",
    "EksGpuNodePoolArgs": "components.eks.node_pool",
    "EksKarpenterGpuPool": "components.eks.karpenter_pool",
    "EksKarpenterGpuPoolArgs": "components.eks.karpenter_pool",
    "EksAutoModeGpuPool": "components.eks.auto_mode_pool",
    "EksAutoModeGpuPoolArgs": "components.eks.auto_mode_pool",
    "AksNapGpuPool": "components.aks.nap_pool",
    "AksNapGpuPoolArgs": "components.aks.nap_pool",
    "GkeComputeClassGpuPool": "components.gke.compute_class_pool",
    "GkeComputeClassGpuPoolArgs": "components.gke.compute_class_pool",
    "GkeGpuNodePool": "components.gke.node_pool",
    "GkeGpuNodePoolArgs": "components.gke.node_pool",
    "GpuNodePoolBase": "components.pool_outputs",
    "GpuOperator": "components.gpu_stack.gpu_operator",
    "GpuOperatorArgs": "components.gpu_stack.gpu_operator",
    "GpuOperatorDra": "components.gpu_stack.gpu_operator_dra",
    "GpuOperatorDraArgs": "components.gpu_stack.gpu_operator_dra",
    "NvidiaDevicePlugin": "components.gpu_stack.device_plugin",
    "NvidiaDevicePluginArgs": "components.gpu_stack.device_plugin",
    "NvidiaDraDriver": "components.gpu_stack.dra_driver",
    "NvidiaDraDriverArgs": "components.gpu_stack.dra_driver",
    "GpuStackSpec": "components.core.gpu_stack.stack_spec",
    "gpu_workload": "components.core.workload",
    "Placement": "components.core.workload_placement",
    "DeviceSelector": "components.core.advertisers.device_selectors",
    "BinPackSchedulerSpec": "components.core.binpack.scheduler_config",
    "gpu_resources_of": "components.core.binpack.scheduler_config",
    "GpuBinPackingScheduler": "components.scheduler.binpack_scheduler",
    "GpuBinPackingSchedulerArgs": "components.scheduler.binpack_scheduler",
    "GpuPoolSpec": "components.core.specs",
    "GpuSharing": "components.core.pool_parts",
    "MigPartitioning": "components.core.pool_parts",
    "Taint": "components.core.taints",
    "ExplicitGpu": "components.core.catalog.lookup",
    "GpuReadyError": "components.errors",
    "SpecError": "components.errors",
    "ConfigError": "components.errors",
}
"""Public name -> the module that defines it."""

__all__ = sorted(_EXPORTS)  # noqa: PLE0605  # derived from the one list of public names


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'components' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
