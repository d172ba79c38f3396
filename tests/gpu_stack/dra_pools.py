"""The DRA pool sets both DRA stacks' rendering tests plan (``test_rendered_dra``, ``test_rendered_gpu_cluster``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.clouds.registry import Cloud
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.taints import Taint


def dra_pool(name: str, cloud: Cloud, instance_type: str, **extra: Any) -> GpuPoolSpec:
    """A DRA pool (``advertise: dra``) of up to two nodes."""
    return GpuPoolSpec(
        name=name, cloud=cloud, instance_type=instance_type, min_size=0, max_size=2, advertise="dra", **extra
    )


DRA_POOL_SETS: Mapping[str, tuple[Cloud, tuple[GpuPoolSpec, ...]]] = {
    "eks-one": ("eks", (dra_pool("h100", "eks", "p5.48xlarge"),)),
    "eks-two-tainted": (
        "eks",
        (
            dra_pool("l4", "eks", "g6.12xlarge", capacity="spot"),
            dra_pool("a10g", "eks", "g5.2xlarge", taints=(Taint(key="team", value="ml", effect="NoExecute"),)),
        ),
    ),
    "aks-ubuntu-and-azurelinux": (
        "aks",
        (
            dra_pool("t4", "aks", "Standard_NC4as_T4_v3"),
            dra_pool("a100", "aks", "Standard_NC24ads_A100_v4", image="azurelinux"),
        ),
    ),
}
"""One pool; two pools of which one carries a second taint (NoExecute); two images on AKS."""
