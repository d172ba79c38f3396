"""The node conditions that report GPU (and GPU node) health, in one table, each with its source. Pure data.

A cloud's own reporters' conditions and reasons are rows of its package (``<cloud>/health_conditions.py``), read
through its profile (``NodeSetup.health_conditions``, ``condition_reasons``); NVSentinel's, any cloud's, are here.

* the EKS node monitoring agent: ``AcceleratedHardwareReady`` (the GPUs), ``KernelReady``, ``NetworkingReady``,
  ``StorageReady``, ``ContainerRuntimeReady``; a problem when ``False``;
* AKS Node Problem Detector: ``GPUMissing``, ``NVLinkStatusInactive``, ``XIDErrors``, ``IBLinkFlapping``,
  ``GPUClockThrottling``, ``UnhealthyNvidiaDevicePlugin``; a problem when ``True``;
* NVIDIA NVSentinel: ``GpuInforomWatch``, ``GpuMemWatch``, ``GpuNvlinkWatch``, ``GpuPcieWatch``, ``GpuPowerWatch``,
  ``GpuThermalWatch``, ``GpuThermalMarginWatch``, ``GpuDcgmConnectivityFailure``, ``SysLogsXIDError``,
  ``SysLogsSXIDError``, ``SysLogsGPUFallenOff``; a problem when ``True``;
* GKE: none. GKE auto-repair judges ``Ready`` and boot disk space only, and publishes no GPU condition.

Sources:
# the EKS agent's and AKS NPD's: beside their rows (eks/health_conditions.py, aks/health_conditions.py)
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

import functools
import re
from collections.abc import Iterator, Mapping
from typing import Literal

from gpuready.core.clouds.registry import cloud_profiles
from gpuready.record import record

Reporter = Literal["eks-node-monitoring-agent", "aks-npd", "nvsentinel"]
Severity = Literal["error", "warning"]

REPORTER_TITLES: dict[str, str] = {
    "eks-node-monitoring-agent": "the EKS node monitoring agent",
    "aks-npd": "AKS Node Problem Detector",
    "nvsentinel": "NVIDIA NVSentinel",
}


@record(frozen=True, slots=True)
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


_NVS: Reporter = "nvsentinel"


def nvsentinel_watch_check(watch: str) -> str:
    """NVSentinel's check (and node condition) name for a DCGM health watch: ``DCGM_HEALTH_WATCH_NVSWITCH_FATAL`` is
    ``GpuNvswitchFatalWatch`` (platform_connector.py L81-90, cited above)."""
    words = watch.removeprefix("DCGM_HEALTH_WATCH_").split("_")
    return "Gpu" + "".join(w[:1] + w[1:].lower() for w in words) + "Watch"


def _dcgm(watch: str) -> str:
    return nvsentinel_watch_check(f"DCGM_HEALTH_WATCH_{watch}")


NVSENTINEL_CONDITIONS: tuple[HealthCondition, ...] = (
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
)  # fmt: skip
"""NVIDIA NVSentinel's conditions (any cloud); a cloud's own reporters' are its profile's
(``NodeSetup.health_conditions``)."""


@record(frozen=True, slots=True)
class ReasonFact:
    """What a reason a reporter gives for a condition means (``[Code]`` stands for a number); a cloud's reporters'
    reasons are its profile's (``NodeSetup.condition_reasons``)."""

    pattern: str
    meaning: str
    condition: bool
    """Set as the node condition (auto repair acts on it); otherwise only a Kubernetes event."""
    cause: str = ""
    """What verification adds to the finding's cause when a node reports the reason ("" for nothing more)."""
    fix: str = ""
    """The fix verification proposes instead of repairing the node (``{node}``: the node's name); "" to repair it."""

    def matches(self, reason: str) -> bool:
        return re.fullmatch(self.pattern.replace("[Code]", r"\d+"), reason) is not None


@functools.cache
def _by_type() -> dict[str, HealthCondition]:
    """Every registered cloud's reporters' conditions, in registry order, then NVSentinel's."""
    found = [c for profile in cloud_profiles() for c in profile.health_conditions]
    return {c.type: c for c in (*found, *NVSENTINEL_CONDITIONS)}


class _Conditions(Mapping[str, HealthCondition]):
    """Condition type -> its fact, read from the registered cloud profiles when first asked (the profiles are
    registered after the core is imported: ``gpuready.plugins``)."""

    def __getitem__(self, key: str) -> HealthCondition:
        return _by_type()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(_by_type())

    def __len__(self) -> int:
        return len(_by_type())


HEALTH_CONDITIONS: Mapping[str, HealthCondition] = _Conditions()
"""Every node condition type gpuready reads -> its fact: the clouds' own reporters' and NVSentinel's."""


def condition_reason(fact: HealthCondition, reason: str) -> ReasonFact | None:
    """What ``reason`` means for a condition of ``fact``'s type, from the reasons of the cloud whose reporter sets it;
    None when its cloud lists no such reason (or the reporter is no cloud's)."""
    for profile in cloud_profiles():
        if fact in profile.health_conditions:
            return next((r for r in profile.condition_reasons if r.matches(reason)), None)
    return None
