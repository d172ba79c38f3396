"""The GPU-suited node repair gpuready gives EKS managed node groups (``node_repair_config``). Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuready.core.health.repair import DEFAULT_MAX_PARALLEL, DEFAULT_MAX_UNHEALTHY_PERCENT, RepairOverride

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

# The reasons are the EKS node monitoring agent's (gpuready.core.health.conditions, cited there); the actions
# follow NVIDIA's resolution buckets (gpuready.core.health.xid): a GPU reset (a reboot here) for RESET_GPU XIDs,
# a new instance for a GPU off the bus, a fabric or power fault; and no action for DCGMError, which says the agent
# cannot reach its DCGM host engine (a configuration fault: replacing the node does not fix it; aws/containers-roadmap
# #2555, #2763). Only managed node groups reboot (docs.aws.amazon.com/eks/latest/userguide/node-repair.html).
GPU_OVERRIDES: tuple[RepairOverride, ...] = (
    RepairOverride("AcceleratedHardwareReady", "DCGMError", "NoAction", 10),
    RepairOverride("AcceleratedHardwareReady", "NvidiaXID79Error", "Replace", 1),
    RepairOverride("AcceleratedHardwareReady", "NvidiaXID54Error", "Replace", 1),
    RepairOverride("AcceleratedHardwareReady", "NvidiaFabricError", "Replace", 1),
    RepairOverride("AcceleratedHardwareReady", "NvidiaDoubleBitError", "Reboot", 10),
    RepairOverride("AcceleratedHardwareReady", "NvidiaXID48Error", "Reboot", 10),
    RepairOverride("AcceleratedHardwareReady", "NvidiaXID74Error", "Reboot", 10),
    RepairOverride("AcceleratedHardwareReady", "NvidiaXID119Error", "Reboot", 10),
)


def node_repair_config(spec: GpuPoolSpec) -> dict[str, object]:
    """``node_repair_config`` of an EKS managed node group (Pulumi's snake_case keys of botocore's
    ``NodeRepairConfig``)."""
    policy = spec.repair
    if not policy.enabled:
        return {"enabled": False}
    return {
        "enabled": True,
        "max_parallel_nodes_repaired_count": policy.max_parallel or DEFAULT_MAX_PARALLEL,
        "max_unhealthy_node_threshold_percentage": policy.max_unhealthy_percent or DEFAULT_MAX_UNHEALTHY_PERCENT,
        "node_repair_config_overrides": [
            {"node_monitoring_condition": o.condition, "node_unhealthy_reason": o.reason,
             "repair_action": o.action, "min_repair_wait_time_mins": o.wait_minutes}
            for o in GPU_OVERRIDES
        ],
    }  # fmt: skip
