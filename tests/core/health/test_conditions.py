"""The health condition table: NVSentinel's names follow its own rule for DCGM health watches, pinned to its source
(``gpuready.core.health.conditions`` cites NVIDIA/NVSentinel 1abd31dd, the v1.14.0 registration commit)."""

from __future__ import annotations

import pytest

from gpuready.core.health.conditions import HEALTH_CONDITIONS, nvsentinel_watch_check

# NVIDIA/NVSentinel 1abd31dd health-monitors/gpu-health-monitor/gpu_health_monitor/platform_connector/
# platform_connector.py L89 states PCIE and SM; the others follow the rule of L81-87 (every word of the watch's name
# after DCGM_HEALTH_WATCH_, capitalised).
WATCHES = [
    ("DCGM_HEALTH_WATCH_PCIE", "GpuPcieWatch"),
    ("DCGM_HEALTH_WATCH_SM", "GpuSmWatch"),
    ("DCGM_HEALTH_WATCH_NVLINK", "GpuNvlinkWatch"),
    ("DCGM_HEALTH_WATCH_INFOROM", "GpuInforomWatch"),
    ("DCGM_HEALTH_WATCH_MEM", "GpuMemWatch"),
    ("DCGM_HEALTH_WATCH_THERMAL_MARGIN", "GpuThermalMarginWatch"),
    ("DCGM_HEALTH_WATCH_NVSWITCH_FATAL", "GpuNvswitchFatalWatch"),
]

NVSENTINEL = {
    # syslog-health-monitor/pkg/syslog-monitor/types.go L38-40
    "SysLogsXIDError", "SysLogsSXIDError", "SysLogsGPUFallenOff",
    # gpu-health-monitor platform_connector.py L387 (fatal: L402)
    "GpuDcgmConnectivityFailure",
    # DCGM health watches (platform_connector.py L81-90), the field watch of dcgm.py L50-57
    "GpuInforomWatch", "GpuMemWatch", "GpuNvlinkWatch", "GpuPcieWatch", "GpuPowerWatch", "GpuThermalWatch",
    "GpuThermalMarginWatch",
}  # fmt: skip


@pytest.mark.parametrize(("watch", "check"), WATCHES)
def test_a_dcgm_health_watch_is_named_as_nvsentinel_names_it(watch: str, check: str) -> None:
    assert nvsentinel_watch_check(watch) == check


def test_the_nvsentinel_rows_are_the_names_in_its_source() -> None:
    assert {c.type for c in HEALTH_CONDITIONS.values() if c.reporter == "nvsentinel"} == NVSENTINEL
    assert {c.problem_status for c in HEALTH_CONDITIONS.values() if c.reporter == "nvsentinel"} == {"True"}


def test_nvsentinel_losing_dcgm_is_an_error() -> None:
    """The one-DCGM rule's failure seen from NVSentinel (issue #29): an error, as the EKS agent's DCGMError is."""
    assert HEALTH_CONDITIONS["GpuDcgmConnectivityFailure"].severity == "error"
