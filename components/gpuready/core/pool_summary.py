"""The values a GPU node pool publishes (selector, labels, taint, resources, sharing, driver). Pure."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from gpuready.core import scheduling, sharing_plan
from gpuready.core.capacity import gpu_choice
from gpuready.core.capacity.capacity_view import capacity_object
from gpuready.core.health.repair import repair_summary
from gpuready.core.pool_capacity import schedulable_capacity
from gpuready.core.scale_path.model import DEFAULT_CLUSTER, ClusterFacts
from gpuready.core.scale_path.verdict import pool_verdict
from gpuready.core.specs import GpuPoolSpec
from gpuready.record import record


@record(frozen=True, kw_only=True, slots=True)
class PoolOutputs:
    """Every plain value a pool publishes; the field names are the component's output names."""

    node_selector: dict[str, str]
    """Node selector that picks exactly this pool's nodes."""
    node_labels: dict[str, str]
    """Every label gpuready sets on the pool's nodes at creation."""
    taint: dict[str, str]
    """The GPU taint, as it appears on the Kubernetes Node."""
    tolerations: list[dict[str, str]]
    """Tolerations a workload needs for every taint of the pool."""
    resource_name: str
    """The resource most workloads request here (the pool's advertiser names it)."""
    allocatable: dict[str, int]
    """Resource -> units each Ready node should advertise."""
    gpus_per_node: int
    accelerator: str
    """Canonical accelerator name, e.g. ``a100-80gb``."""
    instance_type: str
    sharing: str
    """How GPUs are shared, e.g. ``time-slicing x4 by NVIDIA device plugin`` or ``none``."""
    driver: str
    """Who installs the NVIDIA driver, and how the cloud resource says so (the cloud's summary)."""
    lifecycle: str
    """The cloud's one-line lifecycle summary."""
    provisioner: str
    """How the nodes are made: the provisioner's key (``node-group``, ``karpenter``, ``compute-class``...)."""
    gpu_limit: int
    """The pool's GPU bound in physical GPUs where its provisioner's object has a limit (``gpuLimit`` or ``maxSize``
    x GPUs per node; the NodePool counts it as its nodes report: ``scale_path.karpenter_limits``); 0 when it sets
    none (a fixed pool, bounded by ``maxSize``; a GKE ComputeClass)."""
    repair: str
    """The pool's node auto repair policy in one line (its provisioner's ``repair`` facts)."""
    requirements: str
    """The instance types the nodes may be, as the pool gives them: ``g6.xlarge``, a list, or its
    ``gpuRequirements`` with the catalog's types that meet them."""
    scales: str
    """Whether a pending pod of every shape the pool advertises becomes a node it runs on (``scale_path``):
    ``yes 0->4 nodes``, or ``no: <shape>: <reason>``."""
    schedulable: dict[str, int]
    """Resource name or DRA DeviceClass -> units each node offers workloads (whole GPUs, shares, MIG devices)."""
    min_nodes: int
    """Nodes the pool keeps warm (its minimum)."""
    max_nodes: int
    """Most nodes the pool can have (``maxSize``, cut by the provisioner's GPU limit)."""
    fabric: dict[str, Any]
    """The pool's node fabric (``kind``, ``devices`` per node, ``placementGroup``, ``summary``); ``{}``: none."""
    capacity: dict[str, Any]
    """How the nodes get capacity (``capacity.capacity_view``): ``type`` (on-demand, spot, reserved,
    capacity-block...), the ``reservation`` it names, its ``nodes``, ``zone`` and ``fallback``, and the ``text`` the
    plan shows."""

    def as_dict(self) -> dict[str, Any]:
        """Output name -> value, in declaration order (what the component registers)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def pool_outputs(
    spec: GpuPoolSpec, driver: str, lifecycle: str, cluster: ClusterFacts = DEFAULT_CLUSTER
) -> PoolOutputs:
    """The outputs of a pool; ``driver`` and ``lifecycle`` are the cloud's one-line summaries, ``cluster`` what the
    stack declares of the cluster's autoscaler."""
    advertised = spec.resolved.advertiser.summary(spec)
    provisioner = spec.resolved.provisioner
    capacity = schedulable_capacity(spec)
    return PoolOutputs(
        node_selector={**scheduling.node_selector(spec), **provisioner.selection_labels(spec)},
        node_labels=scheduling.pool_labels(spec),
        taint=scheduling.to_k8s_taint(spec.conventions.gpu_taint),
        tolerations=[
            scheduling.toleration_for(t)
            for t in (*scheduling.tolerated_taints(spec), *provisioner.selection_taints(spec))
        ],
        resource_name=advertised.resource_name,
        allocatable=dict(advertised.allocatable),
        gpus_per_node=spec.resolved.gpu.gpus,
        accelerator=spec.resolved.gpu.model.key,
        instance_type=spec.resolved.gpu.instance_type,
        sharing=sharing_plan.describe(spec.resolved.delivery, spec.sharing),
        driver=driver,
        lifecycle=lifecycle,
        provisioner=provisioner.key,
        gpu_limit=provisioner.gpu_limit(spec) or 0,
        repair=repair_summary(spec, provisioner.repair),
        requirements=requirements_text(spec),
        scales=pool_verdict(spec, cluster).text,
        schedulable=dict(capacity.per_node),
        min_nodes=capacity.min_nodes,
        max_nodes=capacity.max_nodes,
        fabric=spec.profile.fabric.outputs(spec),
        capacity=capacity_object(spec),
    )


def requirements_text(spec: GpuPoolSpec) -> str:
    """The pool's instance requirements in one line (``gpuready plan``)."""
    types = ", ".join(gpu_choice.instance_types(spec))
    wanted = spec.gpu_requirements
    return types if wanted is None else f"gpuRequirements {wanted.count} x {spec.resolved.gpu.model.key}: {types}"
