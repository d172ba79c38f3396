"""How each GPU stack kind fits a GKE pool whose driver GKE installs: GKE's own device plugin runs there
(``gke-device-plugin``), so only ``none`` fits. Pure; read through ``GkeProfile.platform_fits``."""

from __future__ import annotations

from gpuready.core.clouds.fit_rows import ByDriver, FitRow, same
from gpuready.core.clouds.node_setup import PlatformFits
from gpuready.core.gpu_stack.kinds import STACK_KINDS

_FIGHT = FitRow(
    ok=False,
    summary="GKE installs the driver and runs its own device plugin on this pool, so NVIDIA's would fight it",
    hint="set gpuStack.kind none, or give the pool driver: operator and image: ubuntu (GKE driver installation "
    "disabled, on a node pool: a ComputeClass always has GKE install the driver) for NVIDIA's stack; the "
    "operator over Google's driver installer is not offered (docs/gpu-stack.md, 'GKE and the GPU Operator')",
)


def _every(row: FitRow) -> dict[str, ByDriver]:
    """``row`` for every stack kind and driver owner."""
    return {kind: same(row) for kind in STACK_KINDS}


PLATFORM_FITS: PlatformFits = {
    "gke-device-plugin": _every(_FIGHT)
    | {"none": same(FitRow(ok=True, summary="GKE's driver and device plugin (sharing and MIG on the node pool)"))},
}
"""GKE's device plugin -> its row per kind and driver owner."""
