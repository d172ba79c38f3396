"""Verification errors: transient (nodes still converging) versus permanent (labels or taints are wrong)."""

from __future__ import annotations

from collections.abc import Sequence

from gpuready.errors import GpuReadyError


class VerificationError(GpuReadyError):
    """GPU nodes do not match what their pool promises."""

    def __init__(self, message: str, node_names: Sequence[str] = (), command: str = "") -> None:
        self.node_names: tuple[str, ...] = tuple(node_names)
        """The nodes that failed, sorted."""
        self.command = command
        """A kubectl command that reproduces the check."""
        super().__init__(f"{message}. Reproduce: {command}" if command else message)


class NodesNotReadyError(VerificationError):
    """Transient: nodes are missing, NotReady, or have not advertised their GPUs yet; retrying may help."""


class LabelMismatchError(VerificationError):
    """Permanent: labels, taints or resources contradict the pool; waiting will not fix it."""


class GpuHealthError(VerificationError):
    """Permanent: nodes report broken GPUs (health conditions, unhealthy devices, a failed driver upgrade, a flapping
    health condition); the pool fails until they are repaired."""
