"""The policies of the ``gpuready-gpu-conventions`` pack: the pure rules wrapped as pulumi_policy objects.

Importable anywhere (tests, the offline analyzer): nothing here constructs ``PolicyPack``. Each policy
knows the resource types it reads (``resource_types``), so an analyzer may skip resources no policy
looks at; the engine, which sends everything, gets the same answers.
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy, Severity

from gpuready.core.conventions import GPU_TAINT_PROPERTY, GPU_TAINT_SCHEMA, SKYPILOT_PROPERTY, SKYPILOT_SCHEMA
from gpuready.policy import (
    capacity_policies,
    cross_policies,
    dra_policies,
    elastic_policies,
    fabric_policies,
    health_policies,
    lifecycle_policies,
    placement_policies,
    scale_policies,
    stack_policies,
)
from gpuready.policy.rules import elastic, gpu_configs, helm_releases, pools, workloads
from gpuready.policy.rules.charts import DEFAULT_ALLOWED_VERSIONS, FABRIC_CHART_VERSIONS, INSTALL_TYPES, RELEASE
from gpuready.policy.rules.elastic_pools import ELASTIC_TYPES
from gpuready.policy.rules.gpu_pools import IMAGE_TYPES, POOL_TYPES, SHARING_TYPES
from gpuready.policy.rules.workloads import WORKLOAD_TYPES
from gpuready.policy.scoped import ScopedResourcePolicy

PACK_NAME = "gpuready-gpu-conventions"
PACK_DESCRIPTION = "GPU node pool, GPU stack and GPU workload conventions for EKS, AKS and GKE (gpuready)."

MANDATORY, ADVISORY = EnforcementLevel.MANDATORY, EnforcementLevel.ADVISORY

_STRING_LIST = {"type": "array", "items": {"type": "string"}}

POLICIES: list[Policy] = [
    ScopedResourcePolicy(
        name="gpu-node-pool-requires-gpu-taint",
        description="GPU node pools carry the nvidia.com/gpu NoSchedule taint, so only GPU pods land on GPU nodes.",
        rules=[pools.gpu_taint_problems, elastic.taint_problems],
        resource_types=POOL_TYPES | ELASTIC_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.HIGH,
        url="https://github.com/hashicorp/terraform-provider-google/issues/7928",
        remediation_steps="Add the taint nvidia.com/gpu=present:NoSchedule in the pool API's own encoding: EKS "
        "taints {key, value, effect: NO_SCHEDULE}; AKS nodeTaints 'nvidia.com/gpu=present:NoSchedule'; GKE "
        "nodeConfig.taints {key, value: present, effect: NO_SCHEDULE}; Karpenter NodePool "
        "spec.template.spec.taints and GKE ComputeClass spec.nodePoolConfig.taints {key, value: present, "
        "effect: NoSchedule}.",
        config={GPU_TAINT_PROPERTY: GPU_TAINT_SCHEMA},
    ),
    ScopedResourcePolicy(
        name="gpu-node-pool-requires-gpu-labels",
        description="GPU node pools carry the canonical GPU labels from creation; accelerator labels match the GPU.",
        rules=[pools.gpu_label_problems],
        resource_types=POOL_TYPES,
        enforcement_level=ADVISORY,
        severity=Severity.MEDIUM,
        url="https://github.com/NVIDIA/nvkind/issues/20",
        remediation_steps="Add the labels in requiredLabelKeys to the pool's node labels (EKS labels, AKS "
        "nodeLabels, GKE nodeConfig.labels), e.g. nvidia.com/gpu.present=true and gpuready.io/accelerator=<gpu>.",
        config={
            SKYPILOT_PROPERTY: SKYPILOT_SCHEMA,
            "requiredLabelKeys": {
                **_STRING_LIST,
                "default": list(pools.DEFAULT_REQUIRED_LABELS),
                "description": "Label keys every GPU pool must set.",
            },
        },
    ),
    ScopedResourcePolicy(
        name="eks-gpu-node-group-requires-nvidia-ami",
        description="EKS GPU node groups use a current NVIDIA AMI type (not a standard AMI, not AL2_x86_64_GPU).",
        rules=[pools.pool_image_problems],
        resource_types=IMAGE_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.HIGH,
        url="https://github.com/awslabs/amazon-eks-ami/issues/2545",
        remediation_steps="Set amiType to AL2023_x86_64_NVIDIA (AL2023_ARM_64_NVIDIA on Graviton) or "
        "BOTTLEROCKET_x86_64_NVIDIA.",
    ),
    ScopedResourcePolicy(
        name="gpu-mig-profiles-valid",
        description="MIG profiles and layouts exist on the GPU they target.",
        rules=[pools.pool_mig_problems, gpu_configs.mig_parted_problems],
        resource_types=POOL_TYPES | INSTALL_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.HIGH,
        url="https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html",
        remediation_steps="Use a profile of the pool's GPU: AKS gpuInstanceProfile MIG1g..MIG7g on A100/H100/H200 "
        "sizes, GKE gpuPartitionSize such as 1g.5gb (A100 40GB) or 1g.10gb (80GB parts), and mig-parted layouts "
        "that fit one GPU.",
    ),
    ScopedResourcePolicy(
        name="gpu-sharing-replicas-within-bounds",
        description="GPU time-slicing / MPS replicas are whole numbers from 2 to maxReplicas.",
        rules=[pools.pool_sharing_problems, gpu_configs.plugin_config_problems],
        resource_types=SHARING_TYPES | INSTALL_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.MEDIUM,
        url="https://github.com/NVIDIA/k8s-device-plugin/blob/main/README.md#shared-access-to-gpus",
        remediation_steps="Set GKE maxSharedClientsPerGpu and device-plugin sharing replicas between 2 and "
        "maxReplicas; put renameByDefault / failRequestsGreaterThanOne under sharing.timeSlicing.",
        config=gpu_configs.MAX_REPLICAS_CONFIG,
    ),
    ScopedResourcePolicy(
        name="gpu-helm-release-version-pinned",
        description="GPU Operator, device-plugin and fabric (Network Operator, EFA device plugin) Helm releases pin "
        "an allowed chart version.",
        rules=[helm_releases.version_problems],
        resource_types=INSTALL_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.MEDIUM,
        url="https://github.com/NVIDIA/gpu-operator/releases",
        remediation_steps="Set version to an allowed chart version (gpu-operator 'v26.7.0', nvidia-device-plugin "
        "'0.20.0' by default).",
        config={
            "allowedVersions": {
                "type": "object",
                "additionalProperties": _STRING_LIST,
                "default": {
                    chart: list(versions)
                    for chart, versions in {**DEFAULT_ALLOWED_VERSIONS, **FABRIC_CHART_VERSIONS}.items()
                },
                "description": "Chart name (gpu-operator, nvidia-device-plugin, and the fabric charts "
                f"{', '.join(sorted(FABRIC_CHART_VERSIONS))}) -> allowed chart versions.",
            }
        },
    ),
    ScopedResourcePolicy(
        name="gpu-helm-release-not-in-default-namespace",
        description="GPU Operator and device-plugin Helm releases install into their own namespace.",
        rules=[helm_releases.namespace_problems],
        resource_types=INSTALL_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.MEDIUM,
        url="https://github.com/NVIDIA/k8s-device-plugin/blob/main/deployments/helm/nvidia-device-plugin/values.yaml",
        remediation_steps="Set namespace (gpu-operator / nvidia-device-plugin) and createNamespace: true.",
    ),
    ScopedResourcePolicy(
        name="gpu-helm-release-timeout",
        description="GPU Operator and device-plugin Helm releases wait long enough for their DaemonSets to roll out.",
        rules=[helm_releases.timeout_problems],
        resource_types=[RELEASE],
        enforcement_level=MANDATORY,
        severity=Severity.MEDIUM,
        url="https://github.com/METR/hawk/pull/1363",
        remediation_steps="Set timeout to minTimeoutSeconds or more (Helm's default is 300 s), or skipAwait: true.",
        config={
            "minTimeoutSeconds": {
                "type": "integer",
                "minimum": 1,
                "default": helm_releases.DEFAULT_MIN_TIMEOUT_SECONDS,
                "description": "Shortest acceptable Helm timeout, in seconds.",
            }
        },
    ),
    ScopedResourcePolicy(
        name="gpu-helm-release-nfd-values-key",
        description="NFD settings use the chart's key (node-feature-discovery.* in gpu-operator, nfd.* in the "
        "device plugin); the other spelling is silently ignored.",
        rules=[helm_releases.nfd_key_problems],
        resource_types=INSTALL_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.HIGH,
        url="https://github.com/NVIDIA/gpu-operator/blob/main/deployments/gpu-operator/values.yaml",
        remediation_steps="gpu-operator: move nfd.worker.* to node-feature-discovery.worker.*; nvidia-device-plugin: "
        "move node-feature-discovery.* to nfd.*.",
    ),
    ScopedResourcePolicy(
        name="gpu-helm-release-nfd-worker-restricted",
        description="The NFD worker of a GPU release is restricted to GPU pools by a label they carry from creation.",
        rules=[helm_releases.nfd_selector_problems],
        resource_types=INSTALL_TYPES,
        enforcement_level=ADVISORY,
        severity=Severity.LOW,
        url="https://github.com/NVIDIA/gpu-operator/issues/728",
        remediation_steps="Set <nfd key>.worker.nodeSelector to a pool label such as gpuready.io/gpu-pool: 'true'; "
        "never to feature.node.kubernetes.io/* labels, which NFD itself writes.",
    ),
    ScopedResourcePolicy(
        name="gpu-helm-release-tolerations-use-exists",
        description="GPU-stack DaemonSets tolerate nvidia.com/gpu with operator Exists, whatever the taint's value.",
        rules=[helm_releases.toleration_problems],
        resource_types=INSTALL_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.HIGH,
        url="https://github.com/NVIDIA/k8s-device-plugin/issues/1934",
        remediation_steps="Include {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule} in "
        "daemonsets.tolerations "
        "and node-feature-discovery.worker.tolerations (gpu-operator), tolerations and nfd.worker.tolerations "
        "(nvidia-device-plugin).",
        config={GPU_TAINT_PROPERTY: GPU_TAINT_SCHEMA},
    ),
    ScopedResourcePolicy(
        name="gpu-workload-gpu-limits-whole",
        description="Workloads request whole GPUs, with requests equal to limits.",
        rules=[workloads.quantity_problems],
        resource_types=WORKLOAD_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.HIGH,
        url="https://kubernetes.io/docs/tasks/manage-gpus/scheduling-gpus/",
        remediation_steps="Set limits nvidia.com/gpu to a whole number (1, 2, ...) and drop requests or make them "
        "equal; share GPUs through time-slicing, MPS or MIG on the pool instead of fractions.",
    ),
    ScopedResourcePolicy(
        name="gpu-workload-tolerates-gpu-taint",
        description="Pods that request GPUs tolerate the GPU taint themselves (AKS has no ExtendedResourceToleration).",
        rules=[workloads.toleration_problems],
        resource_types=WORKLOAD_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.HIGH,
        url="https://github.com/Azure/AKS/issues/1449",
        remediation_steps="Add {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule} to the pod's tolerations.",
        config={GPU_TAINT_PROPERTY: GPU_TAINT_SCHEMA},
    ),
    ScopedResourcePolicy(
        name="gpu-workload-mig-resource-exists",
        description="Workloads request nvidia.com/mig-<profile> only for profiles some MIG GPU has.",
        rules=[workloads.mig_resource_problems],
        resource_types=WORKLOAD_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.HIGH,
        url="https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-mig.html",
        remediation_steps="Request a MIG resource of the target pool's GPU, e.g. nvidia.com/mig-1g.10gb on 80GB parts.",
    ),
    ScopedResourcePolicy(
        name="non-gpu-workload-avoids-gpu-taint",
        description="Pods that request no GPU do not tolerate the GPU taint (DaemonSets excepted).",
        rules=[workloads.non_gpu_toleration_problems],
        resource_types=WORKLOAD_TYPES,
        enforcement_level=ADVISORY,
        severity=Severity.LOW,
        url="https://github.com/terraform-google-modules/terraform-google-kubernetes-engine/issues/703",
        remediation_steps="Remove the nvidia.com/gpu (or catch-all) toleration from pods that do not use GPUs.",
        config={GPU_TAINT_PROPERTY: GPU_TAINT_SCHEMA},
    ),
    *stack_policies.POLICIES,
    *placement_policies.POLICIES,
    *fabric_policies.POLICIES,
    *elastic_policies.POLICIES,
    *lifecycle_policies.POLICIES,
    *dra_policies.POLICIES,
    *scale_policies.POLICIES,
    *health_policies.POLICIES,
    *cross_policies.POLICIES,
    *capacity_policies.POLICIES,
]
"""Every policy of the pack, in the order ``PolicyPack`` lists them."""
