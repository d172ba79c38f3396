"""Pool rules, pass and fail, on raw EKS / AKS / GKE resources through the engine's Analyzer protocol."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy.builders import AKS, AKS_CLUSTER, EKS, GKE, GPU_TAINT_API, aks, eks, gke
from tests.policy.harness import messages

GPU_TAINT_EKS = GPU_TAINT_API

TAINT = "gpu-node-pool-requires-gpu-taint"
LABELS = "gpu-node-pool-requires-gpu-labels"
AMI = "eks-gpu-node-group-requires-nvidia-ami"
MIG = "gpu-mig-profiles-valid"
SHARING = "gpu-sharing-replicas-within-bounds"


@pytest.mark.parametrize(
    ("policy", "type_", "props", "expected"),
    [
        (TAINT, EKS, eks(), None),
        (TAINT, EKS, eks(taints=[]), "no nvidia.com/gpu NoSchedule taint"),
        (TAINT, EKS, eks(taints=None), "'effect': 'NO_SCHEDULE'"),
        (TAINT, EKS, eks(taints=[{**GPU_TAINT_EKS, "effect": "NoSchedule"}]), "API spells effects"),
        (TAINT, EKS, eks(taints=[{**GPU_TAINT_EKS, "effect": "PREFER_NO_SCHEDULE"}]), "does not keep other pods off"),
        (TAINT, EKS, eks(instanceTypes=["m5.large"], taints=[], amiType="AL2023_x86_64_STANDARD"), None),
        (TAINT, EKS, eks(instanceTypes=["p3.2xlarge"], taints=[]), "on p3.2xlarge"),  # family outside the catalog
        (TAINT, EKS, eks(instanceTypes=None, launchTemplate={"id": "lt-1", "version": "1"}, taints=[]), "taints"),
        (TAINT, AKS, aks(), None),
        (TAINT, AKS, aks(nodeTaints=["sku=gpu:NoSchedule"]), "'nvidia.com/gpu=present:NoSchedule'"),
        (TAINT, AKS, aks(vmSize="Standard_NC6s_v3", nodeTaints=None), "Azure/AKS#1449"),  # N-series outside catalog
        (TAINT, AKS, aks(vmSize="Standard_D4s_v5", nodeTaints=None, gpuProfile=None), None),
        (TAINT, GKE, gke(), None),
        (TAINT, GKE, gke(taints=[{"key": "dedicated", "value": "ml", "effect": "NO_SCHEDULE"}]), "#7928"),
        (
            TAINT,
            GKE,
            gke(taints=[{"key": "nvidia.com/gpu", "value": "", "effect": "NO_SCHEDULE"}]),
            "requires a taint value",
        ),
        (TAINT, GKE, gke(machineType="n1-standard-8", accelerator={"type": "nvidia-tesla-t4"}, taints=None), "taints"),
        (TAINT, GKE, {"cluster": "ml", "nodeConfig": {"machineType": "e2-standard-8"}}, None),
        (LABELS, EKS, eks(), None),
        (LABELS, EKS, eks(labels={}), "lacks label(s) nvidia.com/gpu.present, gpuready.io/accelerator"),
        (
            LABELS,
            EKS,
            eks(labels={"nvidia.com/gpu.present": "true", "gpuready.io/accelerator": "L4"}),
            "Set it to 'l4'",
        ),
        (
            LABELS,
            EKS,
            eks(
                labels={
                    "nvidia.com/gpu.present": "true",
                    "gpuready.io/accelerator": "l4",
                    "skypilot.co/accelerator": "L4",
                }
            ),
            "skypilot.co/accelerator",
        ),
        (
            LABELS,
            AKS,
            aks(nodeLabels={"nvidia.com/gpu.present": "yes", "gpuready.io/accelerator": "a100-80gb"}),
            "'true'",
        ),
        (LABELS, GKE, gke(labels=None), "nodeConfig.labels"),
        (AMI, EKS, eks(), None),
        (AMI, EKS, eks(amiType="AL2_x86_64_GPU"), "deprecated Amazon Linux 2 GPU AMI"),
        (AMI, EKS, eks(amiType="AL2023_x86_64_STANDARD"), "has no NVIDIA driver"),
        (AMI, EKS, eks(amiType=None), "amiType: not set"),
        (AMI, EKS, eks(amiType=None, launchTemplate={"id": "lt-1", "version": "1"}), None),
        (AMI, EKS, eks(amiType="CUSTOM"), None),
        (AMI, EKS, eks(instanceTypes=["g5g.xlarge"], amiType="AL2023_x86_64_NVIDIA"), "is arm64"),
        (AMI, EKS, eks(instanceTypes=["g5g.xlarge"], amiType="AL2023_ARM_64_NVIDIA"), None),
        (AMI, EKS, eks(amiType="BOTTLEROCKET_x86_64_NVIDIA_FIPS"), None),
        (AMI, EKS, eks(instanceTypes=["m5.large"], amiType="AL2023_x86_64_STANDARD"), None),
        (MIG, AKS, aks(gpuInstanceProfile="MIG1g"), None),
        (MIG, AKS, aks(gpuInstanceProfile="MIG9g"), "unknown MIG profile"),
        (MIG, AKS, aks(vmSize="Standard_NC4as_T4_v3", gpuInstanceProfile="MIG1g"), "T4 GPUs, which have no MIG"),
        (MIG, GKE, gke(accelerator={"gpuPartitionSize": "1g.5gb"}), None),
        (MIG, GKE, gke(accelerator={"gpuPartitionSize": "2g.20gb"}), "has no MIG profile '2g.20gb'"),
        (
            MIG,
            GKE,
            gke(machineType="g2-standard-8", accelerator={"type": "nvidia-l4", "gpuPartitionSize": "1g.5gb"}),
            "cannot partition L4",
        ),
        (MIG, EKS, eks(instanceTypes=["p5.48xlarge"], labels={"nvidia.com/mig.config": "all-1g.10gb"}), None),
        (MIG, EKS, eks(instanceTypes=["p5.48xlarge"], labels={"nvidia.com/mig.config": "all-1g.5gb"}), "not a layout"),
        (MIG, EKS, eks(labels={"nvidia.com/mig.config": "all-balanced"}), "L4 GPUs have no MIG"),
        (MIG, EKS, eks(instanceTypes=["p5.48xlarge"], labels={"nvidia.com/mig.config": "team-layout"}), None),
        (
            SHARING,
            GKE,
            gke(accelerator={"gpuSharingConfig": {"gpuSharingStrategy": "TIME_SHARING", "maxSharedClientsPerGpu": 4}}),
            None,
        ),
        (
            SHARING,
            GKE,
            gke(accelerator={"gpuSharingConfig": {"gpuSharingStrategy": "MPS", "maxSharedClientsPerGpu": 1}}),
            "from 2 to 48",
        ),
        (
            SHARING,
            GKE,
            gke(accelerator={"gpuSharingConfig": {"gpuSharingStrategy": "MPS", "maxSharedClientsPerGpu": 64}}),
            "got 64",
        ),
        (
            SHARING,
            GKE,
            gke(accelerator={"gpuSharingConfig": {"gpuSharingStrategy": "MPS", "maxSharedClientsPerGpu": 2.5}}),
            "got 2.5",
        ),
    ],
)
def test_pool_rule(policy: str, type_: str, props: dict[str, Any], expected: str | None) -> None:
    found = messages(policy, [(type_, props)])
    if expected is None:
        assert found == []
    else:
        assert found, f"{policy} found nothing"
        assert any(expected in m for m in found), found


def test_managed_cluster_profiles_are_pools_of_their_own() -> None:
    cluster = {
        "resourceGroupName": "rg",
        "agentPoolProfiles": [
            {"name": "system", "vmSize": "Standard_D4s_v5", "count": 2, "mode": "System"},
            {"name": "gput4", "vmSize": "Standard_NC4as_T4_v3", "count": 0, "mode": "User"},
        ],
    }
    found = messages(TAINT, [(AKS_CLUSTER, cluster)])
    assert len(found) == 1
    assert "agentPoolProfiles[1].nodeTaints" in found[0]


def test_messages_name_the_resource_the_field_and_the_fix() -> None:
    (message,) = messages(TAINT, [(EKS, eks(taints=[]))])
    assert message.startswith("NodeGroup 'r0': taints:")
    assert "Add {'key': 'nvidia.com/gpu', 'effect': 'NO_SCHEDULE', 'value': 'present'} to taints" in message


def test_required_label_keys_come_from_config() -> None:
    config = {LABELS: {"requiredLabelKeys": ["example.com/team"]}}
    assert "example.com/team" in messages(LABELS, [(EKS, eks())], config=config)[0]
    assert messages(LABELS, [(EKS, eks(labels={}))], config={LABELS: {"requiredLabelKeys": []}}) == []


def test_max_replicas_comes_from_config() -> None:
    props = gke(accelerator={"gpuSharingConfig": {"gpuSharingStrategy": "TIME_SHARING", "maxSharedClientsPerGpu": 16}})
    assert messages(SHARING, [(GKE, props)]) == []
    assert "from 2 to 8" in messages(SHARING, [(GKE, props)], config={SHARING: {"maxReplicas": 8}})[0]
