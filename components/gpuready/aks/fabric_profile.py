"""AKS's fabric facts and hooks (``core.fabric.CloudFabric``), set on ``AksProfile`` as ``fabric``. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gpuready.aks import fabric, network_operator
from gpuready.core.capacity import gpu_choice
from gpuready.core.fabric.model import CloudFabric, FabricSpec, FabricWorkload, TypeFabric
from gpuready.core.scheduling import LABEL_POOL, tolerated_taints, toleration_for
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec


class AksFabric(CloudFabric):
    """InfiniBand on AKS's ND-series sizes, set up by NVIDIA's Network Operator."""

    types: Mapping[str, TypeFabric] = fabric.TYPES
    resource_names = (network_operator.RDMA_RESOURCE,)

    def type_resources(self, instance_type: str) -> dict[str, int]:
        found = instance_type in self.types
        return {network_operator.RDMA_RESOURCE: network_operator.RDMA_HCA_MAX} if found else {}

    def resources(self, spec: GpuPoolSpec) -> dict[str, int]:
        found = spec.fabric is not None and spec.fabric.kind == "infiniband"
        return {network_operator.RDMA_RESOURCE: network_operator.RDMA_HCA_MAX} if found else {}

    def problems(self, spec: GpuPoolSpec, fabric_spec: FabricSpec) -> list[Problem]:
        return [p for name in gpu_choice.instance_types(spec)[:1] for p in fabric.pool_problems(spec, name)]

    def stack_problems(self, spec: GpuPoolSpec, stack_kind: str) -> list[Problem]:
        return fabric.stack_problems(spec, stack_kind)

    def operator_values(self, pools: Sequence[GpuPoolSpec]) -> dict[str, Any]:
        return network_operator.operator_values(pools)

    def cluster_objects(self, pools: Sequence[GpuPoolSpec]) -> list[Mapping[str, Any]]:
        ib = network_operator.infiniband_pools(pools)
        seen = {(t.key, t.effect): toleration_for(t) for p in ib for t in tolerated_taints(p)}
        return network_operator.fabric_objects(pools, list(seen.values()), LABEL_POOL)

    def workload(self, spec: GpuPoolSpec, share: Fraction) -> FabricWorkload:
        return FabricWorkload(
            resources=network_operator.container_resources(spec), container=network_operator.container_fields(spec)
        )


FABRIC = AksFabric()
