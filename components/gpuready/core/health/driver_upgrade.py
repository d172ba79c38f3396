"""The GPU Operator's driver upgrade states, as its upgrade controller writes them on the node. Pure data.

Label ``nvidia.com/gpu-driver-upgrade-state`` (``nvidia.com/%s-driver-upgrade-state`` with ``gpu``):
# NVIDIA/k8s-operator-libs 11e747a (2026-04-30; pkg/upgrade/ unchanged since 45ccd0c3, 2025-10-27) pkg/upgrade/consts.go
#   L21 (UpgradeStateLabelKeyFmt), L49-82 (UpgradeState* constants). GPU Operator v26.7.0's go.mod pins
#   v0.0.0-20260629200812-d720f2557494, newer than any snapshot reachable here.

Judged by state, not by time: no timestamp says since when a node is in ``upgrade-required`` or ``upgrade-failed``.
The controller writes the state as a bare label patch (node_upgrade_state_provider.go L70-134, the patch at L80)
and records the change only as a Kubernetes Event (L129-130), which the API server keeps for its ``--event-ttl``
(one hour by default). Its only clocks are the start-time annotations of two other states, ``wait-for-jobs-required``
(``nvidia.com/gpu-driver-upgrade-wait-for-pod-completion-start-time``: consts.go L37, set in pod_manager.go L331-368
only when ``waitForCompletion.timeoutSeconds`` is not 0, L290) and ``validation-required``
(``...-validation-start-time``: consts.go L40, validation_manager.go L139-175); the controller itself acts on them
(pod deletion, or ``upgrade-failed``) and clears them (``null``) on leaving the state (pod_manager.go L302, L360;
validation_manager.go L108, L167): the two states of the question never carry one.
"""

from __future__ import annotations

from typing import Literal

LABEL_DRIVER_UPGRADE_STATE = "nvidia.com/gpu-driver-upgrade-state"

UpgradePhase = Literal["done", "queued", "active", "failed"]

DRIVER_UPGRADE_STATES: dict[str, UpgradePhase] = {
    "upgrade-done": "done",
    "upgrade-required": "queued",  # no action yet: waiting for a slot (maxParallelUpgrades, maxUnavailable)
    "cordon-required": "active",
    "wait-for-jobs-required": "active",
    "pod-deletion-required": "active",
    "drain-required": "active",
    "node-maintenance-required": "active",
    "post-maintenance-required": "active",
    "pod-restart-required": "active",
    "validation-required": "active",
    "uncordon-required": "active",
    "upgrade-failed": "failed",
}
"""Each state and what it means for the node's GPUs: ``active`` ones have the node cordoned or its driver
restarting (its GPUs are not usable until ``upgrade-done``)."""


def upgrade_phase(state: str) -> UpgradePhase | None:
    """The phase of a label value; None for an empty or unknown value (the controller has not processed the node)."""
    return DRIVER_UPGRADE_STATES.get(state)
