"""Per-cloud instance type tables: every entry is consistent with the GPU catalog and its cloud."""

from __future__ import annotations

import pytest

from gpuready.core.catalog.gpus import GPU_MODELS
from gpuready.core.catalog.instance_types import InstanceType, family_table
from gpuready.core.clouds.registry import Cloud, cloud_names, cloud_profile
from gpuready.gke.catalog import ACCELERATORS, GKE_ATTACHABLE

ALL_TYPES = [t for cloud in cloud_names() for t in cloud_profile(cloud).instance_types.values()]
TYPE_IDS = [f"{t.cloud}:{t.name}" for t in ALL_TYPES]


@pytest.mark.parametrize("entry", ALL_TYPES, ids=TYPE_IDS)
def test_instance_type_points_at_a_known_model(entry: InstanceType) -> None:
    assert entry.gpu in GPU_MODELS


@pytest.mark.parametrize("entry", ALL_TYPES, ids=TYPE_IDS)
def test_instance_type_entry_is_self_consistent(entry: InstanceType) -> None:
    assert cloud_profile(entry.cloud).instance_types[entry.name] is entry
    assert entry.gpus >= 1
    assert entry.arch in ("x86_64", "arm64")
    assert entry.source


@pytest.mark.parametrize(
    "entry", cloud_profile("gke").instance_types.values(), ids=list(cloud_profile("gke").instance_types)
)
def test_gke_machine_type_uses_a_model_gke_offers(entry: InstanceType) -> None:
    assert entry.gpu in ACCELERATORS


@pytest.mark.parametrize("model", sorted(GKE_ATTACHABLE.counts))
def test_gke_attachable_gpu_is_a_model_gke_offers(model: str) -> None:
    assert model in ACCELERATORS
    assert GKE_ATTACHABLE.counts[model]


def test_gke_attachable_counts_are_n1_t4_and_v100() -> None:
    assert GKE_ATTACHABLE.machine_prefix == "n1-"
    assert dict(GKE_ATTACHABLE.counts) == {"t4": (1, 2, 4), "v100": (1, 2, 4, 8)}


def test_no_listed_gke_type_is_an_attachable_n1_machine() -> None:
    assert not [name for name in cloud_profile("gke").instance_types if name.startswith(GKE_ATTACHABLE.machine_prefix)]


def test_aks_sizes_are_unique_ignoring_case() -> None:
    names = [name.lower() for name in cloud_profile("aks").instance_types]
    assert len(names) == len(set(names))


@pytest.mark.parametrize(
    ("cloud", "arm64"),
    [
        ("eks", {"g5g.xlarge", "g5g.2xlarge", "g5g.4xlarge", "g5g.8xlarge", "g5g.16xlarge", "g5g.metal"}),
        ("aks", set()),
        ("gke", set()),
    ],
)
def test_only_graviton_types_are_arm64(cloud: Cloud, arm64: set[str]) -> None:
    assert {name for name, t in cloud_profile(cloud).instance_types.items() if t.arch == "arm64"} == arm64


def test_family_table_expands_sizes_into_entries() -> None:
    table = family_table("eks", "l4", "x86_64", "src", {"g6.xlarge": 1, "g6.12xlarge": 4})
    assert table == {
        "g6.xlarge": InstanceType("eks", "g6.xlarge", "l4", 1, "x86_64", "src"),
        "g6.12xlarge": InstanceType("eks", "g6.12xlarge", "l4", 4, "x86_64", "src"),
    }
