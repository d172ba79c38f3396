"""What every provisioner whose pool is a Karpenter ``karpenter.sh/v1`` NodePool shares. Pure.

EKS Karpenter, EKS Auto Mode and AKS node auto-provisioning make nodes on demand (elastic), cap them with the
NodePool's ``spec.limits`` (so a pool may set ``gpuLimit``), name the pool as a Kubernetes object, not by the
cloud's node-group naming rule (Karpenter v1 NodePool CRD, ``aws/karpenter-provider-aws`` v1.14.1), read no input
at creation only, and plan their GPUs from the NodePool's requirements and limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from gpuready.core.capacity import karpenter_nodepool, karpenter_reader, refusals
from gpuready.core.capacity.interface import Provisioner
from gpuready.core.capacity.pool_facts import PoolReader

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec
    from gpuready.errors import Problem


class KarpenterNodePoolProvisioner(Provisioner):
    """A provisioner whose pool is a Karpenter NodePool: elastic, GPU-limited, named as a Kubernetes object."""

    elastic: ClassVar[bool] = True
    limits_gpus: ClassVar[bool] = True
    node_lifetime: ClassVar[bool] = True
    readers: ClassVar[Mapping[str, PoolReader]] = {
        karpenter_nodepool.NODE_POOL_TABLE.type: karpenter_reader.NODE_POOL_READER
    }

    def name_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        return refusals.object_name_problems(spec.name, karpenter_nodepool.API[1])

    def creation_only(self, spec: GpuPoolSpec) -> tuple[str, ...]:
        """None: every NodePool input updates in place (``karpenter_nodepool.NODE_POOL_TABLE``)."""
        return ()
