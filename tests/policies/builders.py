"""Raw resource props (provider wire names, camelCase) of correct GPU resources, with per-test changes.

``None`` as a change removes the key.
"""

from __future__ import annotations

from typing import Any

EKS = "aws:eks/nodeGroup:NodeGroup"
AKS = "azure-native:containerservice:AgentPool"
AKS_CLUSTER = "azure-native:containerservice:ManagedCluster"
GKE = "gcp:container/nodePool:NodePool"
RELEASE = "kubernetes:helm.sh/v3:Release"
GPU_TAINT_API = {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}
EXISTS = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
POOL_SELECTOR = {"gpuready.io/gpu-pool": "true"}


def _apply(props: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    props.update(changes)
    return {k: v for k, v in props.items() if v is not None}


def eks(**changes: Any) -> dict[str, Any]:
    """An L4 node group on AL2023 NVIDIA with the GPU taint and labels."""
    return _apply(
        {
            "clusterName": "ml",
            "nodeRoleArn": "arn:aws:iam::123456789012:role/gpu",
            "subnetIds": ["subnet-a"],
            "instanceTypes": ["g6.xlarge"],
            "amiType": "AL2023_x86_64_NVIDIA",
            "scalingConfig": {"minSize": 0, "maxSize": 2, "desiredSize": 1},
            "labels": {"nvidia.com/gpu.present": "true", "gpuready.io/accelerator": "l4", **POOL_SELECTOR},
            "taints": [GPU_TAINT_API],
        },
        changes,
    )


def aks(**changes: Any) -> dict[str, Any]:
    """An A100 80GB agent pool with the AKS-installed driver, the GPU taint and labels."""
    return _apply(
        {
            "resourceGroupName": "rg",
            "resourceName": "aks",
            "agentPoolName": "a100",
            "vmSize": "Standard_NC24ads_A100_v4",
            "count": 1,
            "nodeTaints": ["nvidia.com/gpu=present:NoSchedule"],
            "nodeLabels": {"nvidia.com/gpu.present": "true", "gpuready.io/accelerator": "a100-80gb", **POOL_SELECTOR},
            "gpuProfile": {"driver": "Install"},
        },
        changes,
    )


def gke(accelerator: dict[str, Any] | None = None, **node_config: Any) -> dict[str, Any]:
    """An A100 40GB node pool with GKE's default driver, the GPU taint and labels."""
    config = _apply(
        {
            "machineType": "a2-highgpu-1g",
            "guestAccelerators": [{"type": "nvidia-tesla-a100", "count": 1, **(accelerator or {})}],
            "taints": [GPU_TAINT_API],
            "labels": {"nvidia.com/gpu.present": "true", "gpuready.io/accelerator": "a100", **POOL_SELECTOR},
        },
        node_config,
    )
    return {"cluster": "ml", "location": "us-central1-a", "nodeConfig": config}


def operator(values: dict[str, Any] | None = None, **changes: Any) -> dict[str, Any]:
    """A pinned GPU Operator release with its NFD worker restricted to GPU pools (driver left on)."""
    default_values = {"node-feature-discovery": {"worker": {"nodeSelector": POOL_SELECTOR}}}
    return _apply(
        {
            "chart": "gpu-operator",
            "version": "v26.7.0",
            "namespace": "gpu-operator",
            "createNamespace": True,
            "timeout": 1800,
            "repositoryOpts": {"repo": "https://helm.ngc.nvidia.com/nvidia"},
            "values": values if values is not None else default_values,
        },
        changes,
    )


def plugin(values: dict[str, Any] | None = None, **changes: Any) -> dict[str, Any]:
    """A pinned device-plugin release with GFD (and so NFD), NFD restricted and tolerating with Exists."""
    default_values = {
        "gfd": {"enabled": True},
        "nfd": {"worker": {"nodeSelector": POOL_SELECTOR, "tolerations": [EXISTS]}},
    }
    return _apply(
        {
            "chart": "nvidia-device-plugin",
            "version": "0.20.0",
            "namespace": "nvidia-device-plugin",
            "timeout": 900,
            "values": values if values is not None else default_values,
        },
        changes,
    )
