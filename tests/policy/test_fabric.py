"""Fabric rules (issue #30): GPUDirect pools declare their networks; RDMA pods land on InfiniBand pools that the
Network Operator serves."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.policy.rules import fabric
from gpuready.policy.rules.stack import StackResource
from tests.policy.builders import AKS, GKE, RELEASE, aks, gke

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


def stack(*resources: tuple[str, str, dict[str, Any]]) -> list[StackResource]:
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
    findings = fabric.rdma_findings(stack(*resources), {})
    if found is None:
        assert findings == []
    else:
        (finding,) = findings
        assert finding.urn == "urn:train"
        assert found in finding.message
