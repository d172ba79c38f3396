"""The Pulumi component that makes a pool's capacity, chosen through the provisioner registry.

The component module (and its cloud SDK) is imported only when asked for, so choosing never loads another cloud's
SDK; the stack program asks here instead of naming a cloud's component.
"""

from __future__ import annotations

import importlib

from components.core.capacity.registry import provisioner_for
from components.core.specs import GpuPoolSpec
from components.pool_outputs import GpuNodePoolBase


def pool_component_for(spec: GpuPoolSpec) -> type[GpuNodePoolBase]:
    """The component class of ``spec``'s provisioner (its ``adapter``), imported on first use."""
    module, _, name = provisioner_for(spec).adapter.partition(":")
    component = getattr(importlib.import_module(module), name)
    if not (isinstance(component, type) and issubclass(component, GpuNodePoolBase)):
        raise TypeError(f"{module}:{name} is not a GPU node pool component")
    return component
