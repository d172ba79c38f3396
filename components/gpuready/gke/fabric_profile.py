"""GKE's fabric facts and hooks (``core.fabric.CloudFabric``), set on ``GkeProfile`` as ``fabric``. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gpuready.core.capacity import gpu_choice
from gpuready.core.fabric.model import CloudFabric, FabricSpec, FabricWorkload, TypeFabric
from gpuready.errors import Problem
from gpuready.gke import fabric, fabric_objects
from gpuready.gke.rxdm import RXDM

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec


class GkeFabric(CloudFabric):
    """GPUDirect-TCPX / -TCPXO / -RDMA on GKE's A3 and A4 machines."""

    types: Mapping[str, TypeFabric] = fabric.TYPES
    networks = fabric.NETWORK_COUNTS
    policy_networks_field = "networkConfig.additionalNodeNetworkConfigs"

    def problems(self, spec: GpuPoolSpec, fabric_spec: FabricSpec) -> list[Problem]:
        return [p for name in gpu_choice.instance_types(spec)[:1] for p in fabric.pool_problems(spec, name)]

    def cluster_objects(self, pools: Sequence[GpuPoolSpec]) -> list[Mapping[str, Any]]:
        return fabric_objects.fabric_objects(pools)

    def workload(self, spec: GpuPoolSpec, share: Fraction) -> FabricWorkload:
        rxdm = RXDM.get(spec.fabric.kind) if spec.fabric is not None else None
        return FabricWorkload(
            annotations=fabric_objects.pod_annotations(spec),
            sidecars=() if rxdm is None else (rxdm.sidecar,),
            volumes=() if rxdm is None else tuple(rxdm.volumes),
            container={} if rxdm is None else rxdm.container,
        )


FABRIC = GkeFabric()
