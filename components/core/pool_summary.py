"""The values a GPU node pool publishes (selector, labels, taint, resources, sharing, driver). Pure."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from components.core import scheduling, sharing_plan
from components.core.advertisers.registry import advertiser_for
from components.core.capacity import gpu_choice
from components.core.capacity.registry import provisioner_for
from components.core.pool_capacity import schedulable_capacity
from components.core.specs import GpuPoolSpec


@dataclass(frozen=True, kw_only=True, slots=True)
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
    """The GPU limit the provisioner's object sets (a NodePool's ``nvidia.com/gpu``: ``gpuLimit`` or ``maxSize`` x
    GPUs per node); 0 when it sets none (a fixed pool, bounded by ``maxSize``; a GKE ComputeClass)."""
    requirements: str
    """The instance types the nodes may be, as the pool gives them: ``g6.xlarge``, a list, or its
    ``gpuRequirements`` with the catalog's types that meet them."""
    schedulable: dict[str, int]
    """Resource name or DRA DeviceClass -> units each node offers workloads (whole GPUs, shares, MIG devices)."""
    min_nodes: int
    """Nodes the pool keeps warm (its minimum)."""
    max_nodes: int
    """Most nodes the pool can have (``maxSize``, cut by the provisioner's GPU limit)."""

    def as_dict(self) -> dict[str, Any]:
        """Output name -> value, in declaration order (what the component registers)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def pool_outputs(spec: GpuPoolSpec, driver: str, lifecycle: str) -> PoolOutputs:
    """The outputs of a pool; ``driver`` and ``lifecycle`` are the cloud's one-line summaries."""
    advertised = advertiser_for(spec).summary(spec)
    provisioner = provisioner_for(spec)
    capacity = schedulable_capacity(spec)
    return PoolOutputs(
        node_selector=scheduling.node_selector(spec),
        node_labels=scheduling.pool_labels(spec),
        taint=scheduling.to_k8s_taint(scheduling.GPU_TAINT),
        tolerations=[scheduling.toleration_for(t) for t in scheduling.pool_taints(spec)],
        resource_name=advertised.resource_name,
        allocatable=dict(advertised.allocatable),
        gpus_per_node=spec.resolved.gpus,
        accelerator=spec.resolved.model.key,
        instance_type=spec.resolved.instance_type,
        sharing=sharing_plan.describe(spec.cloud, spec.driver, spec.sharing),
        driver=driver,
        lifecycle=lifecycle,
        provisioner=provisioner.key,
        gpu_limit=provisioner.gpu_limit(spec) or 0,
        requirements=requirements_text(spec),
        schedulable=dict(capacity.per_node),
        min_nodes=capacity.min_nodes,
        max_nodes=capacity.max_nodes,
    )


def requirements_text(spec: GpuPoolSpec) -> str:
    """The pool's instance requirements in one line (``gpuready plan``)."""
    types = ", ".join(gpu_choice.instance_types(spec))
    wanted = spec.gpu_requirements
    return types if wanted is None else f"gpuRequirements {wanted.count} x {spec.resolved.model.key}: {types}"
