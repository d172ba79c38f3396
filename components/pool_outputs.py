"""What every GPU node pool component publishes for the next layers (GPU stack, verification, workloads).

The three cloud components share this base so their outputs have the same names and meaning; all
values come from pure functions of the validated spec.
"""

from __future__ import annotations

from typing import Any

import pulumi

from components.core import resources, scheduling, sharing_plan
from components.core.specs import GpuPoolSpec


class GpuNodePoolBase(pulumi.ComponentResource):
    """Common outputs of ``EksGpuNodePool``, ``AksGpuNodePool`` and ``GkeGpuNodePool``."""

    spec: GpuPoolSpec
    """The validated pool spec (plain value; the GPU stack builds its Helm values from it)."""
    node_pool_name: pulumi.Output[str]
    """Name of the node group / agent pool / node pool as the cloud reports it."""
    node_selector: pulumi.Output[dict[str, str]]
    """Node selector that picks exactly this pool's nodes."""
    node_labels: pulumi.Output[dict[str, str]]
    """Every label gpuready sets on the pool's nodes at creation."""
    taint: pulumi.Output[dict[str, str]]
    """The GPU taint, as it appears on the Kubernetes Node."""
    tolerations: pulumi.Output[list[dict[str, str]]]
    """Tolerations a workload needs for every taint of the pool."""
    resource_name: pulumi.Output[str]
    """The extended resource most workloads request here (``nvidia.com/gpu`` or ``nvidia.com/mig-...``)."""
    allocatable: pulumi.Output[dict[str, int]]
    """Extended resource -> units each Ready node should advertise."""
    gpus_per_node: pulumi.Output[int]
    """Physical GPUs per node."""
    accelerator: pulumi.Output[str]
    """Canonical accelerator name, e.g. ``a100-80gb``."""
    instance_type: pulumi.Output[str]
    """Instance type / VM size / machine type of the nodes."""
    sharing: pulumi.Output[str]
    """How GPUs are shared, e.g. ``time-slicing x4 (device-plugin-config)`` or ``none``."""
    driver: pulumi.Output[str]
    """Who installs the NVIDIA driver, and how the cloud resource says so."""

    def _publish(self, spec: GpuPoolSpec, node_pool_name: pulumi.Output[str], driver: str) -> None:
        """Set the outputs from the spec and register them; the last call of every pool component."""
        self.spec = spec
        values: dict[str, Any] = {
            "node_selector": scheduling.node_selector(spec),
            "node_labels": scheduling.pool_labels(spec),
            "taint": scheduling.to_k8s_taint(scheduling.GPU_TAINT),
            "tolerations": [scheduling.toleration_for(t) for t in scheduling.pool_taints(spec)],
            "resource_name": resources.primary_resource(spec),
            "allocatable": resources.allocatable_per_node(spec),
            "gpus_per_node": spec.resolved.gpus,
            "accelerator": spec.resolved.model.key,
            "instance_type": spec.resolved.instance_type,
            "sharing": sharing_plan.describe(spec.cloud, spec.driver, spec.sharing),
            "driver": driver,
        }
        self.node_pool_name = node_pool_name
        for key, value in values.items():
            setattr(self, key, pulumi.Output.from_input(value))
        self.register_outputs({"node_pool_name": node_pool_name, **values})
