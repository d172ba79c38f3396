"""The mig-parted config gpuready gives the GPU Operator's MIG manager, checked against mig-parted's own table.

Format (mig-parted v0.15.0, nvidia.md section 5): ``version: v1``, ``mig-configs`` mapping a config name (the
value of a node's ``nvidia.com/mig.config`` label) to a list of entries with ``devices``, ``device-filter`` (PCI
ids), ``mig-enabled`` and ``mig-devices``. The upstream default table is
``../shared/reference/upstream/mig-parted/config-default.v0.15.0.yaml``.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
import yaml

from gpuready.core import sharing_plan
from gpuready.core.gpu_stack import mig_manager_config
from gpuready.core.scheduling import LABEL_MIG_CONFIG, pool_labels
from gpuready.core.specs import GpuPoolSpec, MigPartitioning, MigStrategy
from tests.upstream import upstream_text

A100_40GB_PCI = ["0x20B010DE", "0x20B110DE", "0x20F110DE", "0x20F610DE"]


def _pool(
    mig: MigPartitioning | None,
    *,
    cloud: str = "eks",
    instance_type: str = "p4d.24xlarge",
    name: str = "a100",
    driver: str = "cloud",
) -> GpuPoolSpec:
    return GpuPoolSpec(
        cloud=cloud,
        name=name,
        instance_type=instance_type,
        min_size=0,
        max_size=1,
        driver=driver,  # type: ignore[arg-type]
        image="ubuntu" if cloud == "gke" and driver == "operator" else None,
        sharing=mig,
    )


def _configs(pools: list[GpuPoolSpec]) -> dict[str, list[dict[str, Any]]]:
    document = yaml.safe_load(mig_manager_config.mig_parted_config(pools))
    assert set(document) == {"version", "mig-configs"}
    assert document["version"] == "v1"
    configs: dict[str, list[dict[str, Any]]] = document["mig-configs"]
    return configs


EKS_CUSTOM = _pool(MigPartitioning(layout={"3g.20gb": 1, "4g.20gb": 1}, strategy="mixed"), name="custom")
EKS_BALANCED = _pool(MigPartitioning(layout="all-balanced", strategy="mixed"), name="balanced")
EKS_PROFILE = _pool(MigPartitioning(profile="1g.10gb"), name="profile")
AKS_CLOUD_MIG = _pool(
    MigPartitioning(profile="1g.10gb", strategy="mixed"), cloud="aks", instance_type="Standard_NC24ads_A100_v4",
    name="akscloud",
)  # fmt: skip
AKS_OPERATOR_MIG = _pool(
    MigPartitioning(layout={"3g.40gb": 1, "4g.40gb": 1}, strategy="mixed"), cloud="aks",
    instance_type="Standard_NC24ads_A100_v4", name="aksop", driver="operator",
)  # fmt: skip
GKE_CLOUD_MIG = _pool(MigPartitioning(profile="1g.5gb"), cloud="gke", instance_type="a2-highgpu-1g", name="gkecloud")
GKE_OPERATOR_MIG = _pool(
    MigPartitioning(profile="2g.10gb"), cloud="gke", instance_type="a2-highgpu-1g", name="gkeop", driver="operator"
)


@pytest.mark.parametrize(
    ("pool", "by_mig_manager"),
    [
        (EKS_CUSTOM, True),
        (EKS_PROFILE, True),
        (AKS_CLOUD_MIG, False),  # AKS partitions it (gpuInstanceProfile)
        (AKS_OPERATOR_MIG, True),
        (GKE_CLOUD_MIG, False),  # GKE partitions it
        (GKE_OPERATOR_MIG, True),
        (_pool(None), False),
    ],
    ids=lambda v: v.name if isinstance(v, GpuPoolSpec) else str(v),
)
def test_mig_manager_pools(pool: GpuPoolSpec, by_mig_manager: bool) -> None:
    assert mig_manager_config.mig_manager_pools([pool]) == ([pool] if by_mig_manager else [])
    assert (LABEL_MIG_CONFIG in pool_labels(pool)) is by_mig_manager


@pytest.mark.parametrize(
    ("pools", "custom"),
    [
        ([EKS_PROFILE], False),
        ([EKS_BALANCED], False),
        ([_pool(MigPartitioning(layout="all-1g.10gb"))], False),
        ([EKS_CUSTOM], True),
        ([AKS_OPERATOR_MIG], True),
        ([EKS_PROFILE, EKS_BALANCED, EKS_CUSTOM], True),
        ([AKS_CLOUD_MIG, GKE_CLOUD_MIG], False),
        ([_pool(None)], False),
    ],
)
def test_needs_custom_config_only_for_dict_layouts(pools: list[GpuPoolSpec], custom: bool) -> None:
    assert mig_manager_config.needs_custom_config(pools) is custom


def test_config_holds_all_disabled_and_every_mig_manager_pool() -> None:
    pools = [EKS_CUSTOM, EKS_BALANCED, EKS_PROFILE, _pool(None, name="plain")]
    configs = _configs(pools)
    assert configs["all-disabled"] == [{"devices": "all", "mig-enabled": False}]
    assert set(configs) == {"all-disabled", "gpuready-custom", "all-balanced", "all-1g.10gb"}
    assert set(configs) == {"all-disabled", *(pool_labels(p)[LABEL_MIG_CONFIG] for p in pools[:3])}
    assert configs["gpuready-custom"] == [
        {
            "device-filter": A100_40GB_PCI,
            "devices": "all",
            "mig-enabled": True,
            "mig-devices": {"3g.20gb": 1, "4g.20gb": 1},
        }
    ]
    assert configs["all-balanced"][0]["mig-devices"] == {"1g.5gb": 2, "2g.10gb": 1, "3g.20gb": 1}
    assert configs["all-1g.10gb"][0]["mig-devices"] == {"1g.10gb": 4}  # A100 40 GB fits four 1g.10gb


def test_config_of_each_entry_is_the_pools_gpu_and_layout() -> None:
    pools = [EKS_CUSTOM, EKS_BALANCED, EKS_PROFILE, AKS_OPERATOR_MIG, GKE_OPERATOR_MIG]
    for pool in pools:
        configs = _configs([pool])
        table = pool.resolved.gpu.model.mig
        assert table is not None
        assert isinstance(pool.sharing, MigPartitioning)
        (entry,) = configs[pool_labels(pool)[LABEL_MIG_CONFIG]]
        assert entry == {
            "device-filter": list(table.pci_device_ids),
            "devices": "all",
            "mig-enabled": True,
            "mig-devices": sharing_plan.mig_layout(table, pool.sharing),
        }


def test_pools_the_cloud_partitions_are_left_out() -> None:
    configs = _configs([EKS_CUSTOM, AKS_CLOUD_MIG, GKE_CLOUD_MIG])
    assert set(configs) == {"all-disabled", "gpuready-custom"}


def test_one_name_on_several_gpus_gets_one_entry_per_gpu() -> None:
    h100 = _pool(MigPartitioning(layout="all-balanced", strategy="mixed"), instance_type="p5.48xlarge", name="h100")
    twin = _pool(MigPartitioning(layout="all-balanced", strategy="mixed"), name="balanced2")
    configs = _configs([EKS_BALANCED, h100, twin])
    assert [e["device-filter"] for e in configs["all-balanced"]] == [
        A100_40GB_PCI,
        ["0x20B210DE", "0x20B510DE", "0x20F310DE", "0x20F510DE", "0x233010DE", "0x233110DE", "0x232210DE",
         "0x232410DE"],
    ]  # fmt: skip
    assert [e["mig-devices"] for e in configs["all-balanced"]] == [
        {"1g.5gb": 2, "2g.10gb": 1, "3g.20gb": 1},
        {"1g.10gb": 2, "2g.20gb": 1, "3g.40gb": 1},
    ]


# --- cross-check against mig-parted's default table ------------------------------------------------------------------

MIG_GPUS: list[tuple[str, str, str, str]] = [
    # (cloud, instance type, driver, mig-parted family)
    ("eks", "p4d.24xlarge", "cloud", "A100-40GB/A800-40GB"),
    ("eks", "p5.48xlarge", "cloud", "A100-80GB/A800-80GB/H100-80GB/H800-80GB"),
    ("aks", "Standard_NC24ads_A100_v4", "operator", "A100-80GB/A800-80GB/H100-80GB/H800-80GB"),
    ("aks", "Standard_NC40ads_H100_v5", "operator", "H100-NVL/H800-NVL (94GB)"),
    ("eks", "p5e.48xlarge", "cloud", "H200-141GB"),
    ("eks", "p6-b200.48xlarge", "cloud", "B200"),
    ("gke", "a2-highgpu-1g", "operator", "A100-40GB/A800-40GB"),
]


@functools.cache
def _upstream_table() -> dict[str, list[dict[str, Any]]]:
    table: dict[str, list[dict[str, Any]]] = yaml.safe_load(upstream_text("mig-parted/config-default.v0.15.0.yaml"))[
        "mig-configs"
    ]
    return table


def _upstream_devices(layout: str, pci_id: str) -> list[dict[str, int]]:
    """``mig-devices`` of the entries of ``layout`` in mig-parted's table that apply to a GPU with ``pci_id``."""
    found = []
    for entry in _upstream_table().get(layout, []):
        wanted = entry.get("device-filter")
        filters = [wanted] if isinstance(wanted, str) else wanted
        if filters is None or pci_id in filters:
            found.append(dict(entry["mig-devices"]))
    return found


CROSS_CHECK = [
    (cloud, instance_type, driver, family, layout)
    for cloud, instance_type, driver, family in MIG_GPUS
    for layout in ("all-1g.10gb", "all-balanced")
    if layout == "all-balanced" or family.startswith(("A100-40GB", "A100-80GB"))
]


@pytest.mark.parametrize(("cloud", "instance_type", "driver", "family", "layout"), CROSS_CHECK)
def test_named_layouts_equal_mig_parteds_for_every_pci_id(
    cloud: str, instance_type: str, driver: str, family: str, layout: str
) -> None:
    pool = _pool(MigPartitioning(layout=layout, strategy="mixed"), cloud=cloud, instance_type=instance_type,
                 driver=driver)  # fmt: skip
    table = pool.resolved.gpu.model.mig
    assert table is not None
    assert table.family == family
    (entry,) = _configs([pool])[layout]
    assert entry["device-filter"] == list(table.pci_device_ids)
    for pci_id in table.pci_device_ids:
        assert _upstream_devices(layout, pci_id) == [entry["mig-devices"]], pci_id


@pytest.mark.parametrize(("cloud", "instance_type", "driver", "family"), MIG_GPUS)
def test_every_named_layout_of_a_gpu_equals_mig_parteds(
    cloud: str, instance_type: str, driver: str, family: str
) -> None:
    table = _pool(None, cloud=cloud, instance_type=instance_type, driver=driver).resolved.gpu.model.mig
    assert table is not None
    assert table.family == family
    for layout in sharing_plan.named_layouts(table):
        strategy: MigStrategy = "mixed" if layout == "all-balanced" else "single"
        pool = _pool(MigPartitioning(layout=layout, strategy=strategy), cloud=cloud, instance_type=instance_type,
                     driver=driver)  # fmt: skip
        (entry,) = _configs([pool])[layout]
        for pci_id in table.pci_device_ids:
            assert _upstream_devices(layout, pci_id) == [entry["mig-devices"]], (layout, pci_id)


def test_cross_check_reads_the_vendored_table() -> None:
    assert _upstream_devices("all-1g.10gb", "0x20B010DE") == [{"1g.10gb": 4}]
    assert _upstream_devices("all-1g.10gb", "0x233010DE") == [{"1g.10gb": 7}]
    assert _upstream_devices("all-balanced", "0x20B010DE") == [{"1g.5gb": 2, "2g.10gb": 1, "3g.20gb": 1}]
    assert len(CROSS_CHECK) == 11  # all-balanced on 7 GPUs, all-1g.10gb on the 4 A100/H100 ones
