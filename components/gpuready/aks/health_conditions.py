"""AKS Node Problem Detector's GPU node conditions. Pure data; read through ``AksProfile.health_conditions``.

# https://learn.microsoft.com/azure/aks/node-problem-detector ("Node conditions", GPU only rows) and
#   https://learn.microsoft.com/azure/aks/gpu-health-monitoring (not on pools with --gpu-driver none)
"""

from __future__ import annotations

from gpuready.core.health.conditions import HealthCondition, Reporter

_NPD: Reporter = "aks-npd"

CONDITIONS: tuple[HealthCondition, ...] = (
    HealthCondition("GPUMissing", _NPD, "True", True, "fewer GPUs than the VM size has are visible to nvidia-smi"),
    HealthCondition("NVLinkStatusInactive", _NPD, "True", True, "an NVLink is inactive"),
    HealthCondition("XIDErrors", _NPD, "True", True, "XID errors in the kernel log"),
    HealthCondition("IBLinkFlapping", _NPD, "True", True, "an InfiniBand link keeps going down and up"),
    HealthCondition("GPUClockThrottling", _NPD, "True", True, "GPU clocks are throttled", "warning"),
    HealthCondition("UnhealthyNvidiaDevicePlugin", _NPD, "True", True, "the managed device plugin is not running"),
)  # fmt: skip
"""NPD's GPU conditions; a problem when ``True``."""
