"""The values a GPU node pool publishes (selector, labels, taint, resources, sharing, driver). Pure."""

from __future__ import annotations

from typing import Any

from components.core import scheduling, sharing_plan
from components.core.advertisers.registry import advertiser_for
from components.core.specs import GpuPoolSpec


def pool_values(spec: GpuPoolSpec, driver: str, lifecycle: str) -> dict[str, Any]:
    """Output name -> value for a pool; ``driver`` and ``lifecycle`` are the cloud's one-line summaries."""
    advertised = advertiser_for(spec).summary(spec)
    return {
        "node_selector": scheduling.node_selector(spec),
        "node_labels": scheduling.pool_labels(spec),
        "taint": scheduling.to_k8s_taint(scheduling.GPU_TAINT),
        "tolerations": [scheduling.toleration_for(t) for t in scheduling.pool_taints(spec)],
        "resource_name": advertised.resource_name,
        "allocatable": dict(advertised.allocatable),
        "gpus_per_node": spec.resolved.gpus,
        "accelerator": spec.resolved.model.key,
        "instance_type": spec.resolved.instance_type,
        "sharing": sharing_plan.describe(spec.cloud, spec.driver, spec.sharing),
        "driver": driver,
        "lifecycle": lifecycle,
    }
