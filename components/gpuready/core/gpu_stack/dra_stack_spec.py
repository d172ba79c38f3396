"""What the DRA GPU stacks (``dra-driver``, ``gpu-operator-dra``) need of the cluster and refuse of a spec. Pure.

Both serve DRA pools with NVIDIA's DRA driver over ``resource.k8s.io/v1``, so both need the cluster's Kubernetes
version (``clusterVersion``), at least 1.34; each lacks some parts of the device-plugin stacks, whose settings are
refused rather than silently ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gpuready.core.binpack.scheduler_version import CLUSTER_VERSION
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.gpu_stack.stack_spec import GpuStackSpec

DRA_MIN_MINOR = 34
"""Kubernetes 1.34 made Dynamic Resource Allocation GA (``resource.k8s.io/v1``, on by default; kubernetes.io
blog "Kubernetes v1.34: DRA has graduated to GA", 2025-09-01, and the "Dynamic Resource Allocation" concept page).
gpuready's DRA stack emits only ``resource.k8s.io/v1`` objects, which older API servers do not serve."""
DRA_RESOURCE_API = "resource.k8s.io/v1"

_GPU_CLUSTER_STATES = "GPU Operator v26.7.0 newGPUClusterStates: DRA driver, DCGM, DCGM exporter, DRA validator"
_DRA_STACK_LACKS: Mapping[str, Mapping[str, str]] = {
    "dra-driver": {
        "nfd": "the DRA driver chart has no node-feature-discovery subchart",
        "gfd": "the DRA driver chart has no GPU Feature Discovery",
        "migReboot": "the DRA driver chart has no MIG manager",
        "monitoring": "the DRA driver chart has no DCGM exporter",
    },
    "gpu-operator-dra": {
        "gfd": f"the GPUCluster stack runs no GPU Feature Discovery ({_GPU_CLUSTER_STATES})",
        "migReboot": f"the GPUCluster stack runs no MIG manager ({_GPU_CLUSTER_STATES})",
    },
}
"""What each DRA stack does not run, so the release setting about it is refused rather than ignored."""


def dra_stack_problems(spec: GpuStackSpec, prefix: str) -> list[Problem]:
    """``clusterVersion`` (DRA stacks only, 1.34+) and the settings of parts a DRA stack does not run."""
    path = f"{prefix}.clusterVersion"
    if not spec.advertises_by_dra:
        if spec.cluster_version is None:
            return []
        return [
            Problem(
                path,
                "only the DRA GPU stacks (dra-driver, gpu-operator-dra) read the cluster's version",
                spec.cluster_version,
                (),
                "remove it",
            )
        ]
    absent = _DRA_STACK_LACKS[spec.kind]
    problems = [
        Problem(f"{prefix}.{key}", f"{absent[key]}, so {key} would do nothing", value, (), f"remove {key}")
        for key, value in (
            ("nfd", None if spec.nfd == "deploy" else spec.nfd),
            ("gfd", None if spec.gfd else spec.gfd),
            ("migReboot", None if spec.mig_reboot else spec.mig_reboot),
            ("monitoring", spec.monitoring),
        )
        if value is not None and key in absent
    ]
    minor = dra_cluster_minor(spec.cluster_version)
    if minor is None or minor < DRA_MIN_MINOR:
        why = (
            "required: the DRA driver needs Kubernetes 1.34 or newer (resource.k8s.io/v1 is GA from 1.34)"
            if spec.cluster_version is None
            else "is not a Kubernetes version"
            if minor is None
            else f"is older than 1.{DRA_MIN_MINOR}: gpuready's DRA stack uses resource.k8s.io/v1, GA and served from "
            f"Kubernetes 1.{DRA_MIN_MINOR} (kubernetes.io, Dynamic Resource Allocation)"
        )
        problems.append(
            Problem(
                path,
                why,
                spec.cluster_version,
                ("1.34", "v1.34.1", "1.34.1-eks-1a2b3c"),
                "set clusterVersion to the server version kubectl version prints; upgrade the cluster to 1.34+ first, "
                "or use gpuStack.kind gpu-operator / device-plugin on older clusters",
            )
        )
    return problems


def dra_cluster_minor(version: str | None) -> int | None:
    """The minor of a Kubernetes version as the cluster reports it (``1.34``, ``v1.34.1-gke.100``); None if none."""
    match = CLUSTER_VERSION.match(version or "")
    return int(match.group(1)) if match else None
