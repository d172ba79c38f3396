"""The ``karpenter.sh/v1`` NodePool of a GPU pool, whichever cloud's Karpenter makes its nodes. Pure.

Field names are those of the NodePool CRD (kubernetes-sigs/karpenter ``karpenter.sh_nodepools.yaml``, copies in
``../shared/reference/upstream/karpenter-aws/`` v1.14.1 and ``karpenter-azure/`` v1.14.2; the two are the same
schema). The cloud's own part is the node class it references and the instance requirements; the rest follows
from the spec as it does for node groups: the GPU taint and gpuready's labels (``gpuready.core.scheduling``, also
the per-node sharing and MIG labels the GPU stack configures by), a GPU limit and a disruption policy for GPU jobs
(node lifetime, drain bound and budgets by reason: ``capacity.node_disruption``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gpuready.core import scheduling
from gpuready.core.capacity import gpu_choice, node_disruption
from gpuready.core.lifecycle import ResourceTable
from gpuready.core.scale_path.karpenter_limits import node_pool_limits
from gpuready.core.taints import Taint

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

API = ("karpenter.sh/v1", "NodePool")
GPU_LIMIT = "nvidia.com/gpu"
"""The NodePool limit on GPUs, in the units its nodes report (``scale_path.karpenter_limits``), beside a ``nodes``
limit of as many whole nodes as the pool's GPU bound holds."""
CAPACITY_TYPE = "karpenter.sh/capacity-type"
"""kubernetes-sigs/karpenter's well-known label: ``on-demand``, ``spot`` or ``reserved`` (``CAPACITY_TYPES``)."""
CAPACITY_TYPES: Mapping[str, str] = {
    "on-demand": "on-demand",
    "spot": "spot",
    "reserved": "reserved",
    "capacity-block": "reserved",
}
"""Pool capacity -> ``karpenter.sh/capacity-type`` value: a reservation of any kind, Capacity Blocks included, is
``reserved`` (kubernetes-sigs/karpenter v1.14.1 ``pkg/apis/v1/labels.go`` ``CapacityTypeReserved``; AWS tells the kinds
apart by ``karpenter.k8s.aws/capacity-reservation-type``, aws/karpenter-provider-aws v1.14.1
``pkg/providers/instance/filter/filter.go`` L83-130)."""
ARCH = "kubernetes.io/arch"
INSTANCE_TYPE = "node.kubernetes.io/instance-type"
KUBE_ARCHITECTURES: Mapping[str, str] = {"x86_64": "amd64", "arm64": "arm64"}
"""CPU architecture as the catalog names it -> the ``kubernetes.io/arch`` value."""
CONSOLIDATE_AFTER = "10m"
"""How long a GPU node stays empty before Karpenter removes it (``disruption.consolidateAfter``)."""
NODE_POOL_LABEL = "karpenter.sh/nodepool"
"""The label Karpenter puts on every node it makes: the name of its NodePool (kubernetes-sigs/karpenter
``pkg/apis/v1/labels.go``, ``NodePoolLabelKey``)."""

NODE_POOL_TABLE = ResourceTable(type=f"kubernetes:{API[0]}:{API[1]}", rules=(), unlisted="update")
"""A NodePool's replacement table: a custom resource's inputs all update in place (the apiserver patches it); its
only immutable input is ``metadata.name``, which is the pool's name and the component's, so a renamed pool is
another resource (delete and create), never a replacement under one URN. Node changes are Karpenter's (drift,
within the disruption budget)."""


def requirement(key: str, value: str, *more: str) -> dict[str, Any]:
    """One ``In`` node requirement: its values are alternatives (a NodePool's requirements all hold together)."""
    return {"key": key, "operator": "In", "values": [value, *more]}


def instance_requirements(spec: GpuPoolSpec, gpu_count_label: str) -> list[dict[str, Any]]:
    """The instance types the pool's nodes may be (``capacity.gpu_choice``: the named ones, or every catalog type
    with the ``gpuRequirements``), their GPU count under the provider's ``gpu_count_label``, then the common ones."""
    return [
        requirement(INSTANCE_TYPE, *gpu_choice.instance_types(spec)),
        requirement(gpu_count_label, str(spec.resolved.gpu.gpus)),
        *common_requirements(spec),
    ]


def common_requirements(spec: GpuPoolSpec) -> list[dict[str, Any]]:
    """The requirements every cloud's NodePool has: the architecture and the capacity type."""
    arch = requirement(ARCH, KUBE_ARCHITECTURES[spec.resolved.gpu.arch])
    return [arch, requirement(CAPACITY_TYPE, *capacity_types(spec))]


def capacity_types(spec: GpuPoolSpec) -> list[str]:
    """The pool's ``karpenter.sh/capacity-type`` values: its capacity, then its reservation's fallback (Karpenter
    launches reserved capacity first when a NodePool allows it beside on-demand or spot)."""
    chosen = [CAPACITY_TYPES[spec.capacity]]
    fallback = spec.reservation.fallback if spec.reservation is not None else None
    if fallback is not None and fallback != "none" and fallback not in chosen:
        chosen.append(fallback)
    return chosen


def node_pool(
    spec: GpuPoolSpec,
    node_class: tuple[str, str],
    requirements: Sequence[Mapping[str, Any]],
    gpu_limit: int,
    *,
    max_lifetime_hours: int | None = None,
) -> dict[str, Any]:
    """The NodePool of the pool (named as the pool) on the node class ``(apiVersion, kind)`` of the same name;
    ``gpu_limit`` is the pool's bound in physical GPUs, set as limits its nodes count against as they report;
    ``max_lifetime_hours``: the provisioner's cap on a node's lifetime (``Provisioner.max_node_lifetime_hours``)."""
    api_version, kind = API
    taints: tuple[Taint, ...] = scheduling.pool_taints(spec)
    template_spec = {
        "nodeClassRef": {"group": node_class[0].split("/")[0], "kind": node_class[1], "name": spec.name},
        "requirements": [dict(r) for r in requirements],
        "taints": [scheduling.to_k8s_taint(taint) for taint in taints],
        **node_disruption.template_fields(spec, max_lifetime_hours),
    }
    return {
        "apiVersion": api_version,
        "kind": kind,
        "metadata": {"name": spec.name},
        "spec": {
            "template": {"metadata": {"labels": scheduling.pool_labels(spec)}, "spec": template_spec},
            "limits": node_pool_limits(spec, gpu_limit),
            # Only empty GPU nodes are consolidated: a running job is never moved to save money.
            "disruption": {
                "consolidationPolicy": "WhenEmpty",
                "consolidateAfter": CONSOLIDATE_AFTER,
                "budgets": node_disruption.budget_list(spec),
            },
        },
    }


def limits_text(spec: GpuPoolSpec, gpu_limit: int) -> str:
    """The NodePool's limits in one line (``nvidia.com/gpu=64, nodes=4``), for the plan's lifecycle line."""
    return ", ".join(f"{k}={v}" for k, v in node_pool_limits(spec, gpu_limit).items())
