"""Findings: one thing wrong with one GPU node, why it probably happened, and the command that fixes it. Pure."""

from __future__ import annotations

from typing import Literal

from gpuready.record import record

Severity = Literal["error", "warning"]

NODE_NOT_READY = "node-not-ready"
NODE_CORDONED = "node-cordoned"
GPU_TAINT_MISSING = "gpu-taint-missing"
GPU_TAINT_WRONG = "gpu-taint-wrong"
TAINT_MISSING = "taint-missing"
GPU_PRESENT_MISSING = "gpu-present-missing"
GPU_PRESENT_WRONG = "gpu-present-wrong"
ACCELERATOR_LABEL_MISSING = "accelerator-label-missing"
ACCELERATOR_LABEL_WRONG = "accelerator-label-wrong"
ACCELERATOR_UNKNOWN = "accelerator-unknown"
ACCELERATOR_LABEL_CONFLICT = "accelerator-label-conflict"
LABEL_MISSING = "label-missing"
LABEL_WRONG = "label-wrong"
GPU_PRODUCT_MISMATCH = "gpu-product-mismatch"
GFD_LABELS_MISSING = "gfd-labels-missing"
GPUS_NOT_ADVERTISED = "gpus-not-advertised"
ALLOCATABLE_MISMATCH = "allocatable-mismatch"
SHARING_NOT_APPLIED = "sharing-not-applied"
MIG_CONFIG_FAILED = "mig-config-failed"
MIG_CONFIG_PENDING = "mig-config-pending"
MIG_INVALID = "mig-invalid"
MIG_RESOURCES_MISMATCH = "mig-resources-mismatch"
CLOUD_PARTITION_MISMATCH = "gke-partition-mismatch"
"""A cloud's MIG partition label names another profile than the pool's (the code keeps GKE's name, the only cloud
with such a label, as ``gpuready verify -o json`` has always shown it)."""
POOL_NODES_MISSING = "pool-nodes-missing"
DRA_NODE_HAS_DEVICE_PLUGIN = "dra-node-has-device-plugin"
DRA_SLICES_MISSING = "dra-slices-missing"
DRA_DEVICES_MISSING = "dra-devices-missing"
DEVICE_PLUGIN_NODE_HAS_DRA_PLUGIN = "device-plugin-node-has-dra-plugin"
GPU_UNHEALTHY = "gpu-unhealthy"
NODE_UNHEALTHY = "node-unhealthy"
GPU_DEVICES_UNHEALTHY = "gpu-devices-unhealthy"
GPU_HEALTH_FLAPPED = "gpu-health-flapped"
DRIVER_UPGRADE_FAILED = "driver-upgrade-failed"
DRIVER_UPGRADE_ACTIVE = "driver-upgrade-active"
DRIVER_UPGRADE_QUEUED = "driver-upgrade-queued"
FABRIC_NOT_ADVERTISED = "fabric-not-advertised"
FABRIC_DEVICES_SHORT = "fabric-devices-short"

TRANSIENT_CODES: frozenset[str] = frozenset(
    {NODE_NOT_READY, GPUS_NOT_ADVERTISED, MIG_CONFIG_PENDING, POOL_NODES_MISSING, DRA_SLICES_MISSING,
     DRIVER_UPGRADE_ACTIVE, FABRIC_NOT_ADVERTISED}
)  # fmt: skip
"""Findings that usually clear by themselves while new nodes converge; the others need a change."""

HEALTH_CODES: frozenset[str] = frozenset(
    {GPU_UNHEALTHY, NODE_UNHEALTHY, GPU_DEVICES_UNHEALTHY, GPU_HEALTH_FLAPPED, DRIVER_UPGRADE_FAILED}
)
"""Findings that say a node's GPUs (or the node around them) are broken: ``verify`` fails their pool."""


@record(frozen=True, kw_only=True, slots=True)
class Finding:
    """One problem on one node (or, for ``pool-nodes-missing``, one pool: ``node`` is then ``pool/<name>``)."""

    node: str
    severity: Severity
    code: str
    message: str
    """What is wrong: ``<what>: <problem>; got <value>, expected <value>``."""
    cause: str
    """The likely reason."""
    fix: str
    """What to do, ending with a concrete kubectl or gpuready command."""
    reproduce: str
    """A kubectl command that shows the evidence."""

    @property
    def transient(self) -> bool:
        """Whether waiting may clear it (see ``TRANSIENT_CODES``)."""
        return self.code in TRANSIENT_CODES

    def to_json(self) -> dict[str, str | bool]:
        """A plain dict for ``-o json`` output."""
        return {
            "node": self.node,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "cause": self.cause,
            "fix": self.fix,
            "reproduce": self.reproduce,
            "transient": self.transient,
        }


def show_node(node: str, jsonpath: str = "") -> str:
    """``kubectl get node <node>`` showing ``jsonpath`` (or the whole node as YAML)."""
    if not jsonpath:
        return f"kubectl get node {node} -o yaml"
    return f"kubectl get node {node} -o jsonpath='{jsonpath}'"
