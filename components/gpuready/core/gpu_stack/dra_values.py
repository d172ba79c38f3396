"""Helm values of NVIDIA's DRA driver chart (``dra-driver-nvidia-gpu`` 0.4.0) for a stack's DRA pools. Pure.

Keys and defaults: the chart's ``values.yaml`` (NVIDIA/k8s-dra-driver-gpu v0.4.0; its keys in ``chart_facts``).
What gpuready decides:

- ``resourceApiVersion: resource.k8s.io/v1``: the chart otherwise takes the newest resource API the cluster
  serves, v1beta1 or v1beta2 included (``_helpers.tpl``); ``clusterVersion`` is at least 1.34, where
  ``resource.k8s.io/v1`` is GA (``dra_cluster.DRA_MIN_MINOR``), the API of gpuready's own claims.
- ``resources.gpus.enabled`` with ``gpuResourcesEnabledOverride``: the chart refuses to publish GPUs unless told
  that no device plugin runs on the same nodes (``templates/validation.yaml``). gpuready sets the override only
  together with a kubelet-plugin node affinity that selects exactly the stack's DRA pools (their
  ``gpuready.io/pool`` names, and ``gpuready.io/advertise=dra``); every device plugin gpuready plans avoids those
  nodes (the plugin chart's affinity, the GPU Operator's ``nvidia.com/gpu.deploy.device-plugin=false`` label).
- ``resources.computeDomains.enabled: false``: ComputeDomains hand out multi-node NVLink (IMEX channels) of
  GB200/GB300 NVL72-class systems; no pool gpuready offers has multi-node NVLink, so the controller and its
  DaemonSets stay off.
- The kubelet plugin tolerates every taint of the pools (``placement.taint_tolerations``), replacing the chart's
  single ``nvidia.com/gpu`` toleration.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpuready.core.advertisers.dra import DYNAMIC_RESOURCES
from gpuready.core.gpu_stack import placement
from gpuready.core.gpu_stack.dra_cluster import DRA_RESOURCE_API
from gpuready.core.scheduling import LABEL_ADVERTISE, LABEL_POOL
from gpuready.core.specs import GpuPoolSpec


def dra_node_affinity(pools: Sequence[GpuPoolSpec]) -> dict[str, Any]:
    """The kubelet plugin's required node affinity: the DRA pools among ``pools``, by name and DRA label."""
    names = sorted(p.name for p in pools)
    term = {
        "matchExpressions": [
            {"key": LABEL_ADVERTISE, "operator": "In", "values": [DYNAMIC_RESOURCES.pool_value]},
            {"key": LABEL_POOL, "operator": "In", "values": names},
        ]
    }
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [term]}}}


def dra_driver_values(pools: Sequence[GpuPoolSpec]) -> dict[str, Any]:
    """The values for one DRA driver release serving ``pools`` (all DRA pools, checked by ``stack_rules``)."""
    return {
        "resourceApiVersion": DRA_RESOURCE_API,
        "gpuResourcesEnabledOverride": True,
        "resources": {"gpus": {"enabled": True}, "computeDomains": {"enabled": False}},
        "kubeletPlugin": {
            "affinity": dra_node_affinity(pools),
            "tolerations": placement.taint_tolerations(pools),
        },
    }
