"""The node conditions that report GPU (and GPU node) health, in one table, each with its source. Pure data.

* the EKS node monitoring agent: ``AcceleratedHardwareReady`` (the GPUs), ``KernelReady``, ``NetworkingReady``,
  ``StorageReady``, ``ContainerRuntimeReady``; a problem when ``False``;
* AKS Node Problem Detector: ``GPUMissing``, ``NVLinkStatusInactive``, ``XIDErrors``, ``IBLinkFlapping``,
  ``GPUClockThrottling``, ``UnhealthyNvidiaDevicePlugin``; a problem when ``True``;
* NVIDIA NVSentinel: ``GpuInforomWatch``, ``GpuMemWatch``, ``GpuNvlinkWatch``, ``GpuPcieWatch``, ``GpuPowerWatch``,
  ``GpuThermalWatch``, ``GpuThermalMarginWatch``, ``GpuDcgmConnectivityFailure``, ``SysLogsXIDError``,
  ``SysLogsSXIDError``, ``SysLogsGPUFallenOff``; a problem when ``True``;
* GKE: none. GKE auto-repair judges ``Ready`` and boot disk space only, and publishes no GPU condition.

Sources:
# aws/eks-node-monitoring-agent v1.7.0 (c399089d) pkg/conditions/conditions.go L12-46 (condition types),
#   pkg/reasons/reasons.go L5-90 (AcceleratedHardwareReady reasons), docs/node-health-issues.adoc L10-108
#   (which reasons are conditions and which only events)
# https://learn.microsoft.com/azure/aks/node-problem-detector ("Node conditions", GPU only rows) and
#   https://learn.microsoft.com/azure/aks/gpu-health-monitoring (not on pools with --gpu-driver none)
# NVIDIA/NVSentinel 1abd31ddba1a87412093aa72823dda18bcf15ff5 (main, "chore(fern): register v1.14.0 (#1484)", the
#   commit after the v1.14.0 release; no tagged snapshot was reachable; these names and rules are the same at every
#   main commit from 3087506, the v1.13.1 registration, where types.go had 4 lines fewer above them):
#   health-monitors/syslog-health-monitor/pkg/syslog-monitor/types.go L38-40 (SysLogs* check names);
#   health-monitors/gpu-health-monitor/gpu_health_monitor/platform_connector/platform_connector.py L81-90 (a DCGM
#   health watch DCGM_HEALTH_WATCH_<A>_<B> is check Gpu<A><b>Watch, each word capitalised), L377-407
#   (GpuDcgmConnectivityFailure, fatal); gpu_health_monitor/dcgm_watcher/dcgm.py L50-57 (the THERMAL_MARGIN field
#   watch), L99-110 and L454 (every DCGM health watch is watched); platform-connectors/pkg/connectors/kubernetes/
#   process_node_events.go L145-157 (one node condition per fatal check, typed by its name), L185-193 (True when
#   unhealthy, False when it recovers)
# https://cloud.google.com/kubernetes-engine/docs/how-to/node-auto-repair ("Repair criteria")
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Reporter = Literal["eks-node-monitoring-agent", "aks-npd", "nvsentinel"]
Severity = Literal["error", "warning"]

REPORTER_TITLES: dict[str, str] = {
    "eks-node-monitoring-agent": "the EKS node monitoring agent",
    "aks-npd": "AKS Node Problem Detector",
    "nvsentinel": "NVIDIA NVSentinel",
}


@dataclass(frozen=True, slots=True)
class HealthCondition:
    """One node condition type a health reporter sets."""

    type: str
    reporter: Reporter
    problem_status: Literal["True", "False"]
    """The status that means something is wrong (``False`` for ``...Ready`` types, ``True`` for problem types)."""
    gpu: bool
    """About the GPUs (a broken GPU), rather than the node around them."""
    meaning: str
    severity: Severity = "error"


_EKS: Reporter = "eks-node-monitoring-agent"
_AKS: Reporter = "aks-npd"
_NVS: Reporter = "nvsentinel"


def nvsentinel_watch_check(watch: str) -> str:
    """NVSentinel's check (and node condition) name for a DCGM health watch: ``DCGM_HEALTH_WATCH_NVSWITCH_FATAL`` is
    ``GpuNvswitchFatalWatch`` (platform_connector.py L81-90, cited above)."""
    words = watch.removeprefix("DCGM_HEALTH_WATCH_").split("_")
    return "Gpu" + "".join(w[:1] + w[1:].lower() for w in words) + "Watch"


def _dcgm(watch: str) -> str:
    return nvsentinel_watch_check(f"DCGM_HEALTH_WATCH_{watch}")


HEALTH_CONDITIONS: dict[str, HealthCondition] = {c.type: c for c in (
    HealthCondition("AcceleratedHardwareReady", _EKS, "False", True, "GPU (or Neuron) hardware failed"),
    HealthCondition("KernelReady", _EKS, "False", False, "kernel errors, panics or resource exhaustion"),
    HealthCondition("NetworkingReady", _EKS, "False", False, "node networking failed"),
    HealthCondition("StorageReady", _EKS, "False", False, "node storage failed"),
    HealthCondition("ContainerRuntimeReady", _EKS, "False", False, "the container runtime or kubelet failed"),
    HealthCondition("GPUMissing", _AKS, "True", True, "fewer GPUs than the VM size has are visible to nvidia-smi"),
    HealthCondition("NVLinkStatusInactive", _AKS, "True", True, "an NVLink is inactive"),
    HealthCondition("XIDErrors", _AKS, "True", True, "XID errors in the kernel log"),
    HealthCondition("IBLinkFlapping", _AKS, "True", True, "an InfiniBand link keeps going down and up"),
    HealthCondition("GPUClockThrottling", _AKS, "True", True, "GPU clocks are throttled", "warning"),
    HealthCondition("UnhealthyNvidiaDevicePlugin", _AKS, "True", True, "the managed device plugin is not running"),
    HealthCondition(_dcgm("INFOROM"), _NVS, "True", True, "DCGM: InfoROM corrupt"),
    HealthCondition(_dcgm("MEM"), _NVS, "True", True, "DCGM: GPU memory errors (ECC, retired or remapped pages)"),
    HealthCondition(_dcgm("NVLINK"), _NVS, "True", True, "DCGM: NVLink errors or a link down"),
    HealthCondition(_dcgm("PCIE"), _NVS, "True", True, "DCGM: PCIe errors (replays, a GPU off the bus)"),
    HealthCondition(_dcgm("POWER"), _NVS, "True", True, "DCGM: power outside its limits", "warning"),
    HealthCondition(_dcgm("THERMAL"), _NVS, "True", True, "DCGM: thermal violation", "warning"),
    HealthCondition(_dcgm("THERMAL_MARGIN"), _NVS, "True", True, "GPU temperature margin below its slowdown point",
                    "warning"),
    HealthCondition("GpuDcgmConnectivityFailure", _NVS, "True", True,
                    "DCGM: its GPU health monitor cannot reach the host engine"),
    HealthCondition("SysLogsXIDError", _NVS, "True", True, "a fatal XID in the kernel log"),
    HealthCondition("SysLogsSXIDError", _NVS, "True", True, "an NVSwitch SXID error in the kernel log"),
    HealthCondition("SysLogsGPUFallenOff", _NVS, "True", True, "a GPU fell off the bus"),
)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ReasonFact:
    """What a reason of the EKS agent's ``AcceleratedHardwareReady`` means (``[Code]`` stands for a number)."""

    pattern: str
    meaning: str
    condition: bool
    """Set as the node condition (auto repair acts on it); otherwise only a Kubernetes event."""

    def matches(self, reason: str) -> bool:
        return re.fullmatch(self.pattern.replace("[Code]", r"\d+"), reason) is not None


# aws/eks-node-monitoring-agent v1.7.0 docs/node-health-issues.adoc L20-108, pkg/reasons/reasons.go L5-90
EKS_GPU_REASONS: tuple[ReasonFact, ...] = (
    ReasonFact("DCGMDiagnosticFailure", "a DCGM active diagnostics test failed", True),
    ReasonFact("DCGMError", "the agent lost (or never had) its connection to the DCGM host engine", True),
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

DCGM_UNREACHABLE_REASON = "DCGMError"
"""The reason the agent sets when its DCGM host engine is unreachable: on GPU Operator nodes the agent's own
dcgm-server is often missing or sees no GPUs (aws/containers-roadmap #2555, #2763;
aws/eks-node-monitoring-agent #241, #256)."""


def eks_reason(reason: str) -> ReasonFact | None:
    """The fact for an ``AcceleratedHardwareReady`` reason, None for a reason the table does not know."""
    return next((r for r in EKS_GPU_REASONS if r.matches(reason)), None)


REPORTER_REASONS: dict[str, tuple[ReasonFact, ...]] = {"eks-node-monitoring-agent": EKS_GPU_REASONS}
"""The reasons each reporter's conditions carry that gpuready explains (only the EKS agent's so far)."""


def reporter_reason(reporter: str, reason: str) -> ReasonFact | None:
    """The fact for a reason ``reporter`` set on one of its conditions, None for a reason no table knows."""
    return next((r for r in REPORTER_REASONS.get(reporter, ()) if r.matches(reason)), None)
