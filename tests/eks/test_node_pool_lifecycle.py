"""``EksGpuNodePool`` lifecycle under the mock runtime: options, rotated names and the ASG node-template tags."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.eks.node_pool import EksGpuNodePool, EksGpuNodePoolArgs
from tests.pulumi_mocks import CapturingMonitor, Registration, runtime_test

NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
TAG = "aws:autoscaling/tag:Tag"
COMPONENT = "gpuready:index:EksGpuNodePool"
TEMPLATE = "k8s.io/cluster-autoscaler/node-template"
L4_SHARED = GpuPoolSpec(
    cloud="eks",
    name="l4-shared",
    instance_type="g6.12xlarge",
    min_size=0,
    max_size=4,
    desired_size=1,
    sharing=GpuSharing(mode="time-slicing", replicas=4),
)


def build(spec: GpuPoolSpec, **wiring: Any) -> None:
    args: dict[str, Any] = {
        "cluster_name": "ml",
        "node_role_arn": "arn:aws:iam::123456789012:role/n",
        "subnet_ids": ["subnet-a"],
    }
    args.update(wiring)

    @runtime_test
    def program() -> None:
        EksGpuNodePool("gpu", EksGpuNodePoolArgs(pool=spec, **args))

    program()


def cloud_name(mocked: CapturingMonitor, spec: GpuPoolSpec, **wiring: Any) -> str:
    mocked.forget_registered()
    build(spec, **wiring)
    name: str = mocked.one(NODE_GROUP).inputs["nodeGroupName"]
    return name


def tags_of(mocked: CapturingMonitor) -> dict[str, Registration]:
    return {t.inputs["tag"]["key"]: t for t in mocked.of_type(TAG)}


def test_desired_size_is_creation_only_and_replacement_never_deletes_first(mocked: CapturingMonitor) -> None:
    build(L4_SHARED)
    options = mocked.one(NODE_GROUP).options
    assert options == {"ignoreChanges": ["scalingConfig.desiredSize"], "deleteBeforeReplace": False}


@pytest.mark.parametrize(
    "change",
    [
        {"desired_size": 3},
        {"max_size": 8},
        {"min_size": 1},
        {"labels": {"example.com/team": "ml"}},
        {"sharing": GpuSharing(mode="time-slicing", replicas=2)},
    ],
)
def test_changes_applied_in_place_keep_the_name(mocked: CapturingMonitor, change: dict[str, Any]) -> None:
    assert cloud_name(mocked, replace(L4_SHARED, **change)) == cloud_name(mocked, L4_SHARED)


@pytest.mark.parametrize(
    ("change", "wiring"),
    [
        ({"instance_type": "g6.24xlarge"}, {}),
        ({"capacity": "spot"}, {}),
        ({"image": "bottlerocket", "sharing": None}, {}),
        ({}, {"subnet_ids": ["subnet-b"]}),
        ({}, {"node_role_arn": "arn:aws:iam::123456789012:role/other"}),
    ],
)
def test_changes_that_force_replacement_rename_the_group(
    mocked: CapturingMonitor, change: dict[str, Any], wiring: dict[str, Any]
) -> None:
    before = cloud_name(mocked, L4_SHARED)
    after = cloud_name(mocked, replace(L4_SHARED, **change), **wiring)
    assert after != before
    assert after.startswith("l4-shared-") and before.startswith("l4-shared-")


def test_a_fixed_name_stays_the_pool_name(mocked: CapturingMonitor) -> None:
    assert cloud_name(mocked, replace(L4_SHARED, fixed_name=True, instance_type="g6.24xlarge")) == "l4-shared"


def test_asg_tags_carry_labels_taint_and_shared_gpus(mocked: CapturingMonitor) -> None:
    build(L4_SHARED)
    node_group = mocked.one(NODE_GROUP)
    component = mocked.one(COMPONENT)
    tags = tags_of(mocked)
    labels = node_group.inputs["labels"]
    assert {k: t.inputs["tag"]["value"] for k, t in tags.items()} == {
        **{f"{TEMPLATE}/label/{k}": v for k, v in labels.items()},
        f"{TEMPLATE}/taint/nvidia.com/gpu": "present:NoSchedule",
        f"{TEMPLATE}/resources/nvidia.com/gpu": "16",  # 4 L4s x 4 time-sliced replicas
    }
    for tag in tags.values():
        assert tag.inputs["autoscalingGroupName"] == f"eks-{node_group.inputs['nodeGroupName']}-offline"
        assert tag.inputs["tag"]["propagateAtLaunch"] is False
        assert tag.parent == component.urn
        assert tag.options == {"deletedWith": node_group.urn}
        assert node_group.urn in tag.dependencies


@pytest.mark.parametrize(
    ("sharing", "resources"),
    [
        (MigPartitioning(layout="all-balanced", strategy="mixed"), {"mig-1g.10gb": "16", "mig-2g.20gb": "8",
                                                                    "mig-3g.40gb": "8"}),
        (MigPartitioning(profile="1g.10gb"), {"gpu": "56"}),
        (GpuSharing(mode="mps", replicas=2, rename_by_default=True), {"gpu.shared": "16"}),
        (None, {"gpu": "8"}),
    ],
)  # fmt: skip
def test_asg_tags_advertise_each_extended_resource(
    mocked: CapturingMonitor, sharing: Any, resources: dict[str, str]
) -> None:
    build(GpuPoolSpec(cloud="eks", name="h100", instance_type="p5.48xlarge", min_size=0, max_size=2, sharing=sharing))
    found = {k: t.inputs["tag"]["value"] for k, t in tags_of(mocked).items() if "/resources/" in k}
    assert found == {f"{TEMPLATE}/resources/nvidia.com/{name}": count for name, count in resources.items()}
