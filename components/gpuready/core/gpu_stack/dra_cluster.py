"""What the DRA GPU stacks (``dra-driver``, ``gpu-operator-dra``) need of the cluster. Pure.

Both serve DRA pools with NVIDIA's DRA driver over ``resource.k8s.io/v1``, so both need the cluster's Kubernetes
version (``clusterVersion``), at least 1.34. (What each lacks of the device-plugin stacks is its kind's
``GpuStackKind.refused``, in ``kinds``.)
"""

from __future__ import annotations

from gpuready.core.binpack.scheduler_version import CLUSTER_VERSION
from gpuready.errors import Problem

DRA_MIN_MINOR = 34
"""Kubernetes 1.34 made Dynamic Resource Allocation GA (``resource.k8s.io/v1``, on by default; kubernetes.io
blog "Kubernetes v1.34: DRA has graduated to GA", 2025-09-01, and the "Dynamic Resource Allocation" concept page).
gpuready's DRA stack emits only ``resource.k8s.io/v1`` objects, which older API servers do not serve."""
DRA_RESOURCE_API = "resource.k8s.io/v1"


def cluster_version_problems(serves_dra: bool, cluster_version: str | None, path: str) -> list[Problem]:
    """``clusterVersion``: read by the stack kinds that serve DRA pools only, which need 1.34+."""
    if not serves_dra:
        if cluster_version is None:
            return []
        return [
            Problem(
                path,
                "only the DRA GPU stacks (dra-driver, gpu-operator-dra) read the cluster's version",
                cluster_version,
                (),
                "remove it",
            )
        ]
    minor = dra_cluster_minor(cluster_version)
    if minor is not None and minor >= DRA_MIN_MINOR:
        return []
    why = (
        "required: the DRA driver needs Kubernetes 1.34 or newer (resource.k8s.io/v1 is GA from 1.34)"
        if cluster_version is None
        else "is not a Kubernetes version"
        if minor is None
        else f"is older than 1.{DRA_MIN_MINOR}: gpuready's DRA stack uses resource.k8s.io/v1, GA and served from "
        f"Kubernetes 1.{DRA_MIN_MINOR} (kubernetes.io, Dynamic Resource Allocation)"
    )
    return [
        Problem(
            path,
            why,
            cluster_version,
            ("1.34", "v1.34.1", "1.34.1-eks-1a2b3c"),
            "set clusterVersion to the server version kubectl version prints; upgrade the cluster to 1.34+ first, "
            "or use gpuStack.kind gpu-operator / device-plugin on older clusters",
        )
    ]


def dra_cluster_minor(version: str | None) -> int | None:
    """The minor of a Kubernetes version as the cluster reports it (``1.34``, ``v1.34.1-gke.100``); None if none."""
    match = CLUSTER_VERSION.match(version or "")
    return int(match.group(1)) if match else None
