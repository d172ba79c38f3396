"""The ResourceQuota a GPU stack's namespace needs on GKE for its node-critical pods. Pure."""

from __future__ import annotations

from collections.abc import Sequence

from gpuready.core.gpu_stack.stack_objects import MANAGED_BY, ResourceQuotaObject
from gpuready.core.specs import GpuPoolSpec

QUOTA_NAME = "gpu-operator-quota"
CRITICAL_PRIORITY_CLASSES = ("system-node-critical", "system-cluster-critical")
OPERAND_PODS_PER_NODE = 12
"""Driver, toolkit, device plugin, GFD, DCGM exporter, validator, MIG manager, NFD worker and a margin."""
MIN_QUOTA_PODS = 100
"""NVIDIA's own quota allows 100 pods (cloud-native-docs ``google-gke-gpu-operator-quota.yaml``)."""


def priority_quota(namespace_name: str, pools: Sequence[GpuPoolSpec]) -> ResourceQuotaObject:
    """GKE admits ``system-node-critical`` / ``system-cluster-critical`` pods outside ``kube-system`` only under a
    ResourceQuota scoped to those classes (cloud-native-docs ``google-gke.rst``; NVIDIA/gpu-operator#660); its pod
    limit grows with the pools' maximum size."""
    nodes = sum(p.max_size for p in pools)
    pods = max(MIN_QUOTA_PODS, OPERAND_PODS_PER_NODE * nodes + 20)
    manifest = {
        "apiVersion": "v1",
        "kind": "ResourceQuota",
        "metadata": {"name": QUOTA_NAME, "namespace": namespace_name, "labels": dict(MANAGED_BY)},
        "spec": {
            "hard": {"pods": str(pods)},
            "scopeSelector": {
                "matchExpressions": [
                    {"operator": "In", "scopeName": "PriorityClass", "values": list(CRITICAL_PRIORITY_CLASSES)}
                ]
            },
        },
    }
    return ResourceQuotaObject(manifest=manifest)
