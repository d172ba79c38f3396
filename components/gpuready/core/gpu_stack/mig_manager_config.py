"""The mig-parted config for the GPU Operator's MIG manager, when a pool asks for a layout of its own. Pure.

Without a custom config the MIG manager (GPU Operator v26.3.0+) generates ``<node>-mig-config`` from NVML
with ``all-disabled``, ``all-<profile>`` and ``all-balanced`` (cloud-native-docs ``gpu-operator-mig.rst``), so
pools using those names need nothing. A custom layout needs a ConfigMap whose ``config.yaml`` holds every
config a node may be labelled with, because naming a ConfigMap replaces the generated one. Format: mig-parted
``version: v1`` / ``mig-configs`` with ``devices``, ``device-filter``, ``mig-enabled``, ``mig-devices``
(NVIDIA/mig-parted v0.15.0 ``examples/config.yaml``; cloud-native-docs ``custom-mig-config.yaml``).
"""

from __future__ import annotations

from collections.abc import Iterable

from gpuready.core import sharing_plan, yaml_text
from gpuready.core.scheduling import LABEL_MIG_CONFIG, pool_labels
from gpuready.core.specs import GpuPoolSpec, MigPartitioning

CONFIG_KEY = "config.yaml"
"""The MIG manager reads this key of its ConfigMap (GO values ``migManager.config``)."""
ALL_DISABLED = "all-disabled"


def mig_manager_pools(pools: Iterable[GpuPoolSpec]) -> list[GpuPoolSpec]:
    """Pools whose MIG layout the GPU Operator's MIG manager applies."""
    return [p for p in pools if isinstance(p.sharing, MigPartitioning) and p.resolved.delivery == "mig-manager"]


def needs_custom_config(pools: Iterable[GpuPoolSpec]) -> bool:
    """Whether some pool's layout is not a name every generated per-node config has."""
    return any(
        isinstance(p.sharing, MigPartitioning) and isinstance(p.sharing.layout, dict) for p in mig_manager_pools(pools)
    )


def mig_parted_config(pools: Iterable[GpuPoolSpec]) -> str:
    """mig-parted config text holding ``all-disabled`` and the config of every MIG-manager pool."""
    configs: dict[str, list[dict[str, object]]] = {ALL_DISABLED: [{"devices": "all", "mig-enabled": False}]}
    for pool in mig_manager_pools(pools):
        assert isinstance(pool.sharing, MigPartitioning)
        table = pool.resolved.gpu.model.mig
        if table is None:
            raise ValueError(f"pool {pool.name!r}: MIG on a GPU without MIG passed validation")
        name = pool_labels(pool)[LABEL_MIG_CONFIG]
        entry: dict[str, object] = {
            "device-filter": list(table.pci_device_ids),
            "devices": "all",
            "mig-enabled": True,
            "mig-devices": dict(sharing_plan.mig_layout(table, pool.sharing)),
        }
        entries = configs.setdefault(name, [])
        if entry not in entries:
            entries.append(entry)
    return yaml_text.dump({"version": "v1", "mig-configs": configs}, remember=True)
