"""Capacity in the diff (issue #27 item 1) on small hand-written plans: every reduction is at risk whatever the
action, named in words a person acts on; gains and unchanged pools are not."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.plan_diff.diff import diff_plans
from gpuready.plan_diff.plan_file import PlanFormatError
from tests.plan_diff.capacity_of import read_capacity

STACK = "urn:pulumi:dev::gpuready::pulumi:pulumi:Stack::gpuready-dev"
LABELS = {"gpuready.io/accelerator": "h100", "skypilot.co/accelerator": "h100", "gpuready.io/pool": "p"}


def pool(**changes: Any) -> dict[str, Any]:
    """A gpuready pool entry of the plan's ``pools``: 8 GPUs per node, 0..4 nodes."""
    per_node = changes.pop("per_node", {"nvidia.com/gpu": 8})
    least, most = changes.pop("min", 0), changes.pop("max", 4)
    entry = {
        "name": "p",
        "accelerator": "h100",
        "gpusPerNode": 8,
        "minNodes": least,
        "maxNodes": most,
        "schedulablePerNode": per_node,
        "schedulableAtMinSize": {k: v * least for k, v in per_node.items()},
        "schedulableAtMaxSize": {k: v * most for k, v in per_node.items()},
        "nodeLabels": dict(LABELS),
    }
    entry.update(changes)
    return entry


def plan(*pools: dict[str, Any], resources: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    return {"formatVersion": 1, "stack": "dev", "project": "gpuready", "resources": list(resources),
            "pools": list(pools)}  # fmt: skip


@pytest.mark.parametrize(
    ("after", "losses"),
    [
        (pool(accelerator="h200", nodeLabels={**LABELS, "gpuready.io/accelerator": "h200",
                                              "skypilot.co/accelerator": "h200"}),
         ["GPU model changes from h100 to h200: pods that select gpuready.io/accelerator=h100 or "
          "skypilot.co/accelerator=h100 stop scheduling"]),
        (pool(max=2), ["fewer schedulable units at maxSize: nvidia.com/gpu 32 -> 16"]),
        (pool(min=1, max=4), []),
        (pool(per_node={"nvidia.com/mig-3g.40gb": 16}),
         ["resource name nvidia.com/gpu no longer offered (now nvidia.com/mig-3g.40gb; 32 -> 64 units at maxSize in "
          "all): workloads that request it stop scheduling here"]),
        (pool(nodeLabels={k: v for k, v in LABELS.items() if k != "skypilot.co/accelerator"}),
         ["node label skypilot.co/accelerator=h100 stops matching this pool's nodes"]),
    ],
    ids=["model", "max-size-halved", "warm-gain", "resource-renamed", "label-dropped"],
)  # fmt: skip
def test_a_pool_update_is_judged_by_its_capacity(after: dict[str, Any], losses: list[str]) -> None:
    diff = diff_plans(plan(pool()), plan(after))
    (change,) = diff.capacity
    assert len(change.losses) == len(losses)
    for loss, text in zip(change.losses, losses, strict=True):
        assert loss.startswith(text), loss
    if losses:
        (risk,) = diff.at_risk
        assert (risk.pool, risk.action) == ("p", "update")
    else:
        assert diff.at_risk == ()


def test_time_slicing_replicas_80_to_20_shares() -> None:
    before = pool(per_node={"nvidia.com/gpu": 8 * 10}, accelerator="l4")
    after = pool(per_node={"nvidia.com/gpu": 8 * 10 // 4}, accelerator="l4")
    (risk,) = diff_plans(plan(before), plan(after)).at_risk
    assert risk.losses == ("fewer schedulable units at maxSize: nvidia.com/gpu 320 -> 80",)


def test_losing_the_warm_node_is_said_in_words() -> None:
    (risk,) = diff_plans(plan(pool(min=1)), plan(pool(min=0))).at_risk
    (loss,) = risk.losses
    assert loss.startswith("no warm node any more (minSize 1 -> 0): nvidia.com/gpu 8 stop being ready")
    assert "scale up" in loss


def test_a_deleted_pool_loses_everything() -> None:
    (risk,) = diff_plans(plan(pool()), plan()).at_risk
    assert risk.action == "delete" and risk.losses[0].startswith("the pool is deleted")


def test_an_unchanged_pool_is_not_listed() -> None:
    diff = diff_plans(plan(pool()), plan(pool()))
    assert (diff.capacity, diff.at_risk) == ((), ())


def agent_pool(max_count: int) -> dict[str, Any]:
    """Another program's AKS agent pool (no gpuready pool entry): read from its inputs."""
    return {"type": "azure-native:containerservice:AgentPool", "name": "gpu",
            "urn": "urn:pulumi:dev::gpuready::azure-native:containerservice:AgentPool::gpu", "parent": STACK,
            "custom": True, "inputs": {"vmSize": "Standard_ND96isr_H100_v5", "enableAutoScaling": True, "minCount": 0,
                                       "maxCount": max_count, "agentPoolName": "gpu"}}  # fmt: skip


def test_a_raw_aks_pool_halved_is_capacity_at_risk_though_only_an_update() -> None:
    diff = diff_plans(plan(resources=(agent_pool(8),)), plan(resources=(agent_pool(4),)))
    (change,) = diff.changes
    assert change.action == "update"
    (risk,) = diff.at_risk
    assert (risk.pool, risk.action) == ("gpu", "update")
    assert risk.losses == ("fewer schedulable units at maxSize: nvidia.com/gpu 64 -> 32",)


def node_pool(instance_type: str, group: str, nodes: int) -> dict[str, Any]:
    """Another program's Karpenter NodePool: a type token three provisioners write (EKS Karpenter, Auto Mode, AKS
    node auto-provisioning), so the diff asks the pool reader which one wrote it."""
    spec = {
        "template": {
            "spec": {
                "nodeClassRef": {"group": group, "kind": "NodeClass", "name": "gpu"},
                "requirements": [
                    {"key": "node.kubernetes.io/instance-type", "operator": "In", "values": [instance_type]}
                ],
            }
        },
        "limits": {"nodes": str(nodes)},
    }
    return {"type": "kubernetes:karpenter.sh/v1:NodePool", "name": "gpu",
            "urn": "urn:pulumi:dev::gpuready::kubernetes:karpenter.sh/v1:NodePool::gpu", "parent": STACK,
            "custom": True, "inputs": {"metadata": {"name": "gpu"}, "spec": spec}}  # fmt: skip


@pytest.mark.parametrize(
    ("instance_type", "group", "loss"),
    [
        ("p5.48xlarge", "karpenter.k8s.aws", "nvidia.com/gpu 64 -> 32"),
        ("g6.xlarge", "eks.amazonaws.com", "nvidia.com/gpu 8 -> 4"),
        ("Standard_ND96isr_H100_v5", "karpenter.azure.com", "nvidia.com/gpu 64 -> 32"),
    ],
    ids=["eks-karpenter", "eks-auto-mode", "aks-nap"],
)
def test_a_raw_node_pool_halved_is_read_by_the_provisioner_that_wrote_it(instance_type: str, group: str,
                                                                         loss: str) -> None:  # fmt: skip
    diff = diff_plans(plan(resources=(node_pool(instance_type, group, 8),)),
                      plan(resources=(node_pool(instance_type, group, 4),)))  # fmt: skip
    (risk,) = diff.at_risk
    assert (risk.pool, risk.action) == ("gpu", "update")
    assert risk.losses == (f"fewer schedulable units at maxSize: {loss}",)


NODE_GROUP_TYPE = "aws:eks/nodeGroup:NodeGroup"
AGENT_POOL_TYPE = "azure-native:containerservice:AgentPool"
NODE_POOL_TYPE = "gcp:container/nodePool:NodePool"
KARPENTER_TYPE = "kubernetes:karpenter.sh/v1:NodePool"
CLASS_TYPE = "kubernetes:cloud.google.com/v1:ComputeClass"


def _karpenter(limits: dict[str, Any]) -> dict[str, Any]:
    terms = [{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["p5.48xlarge"]}]
    return {"spec": {"limits": limits, "template": {"spec": {"requirements": terms}}}}


@pytest.mark.parametrize(
    ("type_token", "inputs", "expected"),
    [
        (NODE_GROUP_TYPE, {"instanceTypes": ["g6.12xlarge"], "scalingConfig": {"maxSize": 3}}, ("l4", 4, 3)),
        (NODE_GROUP_TYPE, {"instanceTypes": ["m5.large"]}, None),
        (AGENT_POOL_TYPE, {"vmSize": "Standard_NC4as_T4_v3", "enableAutoScaling": True, "maxCount": 4}, ("t4", 1, 4)),
        (AGENT_POOL_TYPE, {"vmSize": "Standard_NC4as_T4_v3", "count": 2}, ("t4", 1, 2)),
        (NODE_POOL_TYPE, {"nodeConfig": {"machineType": "g2-standard-4"}, "autoscaling": {"totalMaxNodeCount": 5}},
         ("l4", 1, 5)),
        (NODE_POOL_TYPE, {"nodeConfig": {"machineType": "g2-standard-4"}, "autoscaling": {"maxNodeCount": 2},
                          "nodeLocations": ["a", "b"]}, ("l4", 1, 4)),
        (NODE_POOL_TYPE, {"nodeConfig": {"machineType": "n1-standard-8", "guestAccelerators": [
            {"type": "nvidia-tesla-t4", "count": 2}]}, "nodeCount": 3, "nodeLocations": ["a"]}, ("t4", 2, 3)),
        (NODE_POOL_TYPE, {"nodeConfig": {"machineType": "g2-standard-4"}, "autoscaling": {"maxNodeCount": 2}},
         ("l4", 1, None)),
        (KARPENTER_TYPE, _karpenter({"nodes": "2"}), ("h100", 8, 2)),
        (KARPENTER_TYPE, _karpenter({"nvidia.com/gpu": "24"}), ("h100", 8, 3)),
        (CLASS_TYPE, {"spec": {"priorities": [{"machineType": "a2-highgpu-2g"}]}}, ("a100", 2, None)),
    ],
)  # fmt: skip
def test_a_foreign_pool_is_read_by_its_provisioners_reader(
    type_token: str, inputs: dict[str, Any], expected: tuple[str, int, int | None] | None
) -> None:
    found = read_capacity(type_token, inputs)
    assert (found and (found.accelerator, found.gpus_per_node, found.max_nodes)) == expected


@pytest.mark.parametrize(
    ("type_token", "inputs", "named"),
    [
        (NODE_GROUP_TYPE, {"instanceTypes": {"a": 1}}, "instanceTypes: a list, not dict"),
        (NODE_GROUP_TYPE, {"instanceTypes": "g6.xlarge"}, "instanceTypes: a list, not str"),
        (NODE_POOL_TYPE, {"nodeConfig": {"machineType": "g2-standard-4", "guestAccelerators": {"type": "x"}}},
         "nodeConfig.guestAccelerators: a list, not dict"),
        (NODE_POOL_TYPE, {"nodeConfig": [], "nodeLocations": 3}, "nodeConfig: an object, not list; nodeLocations"),
        (KARPENTER_TYPE, {"spec": {"template": {"spec": {"requirements": 5}}}},
         "spec.template.spec.requirements: a list, not int"),
        (AGENT_POOL_TYPE, {"vmSize": "Standard_NC4as_T4_v3", "nodeTaints": "a=b:NoSchedule"}, "nodeTaints: a list"),
        (CLASS_TYPE, {"spec": {"priorities": {"gpu": {}}}}, "spec.priorities: a list, not dict"),
    ],
)  # fmt: skip
def test_a_misshapen_pool_resource_is_a_plan_format_error(type_token: str, inputs: dict[str, Any], named: str) -> None:
    with pytest.raises(PlanFormatError, match="the new plan's resource urn:") as error:
        read_capacity(type_token, inputs)
    assert named in str(error.value)
