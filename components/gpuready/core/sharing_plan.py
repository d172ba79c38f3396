"""Who delivers a pool's GPU sharing or MIG, and the names the GPU stack selects it by. Pure.

Cloud-native sharing stays on the pool: GKE's own device plugin does time-sharing, MPS and MIG partitions
when GKE installs the driver; AKS partitions MIG through ``gpuInstanceProfile`` when AKS installs the
driver. Everything else goes through NVIDIA's stack, selected per node by labels set at pool creation:
``nvidia.com/device-plugin.config`` picks a device-plugin config (NVIDIA k8s-device-plugin README,
"Updating Per-Node Configuration With a Node Label"), ``nvidia.com/mig.config`` a mig-parted layout for
the GPU Operator's MIG manager (cloud-native-docs ``gpu-operator-mig.rst``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from gpuready.core.catalog import mig_profiles
from gpuready.core.catalog.mig_profiles import MigTable
from gpuready.core.clouds.node_setup import Delivery, NodeSetup
from gpuready.core.pool_parts import GpuSharing, MigPartitioning


def delivery(setup: NodeSetup, driver: str, mode: str) -> Delivery:
    """Which party applies the sharing ``mode`` on a pool of ``setup``'s cloud whose driver ``driver`` owns."""
    return setup.delivery(driver, mode)


def describe(where: Delivery, sharing: GpuSharing | MigPartitioning | None) -> str:
    """One line saying how a pool shares its GPUs and who applies it (``where``, its resolved delivery), e.g.
    ``time-slicing x4 by the cloud``."""
    if sharing is None:
        return "none"
    by = {"cloud": "the cloud", "device-plugin-config": "NVIDIA device plugin", "mig-manager": "MIG manager"}[where]
    if isinstance(sharing, MigPartitioning):
        what = sharing.profile or (sharing.layout if isinstance(sharing.layout, str) else "custom layout")
        return f"mig {what} ({sharing.strategy}) by {by}"
    return f"{sharing.mode} x{sharing.replicas} by {by}"


def mig_layout(table: MigTable, mig: MigPartitioning) -> dict[str, int]:
    """Profile -> instances per GPU that ``mig`` puts on one GPU of ``table`` (already validated)."""
    if mig.profile is not None:
        return {mig.profile: table.profiles[mig.profile]}
    if isinstance(mig.layout, str):
        if mig.layout == "all-balanced":
            return dict(table.balanced)
        profile = _profile_of_named_layout(table, mig.layout)
        return {profile: table.profiles[profile]}
    assert mig.layout is not None
    return dict(mig.layout)


def named_layouts(table: MigTable) -> list[str]:
    """mig-parted default-table layouts that apply to ``table``'s GPUs."""
    return ["all-balanced", *(mig_profiles.mig_config_name(p) for p in table.profiles)]


def mig_config_label(pool_name: str, table: MigTable, mig: MigPartitioning) -> str:
    """Value of ``nvidia.com/mig.config``: a default-table name, or gpuready's custom config for the pool."""
    if mig.profile is not None:
        return mig_profiles.mig_config_name(mig.profile)
    if isinstance(mig.layout, str):
        return mig.layout
    return custom_mig_config_name(pool_name)


def custom_mig_config_name(pool_name: str) -> str:
    """gpuready's mig-parted config name for a pool's custom layout; a valid label value (<= 63 chars)."""
    name = f"gpuready-{pool_name}"
    if len(name) <= 63:
        return name
    digest = hashlib.sha256(pool_name.encode()).hexdigest()[:8]
    return f"gpuready-{pool_name[:44].rstrip('-_.')}-{digest}"


def device_plugin_config_name(sharing: GpuSharing) -> str:
    """Key of the device-plugin config for a sharing profile, e.g. ``time-slicing-x4``."""
    name = f"{sharing.mode}-x{sharing.replicas}"
    if sharing.rename_by_default:
        name += "-renamed"
    if sharing.fail_requests_greater_than_one is not None:
        name += "-strict" if sharing.fail_requests_greater_than_one else "-lenient"
    return name


def _profile_of_named_layout(table: MigTable, name: str) -> str:
    for profile in table.profiles:
        if mig_profiles.mig_config_name(profile) == name:
            return profile
    raise ValueError(f"{name!r} is not a layout of {table.family}")


def homogeneous(layout: Mapping[str, int]) -> bool:
    """Whether a layout uses a single profile (required by the ``single`` strategy)."""
    return len(layout) == 1
