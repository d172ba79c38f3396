"""Stack rules, pass and fail, across raw GPU pools and GPU-stack Helm releases (AnalyzeStack)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy.builders import AKS, AKS_CLUSTER, EKS, EXISTS, GKE, RELEASE, aks, eks, gke, operator, plugin
from tests.policy.harness import evaluate, messages, resource

OWNER = "gpu-stack-single-driver-owner"
SERVED = "gpu-pool-served-by-gpu-stack"
TOLERATED = "gpu-stack-tolerates-pool-taints"
MIG = "gpu-mig-manager-only-with-mig-pools"
NO_DRIVER = {"driver": {"enabled": False}, "toolkit": {"enabled": False}}
GKE_OPERATOR_POOL = gke(
    accelerator={"gpuDriverInstallationConfig": {"gpuDriverVersion": "INSTALLATION_DISABLED"}},
    labels={"gke-no-default-nvidia-gpu-device-plugin": "true", "nvidia.com/gpu.present": "true"},
)
BOTTLEROCKET = eks(instanceTypes=["g5.2xlarge"], amiType="BOTTLEROCKET_x86_64_NVIDIA")
H100 = eks(instanceTypes=["p5.48xlarge"], labels={"nvidia.com/mig.config": "all-1g.10gb"})
GPU_TAINT_TRUE = {"key": "nvidia.com/gpu", "value": "true", "effect": "NO_SCHEDULE"}
MIG_CONFIG = (
    "version: v1\nmig-configs:\n  team:\n    - devices: all\n      mig-enabled: true\n      mig-devices: {1g.10gb: 7}\n"
)

DRA_POOL = eks(labels={"gpuready.io/advertise": "dra", "nvidia.com/gpu.deploy.device-plugin": "false"})
DRA_RELEASE = {"chart": "dra-driver-nvidia-gpu", "version": "0.4.0", "namespace": "nvidia-dra-driver-gpu", "values": {}}
GPU_CLUSTER_VALUES = {
    "clusterPolicy": {"deployCR": False},
    "gpuCluster": {"deployCR": True},
    "driver": {"enabled": False},
}
GPU_CLUSTER = "gpu-cluster-keeps-off-device-plugin-pools"
OPTED_OUT = eks(labels={"nvidia.com/gpu.deploy.dra-driver": "false"})

Stack = list[tuple[str, dict[str, Any]]]


@pytest.mark.parametrize(
    ("policy", "stack", "expected"),
    [
        (OWNER, [(EKS, eks()), (RELEASE, operator())], "two NVIDIA driver owners: the EKS NVIDIA AMI"),
        (OWNER, [(EKS, eks()), (RELEASE, operator(NO_DRIVER))], None),
        (OWNER, [(EKS, eks(labels={"nvidia.com/gpu.deploy.driver": "false"})), (RELEASE, operator())], None),
        (OWNER, [(EKS, eks()), (RELEASE, plugin())], None),
        (OWNER, [(AKS, aks()), (RELEASE, operator())], "AKS (gpuProfile.driver='Install')"),
        (OWNER, [(AKS, aks(gpuProfile=None)), (RELEASE, operator())], "AKS (gpuProfile.driver='Install')"),
        (OWNER, [(AKS, aks(gpuProfile={"driver": "None"})), (RELEASE, operator())], None),
        (OWNER, [(AKS, aks(gpuProfile={"driver": "None"})), (RELEASE, operator(NO_DRIVER))], "no NVIDIA driver owner"),
        (
            OWNER,
            [(AKS_CLUSTER, {"resourceGroupName": "rg", "agentPoolProfiles": [aks(name="gpu")]}), (RELEASE, operator())],
            "agentPoolProfiles[0] (gpu)",
        ),
        (OWNER, [(GKE, gke()), (RELEASE, operator(NO_DRIVER))], "two device plugins: GKE"),
        (OWNER, [(GKE, gke()), (RELEASE, operator())], "GKE (gpuDriverVersion='DEFAULT')"),
        (OWNER, [(GKE, GKE_OPERATOR_POOL), (RELEASE, operator())], None),
        (OWNER, [(EKS, BOTTLEROCKET), (RELEASE, plugin())], "two device plugins: Bottlerocket NVIDIA"),
        (OWNER, [(EKS, BOTTLEROCKET), (RELEASE, operator(NO_DRIVER))], "two device plugins"),
        (OWNER, [(EKS, eks()), (GKE, gke())], None),
        (SERVED, [(EKS, eks())], "EKS NVIDIA AMIs ship the driver but no device plugin"),
        (SERVED, [(AKS, aks())], "AKS installs the driver but not the device plugin"),
        (SERVED, [(EKS, eks()), (RELEASE, plugin())], None),
        (SERVED, [(EKS, eks()), (RELEASE, operator(NO_DRIVER))], None),
        (SERVED, [(EKS, eks()), (RELEASE, operator({"devicePlugin": {"enabled": False}}))], "nothing in this stack"),
        (SERVED, [(EKS, eks()), (RELEASE, plugin({"nodeSelector": {"team": "other"}}))], "nothing in this stack"),
        (SERVED, [(EKS, BOTTLEROCKET)], None),
        (SERVED, [(GKE, gke())], None),
        (SERVED, [(GKE, GKE_OPERATOR_POOL)], "GKE's device plugin is off"),
        (SERVED, [(EKS, DRA_POOL)], "a DRA pool (gpuready.io/advertise=dra) and no dra-driver-nvidia-gpu Helm release"),
        (SERVED, [(EKS, DRA_POOL), (RELEASE, plugin())], "no dra-driver-nvidia-gpu Helm release"),
        (SERVED, [(EKS, DRA_POOL), (RELEASE, DRA_RELEASE)], None),
        (SERVED, [(EKS, eks()), (RELEASE, DRA_RELEASE)], "nothing in this stack advertises its GPUs"),
        # The GPU Operator's GPUCluster serves DRA pools and runs no device plugin (no ClusterPolicy).
        (SERVED, [(EKS, DRA_POOL), (RELEASE, operator(GPU_CLUSTER_VALUES))], None),
        (SERVED, [(EKS, eks()), (RELEASE, operator(GPU_CLUSTER_VALUES))], "nothing in this stack advertises"),
        (GPU_CLUSTER, [(EKS, DRA_POOL), (RELEASE, operator(GPU_CLUSTER_VALUES))], None),
        (GPU_CLUSTER, [(EKS, DRA_POOL), (EKS, OPTED_OUT), (RELEASE, operator(GPU_CLUSTER_VALUES))], None),
        (
            GPU_CLUSTER,
            [(EKS, DRA_POOL), (EKS, eks()), (RELEASE, operator(GPU_CLUSTER_VALUES))],
            "deploys a GPUCluster, whose operator runs the DRA kubelet plugin on every NVIDIA node",
        ),
        (
            GPU_CLUSTER,
            [(GKE, gke()), (RELEASE, operator(GPU_CLUSTER_VALUES))],
            "nvidia.com/gpu.deploy.dra-driver=false",
        ),
        (
            GPU_CLUSTER,
            [(EKS, DRA_POOL), (RELEASE, operator({"gpuCluster": {"deployCR": True}}))],
            "clusterPolicy.deployCR (true by default) are both on",
        ),
        (GPU_CLUSTER, [(EKS, eks()), (RELEASE, operator())], None),
        (OWNER, [(EKS, DRA_POOL), (RELEASE, operator(GPU_CLUSTER_VALUES))], None),
        (TOLERATED, [(EKS, eks()), (RELEASE, plugin())], None),
        (TOLERATED, [(EKS, eks()), (RELEASE, operator())], None),
        (
            TOLERATED,
            [
                (EKS, eks(taints=[{"key": "nvidia.com/gpu", "value": "true", "effect": "NO_SCHEDULE"}])),
                (RELEASE, plugin({"gfd": {"enabled": True}})),
            ],
            "values.nfd.worker.tolerations: does not tolerate taint nvidia.com/gpu=true:NoSchedule",
        ),
        (
            TOLERATED,
            [
                (
                    AKS,
                    aks(
                        nodeTaints=[
                            "nvidia.com/gpu=present:NoSchedule",
                            "kubernetes.azure.com/scalesetpriority=spot:NoSchedule",
                        ]
                    ),
                ),
                (RELEASE, operator(NO_DRIVER)),
            ],
            "values.daemonsets.tolerations",
        ),
        (
            TOLERATED,
            [
                (EKS, eks(taints=[{"key": "dedicated", "value": "batch", "effect": "PREFER_NO_SCHEDULE"}])),
                (RELEASE, plugin()),
            ],
            None,
        ),
        (
            TOLERATED,
            [
                (
                    EKS,
                    eks(
                        labels={"nvidia.com/gpu.deploy.operands": "false"},
                        taints=[{"key": "dedicated", "value": "x", "effect": "NO_SCHEDULE"}],
                    ),
                ),
                (RELEASE, operator(NO_DRIVER)),
            ],
            None,
        ),
        (MIG, [(EKS, eks()), (RELEASE, operator({"migManager": {"config": {"name": "custom"}}}))], "no GPU pool"),
        (MIG, [(EKS, eks()), (RELEASE, operator({"mig": {"strategy": "mixed"}}))], "L4"),
        (MIG, [(EKS, eks()), (RELEASE, operator())], None),  # the default MIG manager is harmless
        (MIG, [(EKS, H100), (RELEASE, operator({"mig": {"strategy": "mixed"}}))], None),
        (MIG, [(EKS, H100), (RELEASE, operator({"migManager": {"enabled": False}}))], "no GPU Operator release here"),
        (MIG, [(EKS, H100), (RELEASE, plugin())], "runs the MIG manager"),
        (MIG, [(EKS, H100)], None),  # the GPU stack may live in another stack
        (
            MIG,
            [
                (EKS, eks(instanceTypes=["p5.48xlarge"], labels={"nvidia.com/mig.config": "team"})),
                (RELEASE, operator()),
            ],
            "is not in the mig-parted config of release 'r1'",
        ),
        (
            MIG,
            [
                (EKS, eks(instanceTypes=["p5.48xlarge"], labels={"nvidia.com/mig.config": "team"})),
                (RELEASE, operator({"migManager": {"config": {"data": {"config.yaml": MIG_CONFIG}}}})),
            ],
            None,
        ),
    ],
)
def test_stack_rule(policy: str, stack: Stack, expected: str | None) -> None:
    found = messages(policy, stack)
    if expected is None:
        assert found == []
    else:
        assert found, f"{policy} found nothing"
        assert any(expected in m for m in found), found


def test_stack_findings_point_at_the_resource_to_fix() -> None:
    pool = resource(EKS, "gpu", eks(taints=[GPU_TAINT_TRUE]))
    release = resource(RELEASE, "nvdp", plugin({"gfd": {"enabled": True}}))
    found = [v for v in evaluate(pool, release) if v.policy == TOLERATED]
    assert [v.resource for v in found] == [release.urn]
    assert found[0].level == "mandatory"
    owner = [v for v in evaluate(pool, resource(RELEASE, "op", operator())) if v.policy == OWNER]
    assert [v.resource for v in owner] == [pool.urn]


def test_tolerating_with_exists_fixes_the_value_mismatch() -> None:
    values = {"gfd": {"enabled": True}, "nfd": {"worker": {"tolerations": [EXISTS]}}}
    assert messages(TOLERATED, [(EKS, eks(taints=[GPU_TAINT_TRUE])), (RELEASE, plugin(values))]) == []
