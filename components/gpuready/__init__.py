"""gpuready: GPU node pools on EKS, AKS and GKE that are correct by construction.

The public names load lazily, so ``import gpuready`` (and the CLI) does not pull in the Pulumi SDKs
until a component class is used. ``_EXPORTS`` is the one list of public names; ``__all__`` is derived from it,
and a test checks that the ``TYPE_CHECKING`` imports (what type checkers see) name the same objects.
Programs import from here only (``from gpuready import ...``), never from the modules behind.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gpuready.aks.nap_pool import AksNapGpuPool as AksNapGpuPool
    from gpuready.aks.nap_pool import AksNapGpuPoolArgs as AksNapGpuPoolArgs
    from gpuready.aks.node_pool import AksGpuNodePool as AksGpuNodePool
    from gpuready.aks.node_pool import AksGpuNodePoolArgs as AksGpuNodePoolArgs
    from gpuready.core.advertisers.device_selectors import DeviceSelector as DeviceSelector
    from gpuready.core.binpack.scheduler_config import BinPackSchedulerSpec as BinPackSchedulerSpec
    from gpuready.core.binpack.scheduler_config import gpu_resources_of as gpu_resources_of
    from gpuready.core.catalog.lookup import ExplicitGpu as ExplicitGpu
    from gpuready.core.fabric.model import FabricSpec as FabricSpec
    from gpuready.core.gpu_stack.stack_spec import GpuStackSpec as GpuStackSpec
    from gpuready.core.pool_parts import GpuSharing as GpuSharing
    from gpuready.core.pool_parts import MigPartitioning as MigPartitioning
    from gpuready.core.specs import GpuPoolSpec as GpuPoolSpec
    from gpuready.core.taints import Taint as Taint
    from gpuready.core.workload import gpu_workload as gpu_workload
    from gpuready.core.workload_placement import Placement as Placement
    from gpuready.eks.auto_mode_pool import EksAutoModeGpuPool as EksAutoModeGpuPool
    from gpuready.eks.auto_mode_pool import EksAutoModeGpuPoolArgs as EksAutoModeGpuPoolArgs
    from gpuready.eks.karpenter_pool import EksKarpenterGpuPool as EksKarpenterGpuPool
    from gpuready.eks.karpenter_pool import EksKarpenterGpuPoolArgs as EksKarpenterGpuPoolArgs
    from gpuready.eks.node_pool import EksGpuNodePool as EksGpuNodePool
    from gpuready.eks.node_pool import EksGpuNodePoolArgs as EksGpuNodePoolArgs
    from gpuready.errors import ConfigError as ConfigError
    from gpuready.errors import GpuReadyError as GpuReadyError
    from gpuready.errors import SpecError as SpecError
    from gpuready.gke.compute_class_pool import GkeComputeClassGpuPool as GkeComputeClassGpuPool
    from gpuready.gke.compute_class_pool import GkeComputeClassGpuPoolArgs as GkeComputeClassGpuPoolArgs
    from gpuready.gke.node_pool import GkeGpuNodePool as GkeGpuNodePool
    from gpuready.gke.node_pool import GkeGpuNodePoolArgs as GkeGpuNodePoolArgs
    from gpuready.gpu_stack.device_plugin import NvidiaDevicePlugin as NvidiaDevicePlugin
    from gpuready.gpu_stack.device_plugin import NvidiaDevicePluginArgs as NvidiaDevicePluginArgs
    from gpuready.gpu_stack.dra_driver import NvidiaDraDriver as NvidiaDraDriver
    from gpuready.gpu_stack.dra_driver import NvidiaDraDriverArgs as NvidiaDraDriverArgs
    from gpuready.gpu_stack.gpu_operator import GpuOperator as GpuOperator
    from gpuready.gpu_stack.gpu_operator import GpuOperatorArgs as GpuOperatorArgs
    from gpuready.gpu_stack.gpu_operator_dra import GpuOperatorDra as GpuOperatorDra
    from gpuready.gpu_stack.gpu_operator_dra import GpuOperatorDraArgs as GpuOperatorDraArgs
    from gpuready.pool_outputs import GpuNodePoolBase as GpuNodePoolBase
    from gpuready.scheduler.binpack_scheduler import GpuBinPackingScheduler as GpuBinPackingScheduler
    from gpuready.scheduler.binpack_scheduler import GpuBinPackingSchedulerArgs as GpuBinPackingSchedulerArgs

_EXPORTS = {
    "AksGpuNodePool": "gpuready.aks.node_pool",
    "AksGpuNodePoolArgs": "gpuready.aks.node_pool",
    "EksGpuNodePool": "gpuready.eks.node_pool",
    "EksGpuNodePoolArgs": "gpuready.eks.node_pool",
    "EksKarpenterGpuPool": "gpuready.eks.karpenter_pool",
    "EksKarpenterGpuPoolArgs": "gpuready.eks.karpenter_pool",
    "EksAutoModeGpuPool": "gpuready.eks.auto_mode_pool",
    "EksAutoModeGpuPoolArgs": "gpuready.eks.auto_mode_pool",
    "AksNapGpuPool": "gpuready.aks.nap_pool",
    "AksNapGpuPoolArgs": "gpuready.aks.nap_pool",
    "GkeComputeClassGpuPool": "gpuready.gke.compute_class_pool",
    "GkeComputeClassGpuPoolArgs": "gpuready.gke.compute_class_pool",
    "GkeGpuNodePool": "gpuready.gke.node_pool",
    "GkeGpuNodePoolArgs": "gpuready.gke.node_pool",
    "GpuNodePoolBase": "gpuready.pool_outputs",
    "GpuOperator": "gpuready.gpu_stack.gpu_operator",
    "GpuOperatorArgs": "gpuready.gpu_stack.gpu_operator",
    "GpuOperatorDra": "gpuready.gpu_stack.gpu_operator_dra",
    "GpuOperatorDraArgs": "gpuready.gpu_stack.gpu_operator_dra",
    "NvidiaDevicePlugin": "gpuready.gpu_stack.device_plugin",
    "NvidiaDevicePluginArgs": "gpuready.gpu_stack.device_plugin",
    "NvidiaDraDriver": "gpuready.gpu_stack.dra_driver",
    "NvidiaDraDriverArgs": "gpuready.gpu_stack.dra_driver",
    "GpuStackSpec": "gpuready.core.gpu_stack.stack_spec",
    "gpu_workload": "gpuready.core.workload",
    "Placement": "gpuready.core.workload_placement",
    "DeviceSelector": "gpuready.core.advertisers.device_selectors",
    "BinPackSchedulerSpec": "gpuready.core.binpack.scheduler_config",
    "gpu_resources_of": "gpuready.core.binpack.scheduler_config",
    "GpuBinPackingScheduler": "gpuready.scheduler.binpack_scheduler",
    "GpuBinPackingSchedulerArgs": "gpuready.scheduler.binpack_scheduler",
    "GpuPoolSpec": "gpuready.core.specs",
    "GpuSharing": "gpuready.core.pool_parts",
    "FabricSpec": "gpuready.core.fabric.model",
    "MigPartitioning": "gpuready.core.pool_parts",
    "Taint": "gpuready.core.taints",
    "ExplicitGpu": "gpuready.core.catalog.lookup",
    "GpuReadyError": "gpuready.errors",
    "SpecError": "gpuready.errors",
    "ConfigError": "gpuready.errors",
}
"""Public name -> the module that defines it."""

__all__ = sorted(_EXPORTS)  # noqa: PLE0605  # derived from the one list of public names


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'components' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
