"""The GPU Operator's driver upgrade states, as its upgrade controller writes them on the node. Pure data.

Label ``nvidia.com/gpu-driver-upgrade-state`` (``nvidia.com/%s-driver-upgrade-state`` with ``gpu``):
# NVIDIA/k8s-operator-libs pkg/upgrade/consts.go (UpgradeStateLabelKeyFmt, UpgradeState* constants)
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
