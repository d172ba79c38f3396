"""The public names of ``gpuready`` (the facade, ``gpuready/__init__.py``) and the module defining each. Pure.

``SHARED`` lists the names that are no plug-in's; each provisioner's, each GPU stack kind's and each stack-wide
component's class and its Args come from its one registration entry (``Provisioner.component``,
``GpuStackKind.component``, ``setting_components.SETTING_COMPONENTS``), read on first use. ``exports()`` is both;
``__all__`` and the type stub ``__init__.pyi`` (``.venv/bin/python -m tools.facade_stub --write``; a test fails
while it differs) derive from it.
"""

from __future__ import annotations

import functools

SHARED = {
    "GpuNodePoolBase": "gpuready.pool_outputs",
    "GpuStackSpec": "gpuready.core.gpu_stack.stack_spec",
    "gpu_workload": "gpuready.core.workload",
    "Placement": "gpuready.core.workload_placement",
    "DeviceSelector": "gpuready.core.advertisers.device_selectors",
    "BinPackSchedulerSpec": "gpuready.core.binpack.scheduler_config",
    "gpu_resources_of": "gpuready.core.binpack.scheduler_config",
    "KueueSpec": "gpuready.core.kueue.spec",
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
"""Public name -> the module that defines it, for the names that are no plug-in's."""


@functools.cache
def exports() -> dict[str, str]:
    """Every public name -> its module: the shared ones, then each plug-in's component and Args (the provisioners',
    the stack kinds', the stack-wide components')."""
    # the clouds' profiles are registered (a program using the facade has them for its components) and the stack
    # kinds loaded (pure, no SDK): on first use, so ``import gpuready`` stays light
    import gpuready.plugins  # noqa: F401, PLC0415
    from gpuready.core.capacity.registry import component_provisioners  # noqa: PLC0415
    from gpuready.core.gpu_stack.kinds import CHART_COMPONENTS  # noqa: PLC0415
    from gpuready.core.setting_components import SETTING_COMPONENTS  # noqa: PLC0415

    plugged = [p.component.exports for p in component_provisioners()]
    plugged += [entry.exports for entry in CHART_COMPONENTS.values()]
    plugged += [entry.exports for entry in SETTING_COMPONENTS]
    return {**SHARED, **{name: module for exports in plugged for name, module in exports.items()}}
