"""The EKS node monitoring agent's node conditions, the reasons of its GPU condition, and the XIDs it treats as
fatal. Pure data; read through ``EksProfile.health_conditions`` and ``condition_reasons``.

# aws/eks-node-monitoring-agent v1.7.0 (c399089d) pkg/conditions/conditions.go L12-46 (condition types),
#   pkg/reasons/reasons.go L5-90 (AcceleratedHardwareReady reasons), docs/node-health-issues.adoc L10-108
#   (which reasons are conditions and which only events)
"""

from __future__ import annotations

from gpuready.core.health.conditions import HealthCondition, ReasonFact, Reporter

_AGENT: Reporter = "eks-node-monitoring-agent"

CONDITIONS: tuple[HealthCondition, ...] = (
    HealthCondition("AcceleratedHardwareReady", _AGENT, "False", True, "GPU (or Neuron) hardware failed"),
    HealthCondition("KernelReady", _AGENT, "False", False, "kernel errors, panics or resource exhaustion"),
    HealthCondition("NetworkingReady", _AGENT, "False", False, "node networking failed"),
    HealthCondition("StorageReady", _AGENT, "False", False, "node storage failed"),
    HealthCondition("ContainerRuntimeReady", _AGENT, "False", False, "the container runtime or kubelet failed"),
)  # fmt: skip
"""The agent's conditions: ``AcceleratedHardwareReady`` (the GPUs) and the node's; a problem when ``False``."""

# aws/eks-node-monitoring-agent v1.7.0 docs/node-health-issues.adoc L20-108, pkg/reasons/reasons.go L5-90
GPU_REASONS: tuple[ReasonFact, ...] = (
    ReasonFact("DCGMDiagnosticFailure", "a DCGM active diagnostics test failed", True),
    ReasonFact(
        "DCGMError",
        "the agent lost (or never had) its connection to the DCGM host engine",
        True,
        # on GPU Operator nodes the agent's own dcgm-server is often missing or sees no GPUs
        # (aws/containers-roadmap #2555, #2763; aws/eks-node-monitoring-agent #241, #256)
        cause=(
            " (on GPU Operator nodes the agent's dcgm-server is often not running: it does not tolerate the GPU "
            "taint, or a second host engine sees no GPUs; aws/containers-roadmap#2555, #2763)"
        ),
        fix=(
            "give DCGM one owner per node (gpuStack.health in the stack: the GPU Operator's standalone DCGM, or the "
            "agent's dcgm-server with the pool's tolerations); check: kubectl get pods -A -o wide "
            "--field-selector spec.nodeName={node}"
        ),
    ),
    ReasonFact("DCGMFieldError[Code]", "DCGM saw GPU degradation through a field", False),
    ReasonFact("DCGMHealthCode[Code]", "a DCGM health check failed", True),
    ReasonFact("FabricManagerNotRunning", "NVIDIA Fabric Manager is not running on an NVSwitch instance", True),
    ReasonFact("NvidiaDeviceCountMismatch", "fewer GPUs are visible than the instance type has", True),
    ReasonFact("NvidiaDoubleBitError", "the GPU driver reported a double bit ECC error", True),
    ReasonFact("NvidiaFabricError", "NVSwitch fabric training failed; persists across reboots", True),
    ReasonFact("NvidiaNCCLError", "a segfault in libnccl", False),
    ReasonFact("NvidiaNVLinkError", "the GPU driver reported NVLink errors", True),
    ReasonFact("NvidiaPCIeError", "PCIe replays recovered transmission errors", False),
    ReasonFact("NvidiaPageRetirement", "the driver retired a GPU memory page", False),
    ReasonFact("NvidiaPowerError", "GPU power breached its thresholds", False),
    ReasonFact("NvidiaThermalError", "GPU temperature breached its thresholds", False),
    ReasonFact("NvidiaXID[Code]Error", "a critical XID", True),
    ReasonFact("NvidiaXID[Code]Warning", "a non-critical XID", False),
)
"""What each reason of ``AcceleratedHardwareReady`` means, and whether the agent sets it as the condition."""

# aws/eks-node-monitoring-agent v1.7.0 monitors/nvidia/dcgm/dcgm_policies.go L17-98 (WellKnownXidCodes)
FATAL_XIDS: tuple[int, ...] = (
    46, 48, 54, 62, 63, 64, 74, 79, 95, 109, 110, 119, 120, 136, 140, 142, 143, 151, 155, 156, 158,
)  # fmt: skip
"""The XIDs the agent reports as fatal (``NvidiaXID<code>Error`` on ``AcceleratedHardwareReady``), each in
``gpuready.core.health.xid.XIDS``."""
