"""Who delivers sharing/MIG per (cloud, driver, mode), and the config names the GPU stack selects it by."""

from __future__ import annotations

import re

import pytest

from gpuready.aks import mig as aks_mig
from gpuready.core import sharing_plan, sharing_rules
from gpuready.core.catalog.mig_profiles import (
    A100_40GB,
    A100_80GB_H100_80GB,
    B200_180GB,
    H100_96GB_GH200,
    H100_NVL_94GB,
    H200_141GB,
    MigTable,
)
from gpuready.core.clouds.registry import Cloud, cloud_profile, cloud_profiles
from gpuready.core.specs import GpuSharing, MigPartitioning

DELIVERY = [
    ("eks", "cloud", "none", "none"),
    ("eks", "cloud", "time-slicing", "device-plugin-config"),
    ("eks", "cloud", "mps", "device-plugin-config"),
    ("eks", "cloud", "mig", "mig-manager"),
    ("eks", "operator", "none", "none"),
    ("eks", "operator", "time-slicing", "device-plugin-config"),
    ("eks", "operator", "mps", "device-plugin-config"),
    ("eks", "operator", "mig", "mig-manager"),
    ("aks", "cloud", "none", "none"),
    ("aks", "cloud", "time-slicing", "device-plugin-config"),
    ("aks", "cloud", "mps", "device-plugin-config"),
    ("aks", "cloud", "mig", "cloud"),
    ("aks", "operator", "none", "none"),
    ("aks", "operator", "time-slicing", "device-plugin-config"),
    ("aks", "operator", "mps", "device-plugin-config"),
    ("aks", "operator", "mig", "mig-manager"),
    ("gke", "cloud", "none", "none"),
    ("gke", "cloud", "time-slicing", "cloud"),
    ("gke", "cloud", "mps", "cloud"),
    ("gke", "cloud", "mig", "cloud"),
    ("gke", "operator", "none", "none"),
    ("gke", "operator", "time-slicing", "device-plugin-config"),
    ("gke", "operator", "mps", "device-plugin-config"),
    ("gke", "operator", "mig", "mig-manager"),
]


@pytest.mark.parametrize(("cloud", "driver", "mode", "where"), DELIVERY)
def test_delivery(cloud: Cloud, driver: str, mode: str, where: str) -> None:
    assert sharing_plan.delivery(cloud_profile(cloud), driver, mode) == where


def test_delivery_table_covers_every_combination() -> None:
    assert len({(c, d, m) for c, d, m, _ in DELIVERY}) == 3 * 2 * 4


@pytest.mark.parametrize(
    ("sharing", "name"),
    [
        (GpuSharing(mode="time-slicing", replicas=4), "time-slicing-x4"),
        (GpuSharing(mode="mps", replicas=2), "mps-x2"),
        (GpuSharing(mode="time-slicing", replicas=10, rename_by_default=True), "time-slicing-x10-renamed"),
        (GpuSharing(mode="time-slicing", replicas=4, fail_requests_greater_than_one=True), "time-slicing-x4-strict"),
        (GpuSharing(mode="mps", replicas=4, fail_requests_greater_than_one=False), "mps-x4-lenient"),
        (
            GpuSharing(mode="mps", replicas=3, rename_by_default=True, fail_requests_greater_than_one=True),
            "mps-x3-renamed-strict",
        ),
        (
            GpuSharing(mode="time-slicing", replicas=8, rename_by_default=True, fail_requests_greater_than_one=False),
            "time-slicing-x8-renamed-lenient",
        ),
    ],
)
def test_device_plugin_config_name(sharing: GpuSharing, name: str) -> None:
    assert sharing_plan.device_plugin_config_name(sharing) == name


def test_different_sharing_settings_get_different_config_names() -> None:
    variants = [
        GpuSharing(mode=mode, replicas=replicas, rename_by_default=rename, fail_requests_greater_than_one=fail)
        for mode in ("time-slicing", "mps")
        for replicas in (2, 4)
        for rename in (False, True)
        for fail in (None, False, True)
    ]
    assert len({sharing_plan.device_plugin_config_name(v) for v in variants}) == len(variants)


@pytest.mark.parametrize(
    ("table", "mig", "layout"),
    [
        (A100_40GB, MigPartitioning(profile="1g.5gb"), {"1g.5gb": 7}),
        (A100_40GB, MigPartitioning(profile="7g.40gb"), {"7g.40gb": 1}),
        (A100_80GB_H100_80GB, MigPartitioning(profile="1g.10gb+me"), {"1g.10gb+me": 1}),
        (A100_80GB_H100_80GB, MigPartitioning(layout="all-balanced"), {"1g.10gb": 2, "2g.20gb": 1, "3g.40gb": 1}),
        (A100_40GB, MigPartitioning(layout="all-balanced"), {"1g.5gb": 2, "2g.10gb": 1, "3g.20gb": 1}),
        (A100_80GB_H100_80GB, MigPartitioning(layout="all-1g.20gb"), {"1g.20gb": 4}),
        (A100_80GB_H100_80GB, MigPartitioning(layout="all-1g.10gb.me"), {"1g.10gb+me": 1}),
        (H200_141GB, MigPartitioning(layout="all-3g.71gb"), {"3g.71gb": 2}),
        (A100_80GB_H100_80GB, MigPartitioning(layout={"4g.40gb": 1, "3g.40gb": 1}), {"4g.40gb": 1, "3g.40gb": 1}),
    ],
)
def test_mig_layout(table: MigTable, mig: MigPartitioning, layout: dict[str, int]) -> None:
    assert sharing_plan.mig_layout(table, mig) == layout


def test_mig_layout_of_unknown_name_raises() -> None:
    with pytest.raises(ValueError, match=re.escape("'all-1g.5gb' is not a layout of A100-80GB")):
        sharing_plan.mig_layout(A100_80GB_H100_80GB, MigPartitioning(layout="all-1g.5gb"))


def test_named_layouts_are_all_balanced_then_one_per_profile() -> None:
    assert sharing_plan.named_layouts(A100_40GB) == [
        "all-balanced",
        "all-1g.5gb",
        "all-1g.5gb.me",
        "all-1g.10gb",
        "all-2g.10gb",
        "all-3g.20gb",
        "all-4g.20gb",
        "all-7g.40gb",
    ]


@pytest.mark.parametrize(
    ("pool", "mig", "label"),
    [
        ("train", MigPartitioning(profile="1g.10gb"), "all-1g.10gb"),
        ("train", MigPartitioning(profile="1g.10gb+me"), "all-1g.10gb.me"),
        ("train", MigPartitioning(layout="all-balanced", strategy="mixed"), "all-balanced"),
        ("train", MigPartitioning(layout="all-3g.40gb"), "all-3g.40gb"),
        ("train", MigPartitioning(layout={"4g.40gb": 1, "3g.40gb": 1}, strategy="mixed"), "gpuready-train"),
        ("h100-mig", MigPartitioning(layout={"2g.20gb": 3}), "gpuready-h100-mig"),
    ],
)
def test_mig_config_label(pool: str, mig: MigPartitioning, label: str) -> None:
    assert sharing_plan.mig_config_label(pool, A100_80GB_H100_80GB, mig) == label


AKS_PROFILES = [
    (A100_40GB, "1g.5gb", "MIG1g"),
    (A100_40GB, "1g.10gb", None),
    (A100_40GB, "1g.5gb+me", None),
    (A100_40GB, "2g.10gb", "MIG2g"),
    (A100_40GB, "3g.20gb", "MIG3g"),
    (A100_40GB, "4g.20gb", "MIG4g"),
    (A100_40GB, "7g.40gb", "MIG7g"),
    (A100_80GB_H100_80GB, "1g.10gb", "MIG1g"),
    (A100_80GB_H100_80GB, "1g.20gb", None),
    (A100_80GB_H100_80GB, "1g.10gb+me", None),
    (A100_80GB_H100_80GB, "2g.20gb", "MIG2g"),
    (A100_80GB_H100_80GB, "3g.40gb", "MIG3g"),
    (A100_80GB_H100_80GB, "4g.40gb", "MIG4g"),
    (A100_80GB_H100_80GB, "7g.80gb", "MIG7g"),
    (H100_NVL_94GB, "1g.12gb", "MIG1g"),
    (H100_NVL_94GB, "1g.24gb", None),
    (H100_NVL_94GB, "7g.94gb", "MIG7g"),
    (H200_141GB, "1g.18gb", "MIG1g"),
    (H200_141GB, "1g.35gb", None),
    (H200_141GB, "3g.71gb", "MIG3g"),
]


@pytest.mark.parametrize(("table", "profile", "instance_profile"), AKS_PROFILES)
def test_aks_gpu_instance_profile(table: MigTable, profile: str, instance_profile: str | None) -> None:
    assert aks_mig.gpu_instance_profile(table, profile) == instance_profile


@pytest.mark.parametrize(
    ("table", "choices"),
    [
        (A100_40GB, ["1g.5gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"]),
        (A100_80GB_H100_80GB, ["1g.10gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"]),
        (H100_NVL_94GB, ["1g.12gb", "2g.24gb", "3g.47gb", "4g.47gb", "7g.94gb"]),
        (H200_141GB, ["1g.18gb", "2g.35gb", "3g.71gb", "4g.71gb", "7g.141gb"]),
        (B200_180GB, ["1g.23gb", "2g.45gb", "3g.90gb", "4g.90gb", "7g.180gb"]),
        (H100_96GB_GH200, ["1g.12gb", "2g.24gb", "3g.48gb", "4g.48gb", "7g.96gb"]),
    ],
)
def test_aks_mig_choices_are_one_profile_per_compute_size(table: MigTable, choices: list[str]) -> None:
    assert aks_mig.mig_choices(table) == choices


def test_aks_mig_profiles_are_the_azure_native_enum() -> None:
    assert aks_mig.MIG_PROFILES == ("MIG1g", "MIG2g", "MIG3g", "MIG4g", "MIG7g")


@pytest.mark.parametrize(
    ("layout", "homogeneous"),
    [
        ({"1g.10gb": 7}, True),
        ({"3g.40gb": 2}, True),
        ({"1g.10gb": 2, "2g.20gb": 1, "3g.40gb": 1}, False),
        ({"4g.40gb": 1, "3g.40gb": 1}, False),
    ],
)
def test_homogeneous(layout: dict[str, int], homogeneous: bool) -> None:
    assert sharing_plan.homogeneous(layout) is homogeneous


def test_no_cloud_shares_a_gpu_among_more_clients_than_gpureadys_bound() -> None:
    limits = {p.name: p.max_shared_clients for p in cloud_profiles() if p.max_shared_clients is not None}
    assert limits and all(limit <= sharing_rules.MAX_REPLICAS for limit in limits.values()), limits
