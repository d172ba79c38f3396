"""The pack's policies on how workloads ask for GPUs against how pools advertise them (device plugin or DRA)."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy, Severity

from gpuready.policy.rules import dra_workloads, gpu_cluster
from gpuready.policy.rules.charts import RELEASE
from gpuready.policy.rules.elastic_pools import ELASTIC_TYPES
from gpuready.policy.rules.gpu_pools import POOL_TYPES
from gpuready.policy.rules.workloads import WORKLOAD_TYPES
from gpuready.policy.scoped import ScopedStackPolicy

GPU_CLUSTER_URL = "https://github.com/NVIDIA/gpu-operator/blob/v26.7.0/controllers/nodelabeling_controller.go"

POLICIES: list[Policy] = [
    ScopedStackPolicy(
        name="gpu-workload-matches-pool-advertiser",
        description="GPU pods claim DRA devices only on DRA pools, request nvidia.com/gpu only on device-plugin pools, "
        "and never ask for GPUs both ways.",
        rules=[dra_workloads.advertiser_mismatch_findings],
        resource_types=WORKLOAD_TYPES | POOL_TYPES | dra_workloads.CLAIM_TYPES,
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.HIGH,
        url="https://kubernetes.io/docs/concepts/scheduling-eviction/dynamic-resource-allocation/",
        remediation_steps="On a pool with advertise: dra, claim GPUs through a ResourceClaimTemplate of DeviceClass "
        "gpu.nvidia.com or mig.nvidia.com (components.gpu_workload emits it); on a device-plugin pool, request "
        "nvidia.com/gpu in the limits; never both in one pod.",
    ),
    ScopedStackPolicy(
        name="gpu-cluster-keeps-off-device-plugin-pools",
        description="A GPU Operator release that deploys the GPUCluster (DRA) deploys no ClusterPolicy, and its DRA "
        "kubelet plugin reaches no GPU pool that advertises by a device plugin.",
        rules=[gpu_cluster.gpu_cluster_findings],
        resource_types=POOL_TYPES | ELASTIC_TYPES | {RELEASE},
        requires_types=[RELEASE],
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.HIGH,
        url=GPU_CLUSTER_URL,
        remediation_steps="Set clusterPolicy.deployCR: false beside gpuCluster.deployCR: true; give every GPU pool "
        "of the cluster advertise: dra, or label a device-plugin pool nvidia.com/gpu.deploy.dra-driver=false.",
    ),
]
"""The DRA policies, appended to ``policies.POLICIES``."""
