"""GPU model catalog: invariants, MIG capability, GKE accelerator names, GFD product matching."""

from __future__ import annotations

import re

import pytest

from gpuready.core.catalog import mig_profiles
from gpuready.core.catalog.gpus import GPU_MODELS
from gpuready.gke.catalog import ACCELERATORS
from gpuready.gke.catalog import gpu_for_accelerator as gpu_model_for_gke_accelerator
from gpuready.gke.node_labels import NODE_LABELS

MIG_CAPABLE = {
    "a100", "a100-80gb", "a30", "h100", "h100-mega", "h100-nvl", "h200", "h200-nvl", "b200", "b300", "gb200", "gh200",
    "rtxpro6000",
}  # fmt: skip
ARCHITECTURES = {"volta", "turing", "ampere", "ada-lovelace", "hopper", "blackwell"}


@pytest.mark.parametrize("key", sorted(GPU_MODELS))
def test_canonical_key_is_lowercase_dns_label(key: str) -> None:
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", key)
    assert GPU_MODELS[key].key == key


@pytest.mark.parametrize("key", sorted(GPU_MODELS))
def test_skypilot_value_is_lowercase(key: str) -> None:
    skypilot = GPU_MODELS[key].skypilot
    assert skypilot
    assert skypilot == skypilot.lower()


@pytest.mark.parametrize("key", sorted(GPU_MODELS))
def test_model_facts_are_filled_in(key: str) -> None:
    model = GPU_MODELS[key]
    assert model.memory_mib > 0
    assert model.architecture in ARCHITECTURES
    assert model.display
    assert model.source
    re.compile(model.product_pattern)


def test_mig_capable_models_are_exactly_the_ampere_hopper_blackwell_datacenter_parts() -> None:
    assert {key for key, model in GPU_MODELS.items() if model.mig_capable} == MIG_CAPABLE


@pytest.mark.parametrize("key", sorted(MIG_CAPABLE))
def test_mig_capable_model_uses_a_known_mig_table(key: str) -> None:
    table = GPU_MODELS[key].mig
    assert table is not None
    assert table in mig_profiles.MIG_TABLES.values()


@pytest.mark.parametrize(
    ("key", "family"),
    [
        ("a100", "A100-40GB/A800-40GB"),
        ("a100-80gb", "A100-80GB/A800-80GB/H100-80GB/H800-80GB"),
        ("h100", "A100-80GB/A800-80GB/H100-80GB/H800-80GB"),
        ("h100-mega", "A100-80GB/A800-80GB/H100-80GB/H800-80GB"),
        ("h100-nvl", "H100-NVL/H800-NVL (94GB)"),
        ("h200", "H200-141GB"),
        ("b200", "B200"),
        ("gh200", "H100-96GB/GH200-96GB/PG506-96GB/H20"),
        ("h200-nvl", "H200-NVL"),
        ("a30", "A30-24GB"),
        ("b300", "B300"),
        ("gb200", "GB200"),
        ("rtxpro6000", "RTX-PRO-6000-Blackwell"),
    ],
)
def test_mig_table_matches_the_gpu_memory_size(key: str, family: str) -> None:
    table = GPU_MODELS[key].mig
    assert table is not None
    assert table.family == family


@pytest.mark.parametrize(
    ("key", "memory_mib"),
    [
        ("t4", 16384),
        ("a10g", 22888),
        ("l4", 22888),
        ("l40s", 45776),
        ("a100", 40960),
        ("a100-80gb", 81920),
        ("h100", 81920),
        ("h200", 144384),
        ("b200", 183359),
    ],
)
def test_memory_is_what_ec2_reports(key: str, memory_mib: int) -> None:
    assert GPU_MODELS[key].memory_mib == memory_mib


@pytest.mark.parametrize(
    ("accelerator", "key"),
    [
        ("nvidia-tesla-t4", "t4"),
        ("nvidia-l4", "l4"),
        ("nvidia-tesla-v100", "v100"),
        ("nvidia-tesla-a100", "a100"),
        ("nvidia-a100-80gb", "a100-80gb"),
        ("nvidia-h100-80gb", "h100"),
        ("nvidia-h100-mega-80gb", "h100-mega"),
        ("nvidia-h200-141gb", "h200"),
        ("nvidia-b200", "b200"),
    ],
)
def test_gke_accelerator_maps_back_to_its_model(accelerator: str, key: str) -> None:
    model = gpu_model_for_gke_accelerator(accelerator)
    assert model is not None
    assert model.key == key
    assert ACCELERATORS[model.key] == accelerator
    assert NODE_LABELS.accelerator_model(accelerator) is model
    assert NODE_LABELS.accelerator_value(model) == accelerator


@pytest.mark.parametrize("accelerator", ["nvidia-tesla-p100", "nvidia-a10g", "", "NVIDIA-L4"])
def test_unknown_gke_accelerator_maps_to_none(accelerator: str) -> None:
    assert gpu_model_for_gke_accelerator(accelerator) is None
    assert NODE_LABELS.accelerator_model(accelerator) is None


@pytest.mark.parametrize("key", ["t4g", "a10g", "a10", "l40s", "v100-32gb", "h100-nvl", "gh200"])
def test_gpus_gke_does_not_sell_have_no_gke_accelerator(key: str) -> None:
    assert key in GPU_MODELS and key not in ACCELERATORS
    assert NODE_LABELS.accelerator_value(GPU_MODELS[key]) is None


def test_gke_accelerator_names_are_unique() -> None:
    names = list(ACCELERATORS.values())
    assert len(names) == len(set(names))


def test_only_the_nvl_parts_share_a_skypilot_name() -> None:
    by_skypilot: dict[str, list[str]] = {}
    for model in GPU_MODELS.values():
        by_skypilot.setdefault(model.skypilot, []).append(model.key)
    shared = {name: sorted(keys) for name, keys in by_skypilot.items() if len(keys) > 1}
    assert shared == {"h100": ["h100", "h100-nvl"], "h200": ["h200", "h200-nvl"]}


# GPU Feature Discovery ``nvidia.com/gpu.product`` values as nodes carry them, and every catalog model that claims
# each one. H100 SXM nodes on A3 High and A3 Mega report the same product, so both h100 keys match it.
PRODUCTS = [
    ("Tesla-T4", {"t4"}),
    ("Tesla-T4-SHARED", {"t4"}),
    ("NVIDIA-T4G", {"t4g"}),
    ("NVIDIA-A10G", {"a10g"}),
    ("NVIDIA-A10", {"a10"}),
    ("NVIDIA-L4", {"l4"}),
    ("NVIDIA-L4-SHARED", {"l4"}),
    ("NVIDIA-L40S", {"l40s"}),
    ("Tesla-V100-SXM2-16GB", {"v100"}),
    ("Tesla-V100-SXM2-32GB", {"v100-32gb"}),
    ("NVIDIA-A100-SXM4-40GB", {"a100"}),
    ("NVIDIA-A100-PCIE-40GB", {"a100"}),
    ("NVIDIA-A100-SXM4-40GB-MIG-1g.5gb", {"a100"}),
    ("NVIDIA-A100-SXM4-80GB", {"a100-80gb"}),
    ("NVIDIA-A100-80GB-PCIe", {"a100-80gb"}),
    ("NVIDIA-A100-SXM4-80GB-MIG-1g.10gb", {"a100-80gb"}),
    ("NVIDIA-H100-80GB-HBM3", {"h100", "h100-mega"}),
    ("NVIDIA-H100-80GB-HBM3-MIG-1g.10gb", {"h100", "h100-mega"}),
    ("NVIDIA-H200", {"h200"}),
    ("NVIDIA-H200-NVL", {"h200-nvl"}),
    ("NVIDIA-H200-NVL-MIG-1g.18gb", {"h200-nvl"}),
    ("NVIDIA-A30", {"a30"}),
    ("NVIDIA-B300-SXM6-AC", {"b300"}),
    ("NVIDIA-GB200", {"gb200"}),
    ("NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition", {"rtxpro6000"}),
    ("NVIDIA RTX PRO Server 6000", {"rtxpro6000"}),
    ("NVIDIA-RTX-PRO-4500-Blackwell-Server-Edition", {"rtxpro4500"}),
    ("NVIDIA-RTX-6000-Ada-Generation", set()),
    ("NVIDIA-GH200-480GB", {"gh200"}),
    ("NVIDIA-B200", {"b200"}),
    ("nvidia-l40s", {"l40s"}),
]


@pytest.mark.parametrize(("product", "keys"), PRODUCTS)
def test_gfd_product_matches_its_models_only(product: str, keys: set[str]) -> None:
    assert {key for key, model in GPU_MODELS.items() if model.matches_product(product)} == keys


@pytest.mark.parametrize(
    ("product", "key", "matches"),
    [
        ("NVIDIA-A100-SXM4-80GB", "a100-80gb", True),
        ("NVIDIA-A100-SXM4-80GB", "a100", False),
        ("NVIDIA-A100-SXM4-40GB", "a100", True),
        ("NVIDIA-A100-SXM4-40GB", "a100-80gb", False),
        ("Tesla-T4", "t4", True),
        ("Tesla-T4", "t4g", False),
        ("NVIDIA-L40S", "l40s", True),
        ("NVIDIA-L40S", "l4", False),
        ("NVIDIA-L4", "l40s", False),
        ("NVIDIA-H100-80GB-HBM3", "h100", True),
        ("NVIDIA-H100-80GB-HBM3", "h100-nvl", False),
        ("NVIDIA-H100-NVL", "h100-nvl", True),
        ("NVIDIA-H100-NVL", "h100", False),
        ("NVIDIA-A100-SXM4-40GB-MIG-1g.5gb", "a100", True),
        ("NVIDIA-A100-SXM4-40GB-MIG-1g.5gb", "a100-80gb", False),
        ("NVIDIA-A10G", "a10", False),
        ("NVIDIA-A100-SXM4-40GB", "a10", False),
        ("NVIDIA-GH200-480GB", "h200", False),
    ],
)
def test_gfd_product_matching(product: str, key: str, matches: bool) -> None:
    assert GPU_MODELS[key].matches_product(product) is matches


def test_h100_nvl_product_is_claimed_by_h100_nvl_alone() -> None:
    assert {key for key, model in GPU_MODELS.items() if model.matches_product("NVIDIA-H100-NVL")} == {"h100-nvl"}
