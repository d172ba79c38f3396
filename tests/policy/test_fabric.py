"""Fabric rules (issue #30): the fabric policy through the pack (engine-style props: an EFA-capable multi-node
node group without EFA interfaces or a placement group, in several subnets, and a pod asking for EFA on a pool without
it); GPUDirect pools declare their networks; RDMA pods land on InfiniBand pools that the Network Operator serves."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.policy.rules import fabric
from gpuready.policy.rules.stack import StackResource
from tests.policy.builders import AKS, GKE, RELEASE, aks, gke
from tests.policy.harness import messages

FABRIC = "gpu-fabric-pools"
NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
LAUNCH_TEMPLATE = "aws:ec2/launchTemplate:LaunchTemplate"
JOB = "kubernetes:batch/v1:Job"
INTERFACES = [{"networkCardIndex": 0, "deviceIndex": 0, "interfaceType": "efa"},
              {"networkCardIndex": 1, "deviceIndex": 1, "interfaceType": "efa-only"}]  # fmt: skip
EFA_INTERFACES = {"networkInterfaces": INTERFACES}


def node_group(*, instance: str = "p5.48xlarge", most: int = 2, **extra: Any) -> dict[str, Any]:
    return {"clusterName": "ml", "nodeRoleArn": "arn:aws:iam::1:role/n", "subnetIds": ["subnet-a"],
            "instanceTypes": [instance], "amiType": "AL2023_x86_64_NVIDIA",
            "scalingConfig": {"minSize": 0, "maxSize": most, "desiredSize": 0},
            "labels": {"gpuready.io/pool": "train"},
            "taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}], **extra}  # fmt: skip


def job(requests: dict[str, Any], selector: dict[str, str]) -> dict[str, Any]:
    container = {"name": "c", "image": "nccl", "resources": {"limits": requests, "requests": requests}}
    tolerations = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
    spec = {"restartPolicy": "Never", "containers": [container], "nodeSelector": selector, "tolerations": tolerations}
    return {"spec": {"template": {"spec": spec}}}


LT: dict[str, Any] = {"launchTemplate": {"id": "lt-1", "version": "1"}}
PLACED: dict[str, Any] = {**EFA_INTERFACES, "placement": {"groupName": "train-pg"}}


@pytest.mark.parametrize(
    ("stack", "expected"),
    [
        ([(NODE_GROUP, node_group())], "p5.48xlarge has 32 EFA interfaces, but this node group's nodes get none"),
        ([(NODE_GROUP, node_group(**LT)), (LAUNCH_TEMPLATE, {"networkInterfaces": []})], "get none"),
        ([(NODE_GROUP, node_group(**LT)), (LAUNCH_TEMPLATE, EFA_INTERFACES)], "names no placement group"),
        ([(NODE_GROUP, node_group(**LT)), (LAUNCH_TEMPLATE, PLACED)], None),
        ([(NODE_GROUP, node_group(subnetIds=["subnet-a", "subnet-b"], **LT)), (LAUNCH_TEMPLATE, PLACED)],
         "2 subnets for an EFA node group: EFA does not work across zones"),
        ([(NODE_GROUP, node_group(most=1))], None),  # one node: nothing to talk to over EFA
        ([(NODE_GROUP, node_group(labels={"gpuready.io/sharing": "mig"}))], None),  # MIG: many small jobs
        ([(NODE_GROUP, node_group(instance="g6.12xlarge"))], None),  # one EFA card: not a training-class type
        ([(NODE_GROUP, node_group(instance="g6.xlarge", labels={"gpuready.io/pool": "l4"})),
          (JOB, job({"nvidia.com/gpu": 1, "vpc.amazonaws.com/efa": 1}, {"gpuready.io/pool": "l4"}))],
         "requests vpc.amazonaws.com/efa, but its nodeSelector picks the pool on g6.xlarge, which has none"),
        ([(NODE_GROUP, node_group(**LT)), (LAUNCH_TEMPLATE, PLACED),
          (JOB, job({"nvidia.com/gpu": 8, "vpc.amazonaws.com/efa": 32}, {"gpuready.io/pool": "train"}))], None),
    ],
)  # fmt: skip
def test_fabric_findings(stack: list[tuple[str, dict[str, Any]]], expected: str | None) -> None:
    found = messages(FABRIC, stack)
    if expected is None:
        assert found == []
    else:
        assert any(expected in m for m in found), found


POD = "kubernetes:core/v1:Pod"


def networks(count: int) -> dict[str, Any]:
    return {"additionalNodeNetworkConfigs": [{"network": f"n{i}", "subnetwork": f"s{i}"} for i in range(count)]}


def mega(count: int | None) -> dict[str, Any]:
    props = gke({"type": "nvidia-h100-mega-80gb", "count": 8}, machineType="a3-megagpu-8g")
    if count is not None:
        props["networkConfig"] = networks(count)
    return props


@pytest.mark.parametrize(
    ("props", "found"),
    [
        (mega(None), "declares 0 additional node networks"),
        (mega(2), "declares 2 additional node networks"),
        (mega(8), None),
        (gke(), None),
    ],
)
def test_a_gpudirect_pool_declares_one_network_per_nic(props: dict[str, Any], found: str | None) -> None:
    problems = fabric.gpudirect_network_problems(GKE, props, {})
    if found is None:
        assert problems == []
    else:
        (problem,) = problems
        assert problem.startswith("networkConfig.additionalNodeNetworkConfigs: a3-megagpu-8g has gpudirect-tcpxo")
        assert found in problem


def pod(selector: dict[str, str], resource: str = "rdma/shared_ib") -> dict[str, Any]:
    container = {"name": "train", "resources": {"limits": {"nvidia.com/gpu": 8, resource: 1}}}
    return {"spec": {"nodeSelector": selector, "containers": [container]}}


def ib_pool(size: str = "Standard_ND96isr_H100_v5") -> dict[str, Any]:
    labels = {"nvidia.com/gpu.present": "true", "gpuready.io/accelerator": "h100", "gpuready.io/pool": "ib"}
    return aks(agentPoolName="ib", vmSize=size, nodeLabels=labels)


def stack_of(*resources: tuple[str, str, dict[str, Any]]) -> list[StackResource]:
    return [StackResource(kind, f"urn:{name}", name, props) for kind, name, props in resources]


TRAIN = pod({"gpuready.io/pool": "ib"})
OPERATOR = (RELEASE, "netop", {"chart": "network-operator", "version": "26.1.2"})


@pytest.mark.parametrize(
    ("resources", "found"),
    [
        (((AKS, "ib", ib_pool()), (POD, "train", pod({"gpuready.io/pool": "ib"}))), "runs no Network Operator"),
        (((AKS, "ib", ib_pool()), OPERATOR, (POD, "train", pod({"gpuready.io/pool": "ib"}))), None),
        (
            (
                (AKS, "ib", ib_pool("Standard_NC24ads_A100_v4")),
                OPERATOR,
                (POD, "train", pod({"gpuready.io/pool": "ib"})),
            ),
            "have no InfiniBand",
        ),
        (((AKS, "ib", ib_pool()), (POD, "train", pod({"gpuready.io/pool": "elsewhere"}))), None),
        (((AKS, "ib", ib_pool()), (POD, "train", pod({"gpuready.io/pool": "ib"}, "nvidia.com/gpu"))), None),
    ],
)
def test_rdma_pods_need_infiniband_pools_and_the_network_operator(
    resources: tuple[tuple[str, str, dict[str, Any]], ...], found: str | None
) -> None:
    findings = fabric.rdma_findings(stack_of(*resources), {})
    if found is None:
        assert findings == []
    else:
        (finding,) = findings
        assert finding.urn == "urn:train"
        assert found in finding.message
