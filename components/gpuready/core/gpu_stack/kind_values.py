"""What the values builders of the stack kinds share (``GpuStackKind.values``, each in its kind's module). Pure.

Each builder takes the pools and the release settings and returns the release's values; the config maps a release
reads (the device plugin's sharing configs, the MIG manager's layouts) and the cloud's objects beside it go into
``objects``, created in the release namespace before the release.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gpuready.core.gpu_stack import plugin_configs, stack_objects
from gpuready.core.specs import GpuPoolSpec

PLUGIN_CONFIG_BASE = "gpuready-device-plugin-config"
MIG_CONFIG_BASE = "gpuready-mig-parted-config"


def add_plugin_config(
    objects: list[stack_objects.ReleaseObject], namespace: str, pools: Sequence[GpuPoolSpec]
) -> str | None:
    """The device plugin's sharing config map for ``pools`` into ``objects``; its name (None: no sharing)."""
    return add_config(objects, PLUGIN_CONFIG_BASE, namespace, plugin_configs.plugin_configs(pools))


def add_config(
    objects: list[stack_objects.ReleaseObject], base: str, namespace: str, data: Mapping[str, str]
) -> str | None:
    """A config map named from ``base`` with ``data`` into ``objects``; its name (None: no data, no map)."""
    if not data:
        return None
    config_map = stack_objects.config_map(base, namespace, data)
    objects.append(config_map)
    return config_map.name
