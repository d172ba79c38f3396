"""Extended resources each node of a pool advertises, per sharing mode and MIG strategy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gpuready.core import resources
from gpuready.core.catalog.lookup import ExplicitGpu
from gpuready.core.clouds.registry import Cloud
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning

SpecFactory = Callable[..., GpuPoolSpec]

ALLOCATABLE = [
    # whole GPUs
    pytest.param("eks", {"instance_type": "g6.xlarge"}, {"nvidia.com/gpu": 1}, id="none-1"),
    pytest.param("eks", {"instance_type": "p5.48xlarge"}, {"nvidia.com/gpu": 8}, id="none-8"),
    pytest.param("gke", {"instance_type": "a2-megagpu-16g"}, {"nvidia.com/gpu": 16}, id="none-16"),
    pytest.param(
        "gke", {"instance_type": "n1-standard-8", "gpu": ExplicitGpu("t4", 2)}, {"nvidia.com/gpu": 2}, id="none-n1"
    ),
    # time-slicing and MPS: GPUs x replicas
    pytest.param(
        "eks",
        {"instance_type": "g6.12xlarge", "sharing": GpuSharing(mode="time-slicing", replicas=4)},
        {"nvidia.com/gpu": 16},
        id="time-slicing",
    ),
    pytest.param(
        "aks",
        {"sharing": GpuSharing(mode="time-slicing", replicas=10, rename_by_default=True)},
        {"nvidia.com/gpu.shared": 10},
        id="time-slicing-renamed",
    ),
    pytest.param(
        "eks",
        {"instance_type": "g5.48xlarge", "sharing": GpuSharing(mode="mps", replicas=3)},
        {"nvidia.com/gpu": 24},
        id="mps",
    ),
    pytest.param(
        "eks",
        {"instance_type": "g5.12xlarge", "sharing": GpuSharing(mode="mps", replicas=2, rename_by_default=True)},
        {"nvidia.com/gpu.shared": 8},
        id="mps-renamed",
    ),
    pytest.param(
        "gke",
        {"instance_type": "g2-standard-24", "sharing": GpuSharing(mode="time-slicing", replicas=48)},
        {"nvidia.com/gpu": 96},
        id="gke-time-sharing",
    ),
    # MIG single: every MIG device is an nvidia.com/gpu
    pytest.param(
        "eks",
        {"instance_type": "p4d.24xlarge", "sharing": MigPartitioning(profile="1g.5gb")},
        {"nvidia.com/gpu": 56},
        id="mig-single-profile",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p5.4xlarge", "sharing": MigPartitioning(layout="all-3g.40gb")},
        {"nvidia.com/gpu": 2},
        id="mig-single-named-layout",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p4de.24xlarge", "sharing": MigPartitioning(layout={"2g.20gb": 3})},
        {"nvidia.com/gpu": 24},
        id="mig-single-custom-layout",
    ),
    # MIG mixed: one resource per profile
    pytest.param(
        "eks",
        {"instance_type": "p5.48xlarge", "sharing": MigPartitioning(layout="all-balanced", strategy="mixed")},
        {"nvidia.com/mig-1g.10gb": 16, "nvidia.com/mig-2g.20gb": 8, "nvidia.com/mig-3g.40gb": 8},
        id="mig-mixed-all-balanced",
    ),
    pytest.param(
        "eks",
        {
            "instance_type": "p4de.24xlarge",
            "sharing": MigPartitioning(layout={"4g.40gb": 1, "3g.40gb": 1}, strategy="mixed"),
        },
        {"nvidia.com/mig-3g.40gb": 8, "nvidia.com/mig-4g.40gb": 8},
        id="mig-mixed-custom",
    ),
    pytest.param(
        "eks",
        {
            "instance_type": "p4de.24xlarge",
            "sharing": MigPartitioning(layout={"1g.10gb+me": 1, "1g.10gb": 6}, strategy="mixed"),
        },
        {"nvidia.com/mig-1g.10gb": 48, "nvidia.com/mig-1g.10gb.me": 8},
        id="mig-mixed-media-extension",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p4d.24xlarge", "sharing": MigPartitioning(profile="1g.5gb", strategy="mixed")},
        {"nvidia.com/mig-1g.5gb": 56},
        id="mig-mixed-one-profile",
    ),
    # cloud-native MIG
    pytest.param(
        "gke",
        {"instance_type": "a2-highgpu-1g", "sharing": MigPartitioning(profile="1g.5gb")},
        {"nvidia.com/gpu": 7},
        id="gke-mig",
    ),
    pytest.param(
        "gke",
        {"instance_type": "a3-highgpu-8g", "sharing": MigPartitioning(profile="3g.40gb")},
        {"nvidia.com/gpu": 16},
        id="gke-mig-8-gpus",
    ),
    pytest.param(
        "aks",
        {"instance_type": "Standard_ND96asr_v4", "sharing": MigPartitioning(profile="1g.5gb")},
        {"nvidia.com/gpu": 56},
        id="aks-mig-single",
    ),
    pytest.param(
        "aks",
        {"instance_type": "Standard_NC24ads_A100_v4", "sharing": MigPartitioning(profile="1g.10gb", strategy="mixed")},
        {"nvidia.com/mig-1g.10gb": 7},
        id="aks-mig-mixed",
    ),
]


@pytest.mark.parametrize(("cloud", "overrides", "allocatable"), ALLOCATABLE)
def test_allocatable_per_node(
    make_spec: SpecFactory, cloud: Cloud, overrides: dict[str, Any], allocatable: dict[str, int]
) -> None:
    assert resources.allocatable_per_node(make_spec(cloud, **overrides)) == allocatable


def test_resource_names_put_the_most_plentiful_first(make_spec: SpecFactory) -> None:
    spec = make_spec(
        "eks", instance_type="p5.48xlarge", sharing=MigPartitioning(layout="all-balanced", strategy="mixed")
    )
    assert resources.resource_names(spec) == [
        "nvidia.com/mig-1g.10gb",
        "nvidia.com/mig-2g.20gb",
        "nvidia.com/mig-3g.40gb",
    ]
    assert resources.primary_resource(spec) == "nvidia.com/mig-1g.10gb"


@pytest.mark.parametrize(
    ("overrides", "primary"),
    [
        ({}, "nvidia.com/gpu"),
        ({"sharing": GpuSharing(mode="time-slicing", replicas=2, rename_by_default=True)}, "nvidia.com/gpu.shared"),
        (
            {
                "instance_type": "p4de.24xlarge",
                "sharing": MigPartitioning(layout={"4g.40gb": 1, "3g.40gb": 1}, strategy="mixed"),
            },
            "nvidia.com/mig-3g.40gb",
        ),
    ],
)
def test_primary_resource(make_spec: SpecFactory, overrides: dict[str, Any], primary: str) -> None:
    assert resources.primary_resource(make_spec("eks", **overrides)) == primary
