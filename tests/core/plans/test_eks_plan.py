"""GpuPoolSpec -> aws.eks.NodeGroup arguments (pure plan, no Pulumi)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import botocore.session  # type: ignore[import-untyped]
import pytest

from gpuready.core.catalog.lookup import ExplicitGpu
from gpuready.core.specs import GpuPoolSpec, GpuSharing, UpgradePolicy
from gpuready.core.taints import Taint
from gpuready.eks import plan
from gpuready.eks.repair import node_repair_config as eks_node_repair_config

SpecFactory = Callable[..., GpuPoolSpec]

# botocore eks/2017-11-01 AMITypes (shared reference clouds.md 1.2): the NVIDIA ones gpuready may choose.
EKS_NVIDIA_AMI_TYPES = {
    "AL2023_x86_64_NVIDIA",
    "AL2023_ARM_64_NVIDIA",
    "BOTTLEROCKET_x86_64_NVIDIA",
    "BOTTLEROCKET_ARM_64_NVIDIA",
}


@pytest.mark.parametrize(
    ("overrides", "ami_type"),
    [
        ({"instance_type": "g6.xlarge"}, "AL2023_x86_64_NVIDIA"),
        ({"instance_type": "g5g.2xlarge"}, "AL2023_ARM_64_NVIDIA"),
        ({"instance_type": "p5.48xlarge", "image": "al2023"}, "AL2023_x86_64_NVIDIA"),
        ({"instance_type": "g5.xlarge", "image": "bottlerocket"}, "BOTTLEROCKET_x86_64_NVIDIA"),
        ({"instance_type": "g5g.xlarge", "image": "bottlerocket"}, "BOTTLEROCKET_ARM_64_NVIDIA"),
        ({"instance_type": "p6e-gb200.36xlarge", "gpu": ExplicitGpu("gh200", 4)}, "AL2023_ARM_64_NVIDIA"),
        ({"instance_type": "g9.2xlarge", "gpu": ExplicitGpu("l4", 1)}, "AL2023_x86_64_NVIDIA"),
    ],
)
def test_ami_type_follows_image_and_architecture(
    make_spec: SpecFactory, overrides: dict[str, Any], ami_type: str
) -> None:
    assert plan.ami_type(make_spec("eks", **overrides)) == ami_type


def test_every_ami_type_is_an_eks_nvidia_ami_type() -> None:
    assert set(plan.AMI_TYPES.values()) == EKS_NVIDIA_AMI_TYPES


def test_node_group_args(make_spec: SpecFactory) -> None:
    spec = make_spec(
        "eks",
        name="l4-shared",
        instance_type="g6.12xlarge",
        min_size=0,
        max_size=4,
        desired_size=1,
        capacity="spot",
        sharing=GpuSharing(mode="time-slicing", replicas=4),
        labels={"example.com/team": "ml"},
        taints=[Taint(key="example.com/dedicated", effect="NoExecute")],
    )
    assert plan.node_group_args(spec) == {
        "node_group_name": "l4-shared",
        "ami_type": "AL2023_x86_64_NVIDIA",
        "capacity_type": "SPOT",
        "instance_types": ["g6.12xlarge"],
        "scaling_config": {"min_size": 0, "max_size": 4, "desired_size": 1},
        "update_config": {"max_unavailable": 1, "update_strategy": "MINIMAL"},
        "labels": {
            "gpuready.io/pool": "l4-shared",
            "gpuready.io/gpu-pool": "true",
            "nvidia.com/gpu.present": "true",
            "gpuready.io/accelerator": "l4",
            "skypilot.co/accelerator": "l4",
            "gpuready.io/sharing": "time-slicing",
            "nvidia.com/device-plugin.config": "time-slicing-x4",
            "example.com/team": "ml",
        },
        "taints": [
            {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"},
            {"key": "example.com/dedicated", "effect": "NO_EXECUTE"},
        ],
        "node_repair_config": eks_node_repair_config(spec),
    }


@pytest.mark.parametrize(("capacity", "capacity_type"), [("on-demand", "ON_DEMAND"), ("spot", "SPOT")])
def test_capacity_type(make_spec: SpecFactory, capacity: str, capacity_type: str) -> None:
    assert plan.node_group_args(make_spec("eks", capacity=capacity))["capacity_type"] == capacity_type


@pytest.mark.parametrize(
    ("sizes", "scaling"),
    [
        ({"min_size": 0, "max_size": 3}, {"min_size": 0, "max_size": 3, "desired_size": 0}),
        ({"min_size": 2, "max_size": 5}, {"min_size": 2, "max_size": 5, "desired_size": 2}),
        ({"min_size": 0, "max_size": 5, "desired_size": 4}, {"min_size": 0, "max_size": 5, "desired_size": 4}),
    ],
)
def test_scaling_config_starts_at_the_initial_size(
    make_spec: SpecFactory, sizes: dict[str, int], scaling: dict[str, int]
) -> None:
    assert plan.node_group_args(make_spec("eks", **sizes))["scaling_config"] == scaling


def test_listed_instance_type_is_passed_as_the_catalog_spells_it(make_spec: SpecFactory) -> None:
    assert plan.node_group_args(make_spec("eks", instance_type="p5.4xlarge"))["instance_types"] == ["p5.4xlarge"]


def test_bottlerocket_pool_carries_the_deploy_opt_out_labels(make_spec: SpecFactory) -> None:
    labels = plan.node_group_args(make_spec("eks", image="bottlerocket"))["labels"]
    assert labels["nvidia.com/gpu.deploy.device-plugin"] == "false"
    assert labels["nvidia.com/gpu.deploy.driver"] == "false"


@pytest.mark.parametrize(
    ("upgrade", "release", "update_config"),
    [
        (UpgradePolicy(), None, {"max_unavailable": 1, "update_strategy": "MINIMAL"}),
        (UpgradePolicy(max_unavailable=3), None, {"max_unavailable": 3, "update_strategy": "MINIMAL"}),
        (UpgradePolicy(strategy="surge"), "1.33.0-20250704", {"max_unavailable": 1, "update_strategy": "DEFAULT"}),
    ],
)
def test_update_config_and_release_pin(
    make_spec: SpecFactory, upgrade: UpgradePolicy, release: str | None, update_config: dict[str, Any]
) -> None:
    args = plan.node_group_args(make_spec("eks", upgrade=upgrade, release_version=release))
    assert args["update_config"] == update_config
    assert args.get("release_version") == release


def test_update_strategies_are_the_eks_api_enum() -> None:
    """botocore eks/2017-11-01 ``NodegroupUpdateStrategies``."""
    model = botocore.session.get_session().get_service_model("eks")
    assert set(plan.UPDATE_STRATEGIES.values()) == set(model.shape_for("NodegroupUpdateStrategies").enum)
