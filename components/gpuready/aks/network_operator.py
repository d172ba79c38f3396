"""AKS InfiniBand: NVIDIA's Network Operator release, its NicClusterPolicy, and what pods ask for. Pure.

The route is Azure/aks-rdma-infiniband's (``aks.fabric.RECIPE``): NVIDIA's Network Operator (chart
``network-operator`` 26.1.2, Mellanox/network-operator ``deployment/network-operator/`` at tag ``v26.1.2``, from
NVIDIA's NGC Helm repository) runs the DOCA/OFED driver and the RDMA shared device plugin from a
``NicClusterPolicy``; the GPU Operator owns the GPU driver with ``driver.rdma.enabled`` (GPUDirect RDMA,
``configs/values/gpu-operator/values.yaml`` L3-6).

- Release values: no NFD of its own (``nfd.enabled: false``, no NodeFeatureRules): the GPU Operator's NFD labels the
  nodes, as the recipe keeps one NFD (its GPU Operator values L1-2 switch one off); the operator's DaemonSets
  tolerate the pools' taints besides the chart's defaults (``operator.tolerations``, values.yaml L226-236).
- ``NicClusterPolicy`` (``mellanox.com/v1alpha1``, CRD in the chart's ``crds/``): on the InfiniBand pools' nodes
  (gpuready's pool label, not NFD's ``pci-15b3`` label), tolerating their taints; ``ofedDriver`` and
  ``rdmaSharedDevicePlugin`` at the versions the operator release pins (Mellanox/network-operator v26.1.2
  ``hack/release.yaml`` L50-53 ``Mofed``, L58-63 ``RdmaSharedDevicePlugin``); the device plugin's config is the
  recipe's (``configs/nicclusterpolicy/rdma-shared-device-plugin/rdma.yaml`` L15-27: ``shared_ib``, up to 63 pods
  per HCA, Mellanox vendor ``15b3``, InfiniBand links).
- Pods ask for ``rdma/shared_ib`` (the plugin's default resource prefix ``rdma``, Mellanox/k8s-rdma-shared-dev-plugin
  README, "Configuration": ``resourcePrefix``) and need the ``IPC_LOCK`` capability to pin memory (the recipe's test
  jobs, ``tests/scenarios/k8s/templates/worker-job.yaml``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gpuready.aks.fabric import INFINIBAND
from gpuready.core.gpu_stack.chart_facts import chart_values

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

CHART = "network-operator"
VERSION = "26.1.2"
REPOSITORY = "https://helm.ngc.nvidia.com/nvidia"
NAMESPACE = "nvidia-network-operator"
RELEASE = "network-operator"
MELLANOX = "nvcr.io/nvidia/mellanox"
OFED_DRIVER = {"repository": MELLANOX, "image": "doca-driver", "version": "doca3.3.0-26.01-1.0.0.0-0"}
RDMA_PLUGIN = {"repository": MELLANOX, "image": "k8s-rdma-shared-dev-plugin", "version": "network-operator-v26.1.2"}
RESOURCE_NAME = "shared_ib"
RDMA_RESOURCE = f"rdma/{RESOURCE_NAME}"
RDMA_HCA_MAX = 63
"""Pods sharing one HCA (the recipe's ``rdmaHcaMax``): what a node advertises of ``rdma/shared_ib``."""
RDMA_PLUGIN_CONFIG = {
    "configList": [
        {
            "resourceName": RESOURCE_NAME,
            "rdmaHcaMax": RDMA_HCA_MAX,
            "selectors": {"vendors": ["15b3"], "linkTypes": ["infiniband"]},
        }
    ]
}


def infiniband_pools(pools: Sequence[GpuPoolSpec]) -> list[GpuPoolSpec]:
    return [p for p in pools if p.fabric is not None and p.resolved.gpu.instance_type in INFINIBAND]


def release_values(pool_tolerations: Sequence[Mapping[str, str]]) -> dict[str, Any]:
    """The Network Operator release's values, its DaemonSets tolerating the InfiniBand pools' taints
    (``pool_tolerations``, one per taint key and effect) besides the chart's defaults."""
    defaults = chart_values(CHART, VERSION).tree["operator"]["tolerations"]
    tolerations = [*defaults, *(dict(t) for t in pool_tolerations if t not in defaults)]
    return {"nfd": {"enabled": False, "deployNodeFeatureRules": False}, "operator": {"tolerations": tolerations}}


def nic_cluster_policy(
    pools: Sequence[GpuPoolSpec], pool_tolerations: Sequence[Mapping[str, str]], pool_label: str
) -> dict[str, Any]:
    """The ``NicClusterPolicy`` (one per cluster, the operator's name for it) for the InfiniBand ``pools``, on their
    nodes by gpuready's ``pool_label``, tolerating their taints."""
    names = sorted(p.name for p in pools)
    terms = [{"matchExpressions": [{"key": pool_label, "operator": "In", "values": names}]}]
    return {
        "apiVersion": "mellanox.com/v1alpha1",
        "kind": "NicClusterPolicy",
        "metadata": {"name": "nic-cluster-policy", "labels": {"app.kubernetes.io/managed-by": "gpuready"}},
        "spec": {
            "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}},
            "tolerations": [dict(t) for t in pool_tolerations],
            "ofedDriver": dict(OFED_DRIVER),
            "rdmaSharedDevicePlugin": {**RDMA_PLUGIN, "config": json.dumps(RDMA_PLUGIN_CONFIG)},
        },
    }


def fabric_objects(
    pools: Sequence[GpuPoolSpec], pool_tolerations: Sequence[Mapping[str, str]], pool_label: str
) -> list[Mapping[str, Any]]:
    """The Network Operator's namespace, its release (a ``helm.sh/v3`` ``Release`` manifest of gpuready's own,
    registered as a Helm release) and the NicClusterPolicy, when any pool has InfiniBand."""
    ib = infiniband_pools(pools)
    if not ib:
        return []
    namespace = {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {"name": NAMESPACE, "labels": {"app.kubernetes.io/managed-by": "gpuready",
                                                    "pod-security.kubernetes.io/enforce": "privileged"}},
    }  # fmt: skip
    release = {
        "apiVersion": "helm.sh/v3",
        "kind": "Release",
        "metadata": {"name": RELEASE, "namespace": NAMESPACE},
        "spec": {
            "chart": CHART,
            "version": VERSION,
            "repository": REPOSITORY,
            "values": release_values(pool_tolerations),
        },
    }
    return [namespace, release, nic_cluster_policy(ib, pool_tolerations, pool_label)]


def operator_values(pools: Sequence[GpuPoolSpec]) -> dict[str, Any]:
    """GPU Operator values the InfiniBand pools need: GPUDirect RDMA from the operator's driver."""
    return {"driver": {"rdma": {"enabled": True}}} if infiniband_pools(pools) else {}


def container_resources(spec: GpuPoolSpec) -> dict[str, int]:
    """One shared RDMA device per container on an InfiniBand pool."""
    return {RDMA_RESOURCE: 1} if infiniband_pools([spec]) else {}


def container_fields(spec: GpuPoolSpec) -> dict[str, Any]:
    """``IPC_LOCK`` on an InfiniBand pool's containers: RDMA pins memory (the recipe's worker job adds it)."""
    return {"capabilities": ["IPC_LOCK"]} if infiniband_pools([spec]) else {}
