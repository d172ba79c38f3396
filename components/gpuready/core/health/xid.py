"""What an NVIDIA XID code means and what NVIDIA says to do about it. Pure data.

The codes a cloud's health agent treats as fatal (the EKS agent's: ``eks/health_conditions.FATAL_XIDS``, each in
this table) and their NVIDIA resolution buckets, and the application-level XIDs device plugins and NPD report most:
# https://docs.nvidia.com/deploy/xid-errors/index.html (NVIDIA's XID catalog; XID 13, 31, 43, 45, 94 the
# application-level ones)
"""

from __future__ import annotations

import re

from gpuready.record import record


@record(frozen=True, slots=True)
class Xid:
    code: int
    meaning: str
    action: str
    """NVIDIA's resolution bucket, as a sentence."""


_RESET = "reset the GPU (nvidia-smi -r); if it persists reboot the node, then replace it"
_REPLACE = "replace the node (the GPU cannot be recovered in place)"
_APP = "usually the application (a bad kernel or memory access): check the workload before the hardware"

XIDS: dict[int, Xid] = {x.code: x for x in (
    Xid(13, "graphics engine exception", _APP),
    Xid(31, "GPU memory page fault", _APP),
    Xid(43, "GPU stopped processing (an application fault)", _APP),
    Xid(45, "preemptive cleanup after a previous error", "look for the XID logged before it"),
    Xid(46, "GPU stopped processing", _RESET),
    Xid(48, "double bit ECC error", "reset the GPU and check the SRAM DBE threshold; persistent errors need an RMA"),
    Xid(54, "auxiliary power not connected", "check the GPU board's power connectors (replace the node)"),
    Xid(62, "internal micro-controller halt", _RESET),
    Xid(63, "GPU memory remapping event", "EC2 recommends replacing the instance: repeated remapping exhausts spares"),
    Xid(64, "GPU memory remapping failure", _RESET),
    Xid(74, "NVLink error", "reset the GPU or reboot the node (nvidia-smi nvlink -e); replace it if it recurs"),
    Xid(79, "GPU has fallen off the bus", "the GPU is unreachable over PCIe: a full power cycle, in practice "
        + _REPLACE),
    Xid(94, "contained ECC error", "restart the affected application; the GPU stays usable"),
    Xid(95, "uncontained memory error", _RESET),
    Xid(109, "context switch timeout", _RESET),
    Xid(110, "security fault error", _RESET),
    Xid(119, "GSP RPC timeout", _RESET),
    Xid(120, "GSP error", _RESET),
    Xid(136, "link training failed", _RESET),
    Xid(140, "unrecoverable ECC error", _RESET),
    Xid(142, "NVENC3 error", "no automated recovery: " + _REPLACE),
    Xid(143, "GPU initialization error", _RESET),
    Xid(151, "key rotation error (confidential computing)", "restart the VM: " + _REPLACE),
    Xid(155, "NVLink SW defined error", _RESET),
    Xid(156, "resource retirement event", _RESET),
    Xid(158, "GPU fatal timeout", _RESET),
)}  # fmt: skip

_XID_IN_REASON = re.compile(r"XID[ _-]?(\d+)", re.IGNORECASE)


def xid_in(text: str) -> int | None:
    """The XID code a condition reason or message names (``NvidiaXID79Error``, ``Xid 79``), if any."""
    match = _XID_IN_REASON.search(text)
    return int(match.group(1)) if match else None


def describe_xid(code: int) -> str:
    """``XID 79 (GPU has fallen off the bus; ...)`` or ``XID 999 (not in gpuready's table: see NVIDIA's catalog)``."""
    xid = XIDS.get(code)
    if xid is None:
        return f"XID {code} (not in gpuready's table: see https://docs.nvidia.com/deploy/xid-errors/index.html)"
    return f"XID {code} ({xid.meaning}; NVIDIA: {xid.action})"
