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
from gpuready.core.clouds.profile import Delivery
from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.core.pool_parts import GpuSharing, MigPartitioning

AKS_MIG_PROFILES: tuple[str, ...] = ("MIG1g", "MIG2g", "MIG3g", "MIG4g", "MIG7g")
"""azure-native ``GPUInstanceProfile`` values (pulumi_azure_native 3.29.0 containerservice/_enums.py)."""


def delivery(cloud: Cloud, driver: str, mode: str) -> Delivery:
    """Which party applies the sharing ``mode`` on a pool of ``cloud`` whose driver ``driver`` owns."""
    return cloud_profile(cloud).delivery(driver, mode)


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


def aks_gpu_instance_profile(table: MigTable, profile: str) -> str | None:
    """The AKS ``gpuInstanceProfile`` (``MIG<N>g``) that yields ``profile``, or None if none does.

    AKS names only the compute size; each maps to the smallest-memory profile of that size on the GPU
    (``MIG1g`` is ``1g.5gb`` on A100 40 GB, ``1g.10gb`` on 80 GB parts: azure-aks-docs gpu-multi-instance.md).
    """
    compute = mig_profiles.compute_slices_of(profile)
    candidates = [
        p
        for p in table.profiles
        if mig_profiles.compute_slices_of(p) == compute and not _has_suffix(p) and f"MIG{compute}g" in AKS_MIG_PROFILES
    ]
    smallest = min(candidates, key=table.memory_slices_of, default=None)
    return f"MIG{compute}g" if smallest == profile else None


def aks_mig_choices(table: MigTable) -> list[str]:
    """MIG profiles an AKS pool of this GPU can get through ``gpuInstanceProfile``."""
    return [p for p in table.profiles if aks_gpu_instance_profile(table, p) is not None]


def _profile_of_named_layout(table: MigTable, name: str) -> str:
    for profile in table.profiles:
        if mig_profiles.mig_config_name(profile) == name:
            return profile
    raise ValueError(f"{name!r} is not a layout of {table.family}")


def _has_suffix(profile: str) -> bool:
    return not profile.endswith("gb")


def homogeneous(layout: Mapping[str, int]) -> bool:
    """Whether a layout uses a single profile (required by the ``single`` strategy)."""
    return len(layout) == 1
