"""Device-plugin config files: one per sharing profile the pools use, plus the default. Pure.

Format (NVIDIA k8s-device-plugin v0.20.0 ``api/config/v1``; README "Shared Access to GPUs"): ``version: v1``
and a ``sharing`` block with ``timeSlicing`` or ``mps``; ``renameByDefault`` and ``failRequestsGreaterThanOne``
belong under that block, not under ``flags`` (NVIDIA/k8s-device-plugin#1433); ``replicas`` must be at least 2.
A node picks its config with the ``nvidia.com/device-plugin.config`` label set at pool creation; nodes
without it get ``default`` (no sharing). ``migStrategy`` is never written here: the GPU Operator's
``mig.strategy`` and the plugin chart's ``migStrategy`` reach the plugin as an environment variable, which
wins over the file (DP ``api/config/v1/config.go`` precedence).
"""

from __future__ import annotations

from collections.abc import Iterable

from gpuready.core import sharing_plan, yaml_text
from gpuready.core.scheduling import GPU_RESOURCE
from gpuready.core.specs import GpuPoolSpec, GpuSharing

DEFAULT_CONFIG = "default"
"""Key of the config nodes without a ``nvidia.com/device-plugin.config`` label use (no sharing)."""


def shared_pools(pools: Iterable[GpuPoolSpec]) -> list[GpuPoolSpec]:
    """Pools whose time-slicing or MPS NVIDIA's device plugin applies."""
    return [p for p in pools if isinstance(p.sharing, GpuSharing) and p.resolved.delivery == "device-plugin-config"]


def sharing_config(sharing: GpuSharing) -> dict[str, object]:
    """The plugin config document for one sharing profile."""
    block: dict[str, object] = {"renameByDefault": sharing.rename_by_default}
    if sharing.fail_requests_greater_than_one is not None:
        block["failRequestsGreaterThanOne"] = sharing.fail_requests_greater_than_one
    block["resources"] = [{"name": GPU_RESOURCE, "replicas": sharing.replicas}]
    key = "timeSlicing" if sharing.mode == "time-slicing" else "mps"
    return {"version": "v1", "sharing": {key: block}}


def plugin_configs(pools: Iterable[GpuPoolSpec]) -> dict[str, str]:
    """Config name -> config file text, for every sharing profile the pools use; empty when none shares."""
    configs: dict[str, str] = {}
    for pool in shared_pools(pools):
        assert isinstance(pool.sharing, GpuSharing)
        name = sharing_plan.device_plugin_config_name(pool.sharing)
        if name not in configs:
            configs[name] = _dump(sharing_config(pool.sharing))
    if not configs:
        return {}
    return {DEFAULT_CONFIG: _dump({"version": "v1"}), **dict(sorted(configs.items()))}


def _dump(document: dict[str, object]) -> str:
    return yaml_text.dump(document, remember=True)
