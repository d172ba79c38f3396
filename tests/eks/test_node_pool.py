"""``EksGpuNodePool`` under Pulumi's mock runtime: the exact NodeGroup inputs, parentage and outputs.

Inputs are compared as the engine receives them: camelCase wire names, every number a float.
"""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.eks.node_pool import EksGpuNodePool, EksGpuNodePoolArgs
from gpuready.eks.repair import GPU_OVERRIDES as EKS_GPU_OVERRIDES
from gpuready.errors import SpecError
from tests.pulumi_mocks import CapturingMonitor, rotated, runtime_test

COMPONENT = "gpuready:index:EksGpuNodePool"
NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
ROLE_ARN = "arn:aws:iam::123456789012:role/gpu-nodes"
GPU_TAINT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}
GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}


def build(spec: GpuPoolSpec, *, name: str = "gpu", tags: dict[str, str] | None = None) -> None:
    """Run a program that creates one pool, and wait for every registration."""

    @runtime_test
    def program() -> None:
        EksGpuNodePool(
            name,
            EksGpuNodePoolArgs(
                pool=spec,
                cluster_name="ml-cluster",
                node_role_arn=ROLE_ARN,
                subnet_ids=["subnet-a", "subnet-b"],
                tags=tags or {},
            ),
        )

    program()


def base_labels(pool: str, accelerator: str, sharing: str) -> dict[str, str]:
    return {
        "gpuready.io/pool": pool,
        "gpuready.io/gpu-pool": "true",
        "nvidia.com/gpu.present": "true",
        "gpuready.io/accelerator": accelerator,
        "skypilot.co/accelerator": accelerator,
        "gpuready.io/sharing": sharing,
    }


def wiring(tags: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "clusterName": "ml-cluster",
        "nodeRoleArn": ROLE_ARN,
        "subnetIds": ["subnet-a", "subnet-b"],
        "tags": tags or {},
        "updateConfig": {"maxUnavailable": 1.0, "updateStrategy": "MINIMAL"},
        "nodeRepairConfig": REPAIR_ON,
    }


REPAIR_ON: dict[str, Any] = {
    "enabled": True,
    "maxParallelNodesRepairedCount": 1.0,
    "maxUnhealthyNodeThresholdPercentage": 50.0,
    "nodeRepairConfigOverrides": [
        {"nodeMonitoringCondition": o.condition, "nodeUnhealthyReason": o.reason, "repairAction": o.action,
         "minRepairWaitTimeMins": float(o.wait_minutes)}
        for o in EKS_GPU_OVERRIDES
    ],
}  # fmt: skip
"""What every pool gets by default: GPU-suited node auto repair (gpuready.core.health.repair)."""


def test_al2023_l4_time_slicing_spot(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(
        cloud="eks",
        name="l4-shared",
        instance_type="g6.12xlarge",
        min_size=0,
        max_size=4,
        desired_size=1,
        capacity="spot",
        sharing=GpuSharing(mode="time-slicing", replicas=4),
    )
    build(spec, name="inference", tags={"team": "ml"})

    component = mocked.one(COMPONENT)
    node_group = mocked.one(NODE_GROUP)
    assert node_group.inputs == {
        **wiring({"team": "ml"}),
        "nodeGroupName": rotated("l4-shared"),
        "amiType": "AL2023_x86_64_NVIDIA",
        "capacityType": "SPOT",
        "instanceTypes": ["g6.12xlarge"],
        "scalingConfig": {"minSize": 0.0, "maxSize": 4.0, "desiredSize": 1.0},
        "labels": {
            **base_labels("l4-shared", "l4", "time-slicing"),
            "nvidia.com/device-plugin.config": "time-slicing-x4",
        },
        "taints": [GPU_TAINT],
    }
    assert (component.name, node_group.name) == ("inference", "inference-node-group")
    assert node_group.parent == component.urn
    assert node_group.custom and not component.custom
    assert component.inputs == {}
    outputs = mocked.outputs_of(component)
    assert outputs["node_pool_name"] == rotated("l4-shared")
    assert outputs["node_selector"] == {"gpuready.io/pool": "l4-shared"}
    assert outputs["node_labels"] == node_group.inputs["labels"]
    assert outputs["taint"] == {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
    assert outputs["tolerations"] == [GPU_TOLERATION]
    assert outputs["resource_name"] == "nvidia.com/gpu"
    assert outputs["allocatable"] == {"nvidia.com/gpu": 16.0}
    assert outputs["gpus_per_node"] == 4.0
    assert outputs["accelerator"] == "l4"


def test_bottlerocket_arm64_disables_the_operands_bottlerocket_ships(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(
        cloud="eks", name="t4g", instance_type="g5g.2xlarge", min_size=1, max_size=2, image="bottlerocket"
    )
    build(spec)

    node_group = mocked.one(NODE_GROUP)
    assert node_group.inputs == {
        **wiring(),
        "nodeGroupName": rotated("t4g"),
        "amiType": "BOTTLEROCKET_ARM_64_NVIDIA",
        "capacityType": "ON_DEMAND",
        "instanceTypes": ["g5g.2xlarge"],
        "scalingConfig": {"minSize": 1.0, "maxSize": 2.0, "desiredSize": 1.0},
        "labels": {
            **base_labels("t4g", "t4g", "none"),
            "nvidia.com/gpu.deploy.driver": "false",
            "nvidia.com/gpu.deploy.container-toolkit": "false",
            "nvidia.com/gpu.deploy.device-plugin": "false",
            "nvidia.com/gpu.deploy.mig-manager": "false",
        },
        "taints": [GPU_TAINT],
    }
    outputs = mocked.outputs_of(mocked.one(COMPONENT))
    assert outputs["allocatable"] == {"nvidia.com/gpu": 1.0}
    assert (outputs["gpus_per_node"], outputs["accelerator"], outputs["resource_name"]) == (
        1.0,
        "t4g",
        "nvidia.com/gpu",
    )


def test_p5_mig_mixed_layout_selects_the_mig_parted_config(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(
        cloud="eks",
        name="h100-mig",
        instance_type="p5.48xlarge",
        min_size=0,
        max_size=2,
        sharing=MigPartitioning(layout="all-balanced", strategy="mixed"),
        labels={"example.com/team": "research"},
        taints=(Taint(key="example.com/dedicated", value="research", effect="NoExecute"),),
    )
    build(spec, name="train")

    node_group = mocked.one(NODE_GROUP)
    assert node_group.name == "train-node-group"
    assert node_group.inputs == {
        **wiring(),
        "nodeGroupName": rotated("h100-mig"),
        "amiType": "AL2023_x86_64_NVIDIA",
        "capacityType": "ON_DEMAND",
        "instanceTypes": ["p5.48xlarge"],
        "scalingConfig": {"minSize": 0.0, "maxSize": 2.0, "desiredSize": 0.0},
        "labels": {
            **base_labels("h100-mig", "h100", "mig"),
            "nvidia.com/mig.config": "all-balanced",
            "example.com/team": "research",
        },
        "taints": [GPU_TAINT, {"key": "example.com/dedicated", "value": "research", "effect": "NO_EXECUTE"}],
    }
    outputs = mocked.outputs_of(mocked.one(COMPONENT))
    assert outputs["allocatable"] == {
        "nvidia.com/mig-1g.10gb": 16.0,
        "nvidia.com/mig-2g.20gb": 8.0,
        "nvidia.com/mig-3g.40gb": 8.0,
    }
    assert outputs["resource_name"] == "nvidia.com/mig-1g.10gb"
    assert outputs["tolerations"] == [
        GPU_TOLERATION,
        {"key": "example.com/dedicated", "operator": "Exists", "effect": "NoExecute"},
    ]
    assert (outputs["gpus_per_node"], outputs["accelerator"]) == (8.0, "h100")


def test_custom_mig_layout_gets_a_pool_specific_config_name(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(
        cloud="eks",
        name="a100",
        instance_type="p4d.24xlarge",
        min_size=0,
        max_size=1,
        sharing=MigPartitioning(layout={"3g.20gb": 2}),
    )
    build(spec)

    labels = mocked.one(NODE_GROUP).inputs["labels"]
    assert labels["nvidia.com/mig.config"] == "gpuready-a100"
    outputs = mocked.outputs_of(mocked.one(COMPONENT))
    assert outputs["allocatable"] == {"nvidia.com/gpu": 16.0}


def test_an_aks_spec_is_refused_before_anything_registers(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(cloud="aks", name="t4", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=1)

    @runtime_test
    def program() -> None:
        with pytest.raises(SpecError, match=r"^pool\.cloud: "):
            EksGpuNodePool(
                "gpu",
                EksGpuNodePoolArgs(pool=spec, cluster_name="c", node_role_arn=ROLE_ARN, subnet_ids=["subnet-a"]),
            )

    program()
    assert mocked.registrations == []


def test_outputs_are_also_readable_as_outputs(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(cloud="eks", name="l4", instance_type="g6.xlarge", min_size=0, max_size=1)
    seen: dict[str, Any] = {}

    @runtime_test
    def program() -> pulumi.Output[Any]:
        pool = EksGpuNodePool(
            "gpu", EksGpuNodePoolArgs(pool=spec, cluster_name="c", node_role_arn=ROLE_ARN, subnet_ids=["subnet-a"])
        )
        return pulumi.Output.all(
            pool.node_pool_name, pool.node_selector, pool.gpus_per_node, pool.resource_name, pool.accelerator
        ).apply(lambda values: seen.update(values=values))

    program()
    assert seen["values"] == [rotated("l4"), {"gpuready.io/pool": "l4"}, 1, "nvidia.com/gpu", "l4"]
    assert mocked.one(NODE_GROUP).parent == mocked.one(COMPONENT).urn
