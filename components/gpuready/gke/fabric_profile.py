"""GKE's fabric facts and hooks (``core.clouds.fabric_profile``), mixed into ``GkeProfile``. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gpuready.core.clouds.fabric_profile import FabricProfile
from gpuready.errors import Problem
from gpuready.gke import fabric, fabric_objects
from gpuready.gke.rxdm import RXDM

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec


class GkeFabricProfile(FabricProfile):
    """GPUDirect-TCPX / -TCPXO / -RDMA on GKE's A3 and A4 machines."""

    fabric_types = fabric.FABRIC_TYPES
    fabric_networks = fabric.NETWORK_COUNTS
    policy_fabric_networks_field = "networkConfig.additionalNodeNetworkConfigs"

    def fabric_pool_problems(self, spec: GpuPoolSpec, instance_type: str) -> list[Problem]:
        return fabric.pool_problems(spec, instance_type)

    def fabric_objects(self, pools: Sequence[GpuPoolSpec]) -> list[Mapping[str, Any]]:
        return fabric_objects.fabric_objects(pools)

    def fabric_pod_annotations(self, spec: GpuPoolSpec) -> dict[str, str]:
        return fabric_objects.pod_annotations(spec)

    def fabric_sidecars(self, spec: GpuPoolSpec) -> list[Mapping[str, Any]]:
        rxdm = RXDM.get(spec.fabric.kind) if spec.fabric is not None else None
        return [] if rxdm is None else [rxdm.sidecar]

    def fabric_volumes(self, spec: GpuPoolSpec) -> list[Mapping[str, Any]]:
        rxdm = RXDM.get(spec.fabric.kind) if spec.fabric is not None else None
        return [] if rxdm is None else list(rxdm.volumes)

    def fabric_container_fields(self, spec: GpuPoolSpec) -> Mapping[str, Any]:
        rxdm = RXDM.get(spec.fabric.kind) if spec.fabric is not None else None
        return {} if rxdm is None else rxdm.container
