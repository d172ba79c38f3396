"""The Karpenter ``karpenter.sh/v1alpha1`` NodeOverlay that makes a pool's other GPU resources visible to Karpenter.
Pure.

Karpenter builds an instance type's resources from the cloud's data, which know ``nvidia.com/gpu`` only, so it
never launches a node for a pod requesting ``nvidia.com/mig-<profile>`` (MIG ``mixed``) or ``nvidia.com/gpu.shared``
(renamed time-slicing or MPS): kubernetes-sigs/karpenter#751 and #729. A NodeOverlay adds extended resources to the
instance types its requirements match (the CRD's ``capacity``: "adds extended resources only";
../shared/reference/upstream/karpenter-core/karpenter.sh_nodeoverlays.v1.14.1.yaml), applied only while Karpenter
runs with the alpha ``NodeOverlay`` feature gate (kubernetes-sigs/karpenter v1.14.1
``pkg/cloudprovider/overlay/cloudprovider.go`` L48; off by default, ``pkg/operator/options/options.go`` L134). gpuready
emits one per such pool, matching the pool's NodePool by ``karpenter.sh/nodepool`` (a requirement key the CRD
allows), with what each node of the pool advertises besides ``nvidia.com/gpu``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gpuready.core.lifecycle import ResourceTable
from gpuready.core.node_names import GPU_RESOURCE

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

API = ("karpenter.sh/v1alpha1", "NodeOverlay")
NODE_POOL_KEY = "karpenter.sh/nodepool"
NODE_OVERLAY_TABLE = ResourceTable(type=f"kubernetes:{API[0]}:{API[1]}", rules=(), unlisted="update")
"""A custom resource updates in place; its name is the pool's."""


def overlay_capacity(spec: GpuPoolSpec) -> dict[str, int]:
    """What each node of the pool advertises that Karpenter's instance types lack (empty: no overlay needed)."""
    return {k: v for k, v in spec.resolved.advertiser.allocatable_per_node(spec).items() if k != GPU_RESOURCE}


def node_overlay(spec: GpuPoolSpec) -> dict[str, Any] | None:
    """The NodeOverlay of the pool (named as the pool), None when Karpenter already knows all its resources."""
    capacity = overlay_capacity(spec)
    if not capacity:
        return None
    api_version, kind = API
    return {
        "apiVersion": api_version,
        "kind": kind,
        "metadata": {"name": spec.name},
        "spec": {
            "requirements": [{"key": NODE_POOL_KEY, "operator": "In", "values": [spec.name]}],
            "capacity": {name: str(units) for name, units in sorted(capacity.items())},
        },
    }
