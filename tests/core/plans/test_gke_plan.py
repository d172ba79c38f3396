"""GpuPoolSpec -> gcp.container.NodePool arguments (pure plan, no Pulumi)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gpuready.core.catalog.lookup import ExplicitGpu
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning, UpgradePolicy
from gpuready.core.taints import Taint
from gpuready.gke import plan

SpecFactory = Callable[..., GpuPoolSpec]


@pytest.mark.parametrize(
    ("overrides", "version"),
    [
        ({}, "DEFAULT"),
        ({"driver_version": "default"}, "DEFAULT"),
        ({"driver_version": "latest"}, "LATEST"),
        ({"image": "ubuntu"}, "DEFAULT"),
        ({"driver": "operator", "image": "ubuntu"}, "INSTALLATION_DISABLED"),
    ],
)
def test_driver_version(make_spec: SpecFactory, overrides: dict[str, Any], version: str) -> None:
    spec = make_spec("gke", **overrides)
    assert plan.driver_version(spec) == version
    assert plan.guest_accelerator(spec)["gpu_driver_installation_config"] == {"gpu_driver_version": version}


@pytest.mark.parametrize(
    ("overrides", "accelerator"),
    [
        ({"instance_type": "g2-standard-48"}, {"type": "nvidia-l4", "count": 4}),
        ({"instance_type": "a2-highgpu-2g"}, {"type": "nvidia-tesla-a100", "count": 2}),
        ({"instance_type": "a2-ultragpu-8g"}, {"type": "nvidia-a100-80gb", "count": 8}),
        ({"instance_type": "a3-highgpu-8g"}, {"type": "nvidia-h100-80gb", "count": 8}),
        ({"instance_type": "a3-megagpu-8g"}, {"type": "nvidia-h100-mega-80gb", "count": 8}),
        ({"instance_type": "a3-ultragpu-8g"}, {"type": "nvidia-h200-141gb", "count": 8}),
        ({"instance_type": "a4-highgpu-8g"}, {"type": "nvidia-b200", "count": 8}),
        ({"instance_type": "n1-standard-8", "gpu": ExplicitGpu("t4", 2)}, {"type": "nvidia-tesla-t4", "count": 2}),
        ({"instance_type": "n1-standard-8", "gpu": ExplicitGpu("v100", 8)}, {"type": "nvidia-tesla-v100", "count": 8}),
    ],
)
def test_guest_accelerator_type_and_count(
    make_spec: SpecFactory, overrides: dict[str, Any], accelerator: dict[str, Any]
) -> None:
    assert plan.guest_accelerator(make_spec("gke", **overrides)) == {
        **accelerator,
        "gpu_driver_installation_config": {"gpu_driver_version": "DEFAULT"},
    }


@pytest.mark.parametrize(
    ("overrides", "sharing_keys"),
    [
        (
            {"sharing": GpuSharing(mode="time-slicing", replicas=4)},
            {"gpu_sharing_config": {"gpu_sharing_strategy": "TIME_SHARING", "max_shared_clients_per_gpu": 4}},
        ),
        (
            {"sharing": GpuSharing(mode="mps", replicas=48)},
            {"gpu_sharing_config": {"gpu_sharing_strategy": "MPS", "max_shared_clients_per_gpu": 48}},
        ),
        (
            {"instance_type": "a2-highgpu-1g", "sharing": MigPartitioning(profile="1g.5gb")},
            {"gpu_partition_size": "1g.5gb"},
        ),
        (
            {"instance_type": "a3-highgpu-8g", "sharing": MigPartitioning(profile="3g.40gb")},
            {"gpu_partition_size": "3g.40gb"},
        ),
        ({"driver": "operator", "image": "ubuntu", "sharing": GpuSharing(mode="time-slicing", replicas=4)}, {}),
        (
            {
                "instance_type": "a2-highgpu-1g",
                "driver": "operator",
                "image": "ubuntu",
                "sharing": MigPartitioning(profile="1g.5gb"),
            },
            {},
        ),
        ({}, {}),
    ],
)
def test_sharing_reaches_the_accelerator_only_when_gke_delivers_it(
    make_spec: SpecFactory, overrides: dict[str, Any], sharing_keys: dict[str, Any]
) -> None:
    accelerator = plan.guest_accelerator(make_spec("gke", **overrides))
    assert {k: v for k, v in accelerator.items() if k in ("gpu_sharing_config", "gpu_partition_size")} == sharing_keys


def test_node_pool_args(make_spec: SpecFactory) -> None:
    spec = make_spec(
        "gke",
        name="l4-pool",
        instance_type="g2-standard-24",
        min_size=1,
        max_size=3,
        taints=[Taint(key="example.com/dedicated", value="ml")],
    )
    assert plan.node_pool_args(spec, 1) == {
        "name": "l4-pool",
        "initial_node_count": 1,
        "autoscaling": {"total_min_node_count": 1, "total_max_node_count": 3, "location_policy": "BALANCED"},
        "management": {"auto_repair": True, "auto_upgrade": True},
        "upgrade_settings": {"strategy": "SURGE", "max_surge": 0, "max_unavailable": 1},
        "node_config": {
            "machine_type": "g2-standard-24",
            "image_type": "COS_CONTAINERD",
            "spot": False,
            "guest_accelerators": [
                {"type": "nvidia-l4", "count": 2, "gpu_driver_installation_config": {"gpu_driver_version": "DEFAULT"}}
            ],
            "labels": {
                "gpuready.io/pool": "l4-pool",
                "gpuready.io/gpu-pool": "true",
                "nvidia.com/gpu.present": "true",
                "gpuready.io/accelerator": "l4",
                "skypilot.co/accelerator": "l4",
                "gpuready.io/sharing": "none",
            },
            "taints": [
                {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"},
                {"key": "example.com/dedicated", "value": "ml", "effect": "NO_SCHEDULE"},
            ],
            "oauth_scopes": ["https://www.googleapis.com/auth/cloud-platform"],
        },
    }


@pytest.mark.parametrize(("capacity", "spot", "policy"), [("spot", True, "ANY"), ("on-demand", False, "BALANCED")])
def test_spot_pool(make_spec: SpecFactory, capacity: str, spot: bool, policy: str) -> None:
    args = plan.node_pool_args(make_spec("gke", capacity=capacity), 1)
    assert args["node_config"]["spot"] is spot
    assert args["autoscaling"]["location_policy"] == policy
    assert len(args["node_config"]["taints"]) == 1


@pytest.mark.parametrize(("image", "image_type"), [("cos", "COS_CONTAINERD"), ("ubuntu", "UBUNTU_CONTAINERD")])
def test_image_type(make_spec: SpecFactory, image: str, image_type: str) -> None:
    assert plan.node_pool_args(make_spec("gke", image=image), 1)["node_config"]["image_type"] == image_type


def test_operator_pool_turns_off_gkes_device_plugin(make_spec: SpecFactory) -> None:
    args = plan.node_pool_args(make_spec("gke", driver="operator", image="ubuntu"), 1)
    assert args["node_config"]["labels"]["gke-no-default-nvidia-gpu-device-plugin"] == "true"
    assert args["node_config"]["guest_accelerators"][0]["gpu_driver_installation_config"] == {
        "gpu_driver_version": "INSTALLATION_DISABLED"
    }


def test_blue_green_upgrade_settings(make_spec: SpecFactory) -> None:
    upgrade = UpgradePolicy(strategy="blue-green", batch_node_count=2, batch_soak_seconds=60, pool_soak_seconds=600)
    assert plan.node_pool_args(make_spec("gke", upgrade=upgrade), 1)["upgrade_settings"] == {
        "strategy": "BLUE_GREEN",
        "blue_green_settings": {
            "standard_rollout_policy": {"batch_node_count": 2, "batch_soak_duration": "60s"},
            "node_pool_soak_duration": "600s",
        },
    }


@pytest.mark.parametrize(("desired", "zones", "per_zone"), [(0, 3, 0), (3, 3, 1), (6, 3, 2), (2, 2, 1), (4, 1, 4)])
def test_initial_node_count_is_desired_size_per_zone(
    make_spec: SpecFactory, desired: int, zones: int, per_zone: int
) -> None:
    spec = make_spec("gke", min_size=0, max_size=6, desired_size=desired)
    assert plan.node_pool_args(spec, zones)["initial_node_count"] == per_zone
