"""The pack's policies across resources of every kind that install GPU software (Releases, v3 / v4 Charts, raw
DaemonSets, the ConfigMaps they read): one device plugin per pool, charts no rule can read, sharing bounds in a
referenced ConfigMap, NFD once and not on every node."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy, Severity

from gpuready.policy.rules import cross_resource, gpu_configs
from gpuready.policy.rules.charts import CHART_V3, CHART_V4, INSTALL_TYPES
from gpuready.policy.rules.elastic_pools import ELASTIC_TYPES
from gpuready.policy.rules.gpu_pools import POOL_TYPES
from gpuready.policy.rules.stack import CONFIG_MAP
from gpuready.policy.scoped import ScopedResourcePolicy, ScopedStackPolicy

_POOLS_AND_INSTALLS = POOL_TYPES | ELASTIC_TYPES | cross_resource.TYPES

POLICIES: list[Policy] = [
    ScopedStackPolicy(
        name="gpu-pool-one-device-plugin",
        description="Each GPU pool gets one device plugin across every Release, Chart and DaemonSet of the stack.",
        rules=[cross_resource.device_plugin_findings],
        resource_types=_POOLS_AND_INSTALLS,
        requires_types=INSTALL_TYPES | {cross_resource.DAEMON_SET},
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.HIGH,
        url="https://github.com/NVIDIA/k8s-device-plugin#deployment-via-helm",
        remediation_steps="Keep one device plugin per pool: set devicePlugin.enabled: false in the gpu-operator "
        "release when the nvidia-device-plugin chart or a DaemonSet runs it, or keep the plugin's nodeSelector off "
        "the operator's pools.",
    ),
    ScopedStackPolicy(
        name="gpu-helm-chart-readable",
        description="Helm chart resources the GPU rules cannot read (their values are not inputs) are named.",
        rules=[cross_resource.unreadable_chart_findings],
        resource_types=INSTALL_TYPES,
        requires_types=[CHART_V3, CHART_V4],
        enforcement_level=EnforcementLevel.ADVISORY,
        severity=Severity.LOW,
        url="https://www.pulumi.com/registry/packages/kubernetes/api-docs/helm/v4/chart/",
        remediation_steps="Install GPU charts with kubernetes:helm.sh/v4:Chart or kubernetes:helm.sh/v3:Release, "
        "whose chart and values are inputs the policies read.",
    ),
    ScopedStackPolicy(
        name="gpu-sharing-config-map-within-bounds",
        description="Time-slicing / MPS replicas in the ConfigMap a GPU release references are whole numbers from 2 "
        "to maxReplicas.",
        rules=[cross_resource.config_map_sharing_findings],
        resource_types=INSTALL_TYPES | {CONFIG_MAP},
        requires_types=[CONFIG_MAP],
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.MEDIUM,
        url="https://github.com/NVIDIA/k8s-device-plugin/blob/main/README.md#shared-access-to-gpus",
        remediation_steps="Set sharing.timeSlicing / sharing.mps replicas between 2 and maxReplicas in the ConfigMap "
        "that values.config.name (device plugin) or devicePlugin.config.name (gpu-operator) names.",
        config=gpu_configs.MAX_REPLICAS_CONFIG,
    ),
    ScopedStackPolicy(
        name="gpu-nfd-deployed-once",
        description="Node Feature Discovery is deployed once: a chart of its own, or a GPU chart's NFD, not both.",
        rules=[cross_resource.nfd_findings],
        resource_types=INSTALL_TYPES,
        requires_types=INSTALL_TYPES,
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.MEDIUM,
        url="https://github.com/NVIDIA/gpu-operator/blob/v26.7.0/deployments/gpu-operator/values.yaml",
        remediation_steps="Set nfd.enabled: false in the gpu-operator / nvidia-device-plugin release when NFD has a "
        "chart of its own, or drop that chart.",
    ),
    ScopedResourcePolicy(
        name="gpu-nfd-chart-restricted",
        description="A Node Feature Discovery chart of its own restricts its worker to the nodes it must label.",
        rules=[cross_resource.nfd_everywhere_problems],
        resource_types=INSTALL_TYPES,
        enforcement_level=EnforcementLevel.ADVISORY,
        severity=Severity.LOW,
        url="https://kubernetes-sigs.github.io/node-feature-discovery/v0.20/get-started/quick-start.html",
        remediation_steps="Set values.worker.nodeSelector to a GPU pool label such as gpuready.io/gpu-pool: 'true'.",
    ),
]
"""The cross-resource policies, appended to ``policies.POLICIES``."""
