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


NODE_POOL = "kubernetes:karpenter.sh/v1:NodePool"
COMPUTE_CLASS = "kubernetes:cloud.google.com/v1:ComputeClass"
K8S_GPU_TAINT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}


def node_pool(
    requirements: list[dict[str, Any]] | None = None, template: dict[str, Any] | None = None, **spec: Any
) -> dict[str, Any]:
    """A Karpenter NodePool of L4 instances on an EC2NodeClass: GPU taint and labels, a GPU limit, WhenEmpty."""
    template_spec = _apply(
        {
            "nodeClassRef": {"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "l4"},
            "requirements": requirements
            if requirements is not None
            else [{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["g6.xlarge"]}],
            "taints": [K8S_GPU_TAINT],
        },
        template or {},
    )
    body = _apply(
        {
            "template": {"metadata": {"labels": {"nvidia.com/gpu.present": "true", **POOL_SELECTOR}},
                         "spec": template_spec},
            "limits": {"nvidia.com/gpu": "4"},
            "disruption": {"consolidationPolicy": "WhenEmpty", "consolidateAfter": "10m"},
        },
        spec,
    )  # fmt: skip
    return {"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "metadata": {"name": "l4"}, "spec": body}


def compute_class(priorities: list[dict[str, Any]] | None = None, **config: Any) -> dict[str, Any]:
    """A GKE ComputeClass of L4 machines with node-pool auto-creation, the GPU taint and labels."""
    pool_config = _apply(
        {"imageType": "cos_containerd", "nodeLabels": {"nvidia.com/gpu.present": "true", **POOL_SELECTOR},
         "taints": [K8S_GPU_TAINT]},
        config,
    )  # fmt: skip
    rules = priorities if priorities is not None else [
        {"machineType": "g2-standard-8", "gpu": {"type": "nvidia-l4", "count": 1, "driverVersion": "default"}}
    ]  # fmt: skip
    return {
        "apiVersion": "cloud.google.com/v1",
        "kind": "ComputeClass",
        "metadata": {"name": "l4"},
        "spec": {"priorities": rules, "nodePoolAutoCreation": {"enabled": True}, "nodePoolConfig": pool_config},
    }
