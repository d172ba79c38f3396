"""The pack's policies on how workloads ask for GPUs against how pools advertise them (device plugin or DRA)."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy, Severity

from policies.gpu_conventions.rules import dra_workloads
from policies.gpu_conventions.rules.gpu_pools import POOL_TYPES
from policies.gpu_conventions.rules.workloads import WORKLOAD_TYPES
from policies.gpu_conventions.scoped import ScopedStackPolicy

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
]
"""The DRA policies, appended to ``policies.POLICIES``."""
