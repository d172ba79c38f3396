"""EKS escape hatches: ``diskSizeGb`` and ``overrides`` reach the registered node group; the owned set covers the
plan; a disk size or a launch template changes the node group's name (both force a replacement)."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core import resource_inputs
from gpuready.core.lifecycle import wire_name
from gpuready.core.specs import GpuPoolSpec
from gpuready.eks import lifecycle, plan
from gpuready.errors import SpecError
from tests.eks.test_node_pool import NODE_GROUP, build
from tests.fidelity.spec_matrix import valid_specs
from tests.pulumi_mocks import CapturingMonitor


def spec(**extra: Any) -> GpuPoolSpec:
    return GpuPoolSpec(cloud="eks", name="gpu", instance_type="g6.xlarge", min_size=0, max_size=2, **extra)


def test_disk_size_and_overrides_reach_the_node_group(mocked: CapturingMonitor) -> None:
    build(
        spec(
            disk_size_gb=200,
            overrides={"subnetIds": ["subnet-c"], "remoteAccess": {"ec2SshKey": "ops"}, "forceUpdateVersion": True},
        )
    )
    inputs = mocked.one(NODE_GROUP).inputs
    assert inputs["diskSize"] == 200.0
    assert inputs["subnetIds"] == ["subnet-c"]  # the pool's own subnets win over the stack's
    assert inputs["remoteAccess"] == {"ec2SshKey": "ops"}
    assert inputs["forceUpdateVersion"] is True
    assert inputs["amiType"] == "AL2023_x86_64_NVIDIA"  # what gpuready decides is untouched


def test_launch_template_override_reaches_the_node_group(mocked: CapturingMonitor) -> None:
    build(spec(overrides={"launchTemplate": {"id": "lt-0abc", "version": "3"}}))
    assert mocked.one(NODE_GROUP).inputs["launchTemplate"] == {"id": "lt-0abc", "version": "3"}


def test_owned_override_is_refused_before_anything_registers(mocked: CapturingMonitor) -> None:
    with pytest.raises(SpecError, match=r"overrides\.scalingConfig: owned by minSize/maxSize/desiredSize"):
        build(spec(overrides={"scalingConfig": {"maxSize": 9}}))
    mocked.assert_nothing_registered()


@pytest.mark.parametrize(
    ("extra", "forces_new"),
    [
        ({"disk_size_gb": 100}, True),
        ({"overrides": {"launchTemplate": {"id": "lt-0abc", "version": "1"}}}, True),
        ({"overrides": {"subnetIds": ["subnet-z"]}}, True),
        ({"overrides": {"launchTemplate": {"version": "2"}}}, False),
        ({"overrides": {"forceUpdateVersion": True}}, False),
    ],
)
def test_inputs_that_force_replacement_rotate_the_name(extra: dict[str, Any], forces_new: bool) -> None:
    wiring = {"cluster_name": "c", "node_role_arn": "r", "subnet_ids": ["subnet-a"]}
    base = lifecycle.cloud_name(spec(), {**wiring, **plan.node_group_args(spec())})
    changed = spec(**extra)
    assert (lifecycle.cloud_name(changed, {**wiring, **plan.node_group_args(changed)}) != base) is forces_new


def _leaf_paths(args: dict[str, Any]) -> set[str]:
    return {wire_name(key) for key in args}


def test_every_input_the_plan_sets_is_owned() -> None:
    """An input gpuready plans but does not own could be overridden behind the pool key that decides it."""
    tree = resource_inputs.load("gpuready.eks")
    specs = [*valid_specs("eks"), spec(disk_size_gb=100)]
    planned = set().union(*(_leaf_paths(plan.node_group_args(s)) for s in specs))
    assert planned - set(plan.OWNED_INPUTS) == set()
    assert resource_inputs.owned_paths_problems(plan.OWNED_INPUTS, tree) == []
