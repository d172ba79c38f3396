"""What every provisioner whose pool is a Karpenter ``karpenter.sh/v1`` NodePool shares. Pure.

EKS Karpenter, EKS Auto Mode and AKS node auto-provisioning make nodes on demand (elastic), cap them with the
NodePool's ``spec.limits`` (so a pool may set ``gpuLimit``), and name the pool as a Kubernetes object, not by the
cloud's node-group naming rule (Karpenter v1 NodePool CRD, ``aws/karpenter-provider-aws`` v1.14.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from components.core.capacity import karpenter_nodepool, refusals
from components.core.capacity.interface import Provisioner

if TYPE_CHECKING:
    from components.core.specs import GpuPoolSpec
    from components.errors import Problem


class KarpenterNodePoolProvisioner(Provisioner):
    """A provisioner whose pool is a Karpenter NodePool: elastic, GPU-limited, named as a Kubernetes object."""

    elastic: ClassVar[bool] = True
    limits_gpus: ClassVar[bool] = True

    def name_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        return refusals.object_name_problems(spec.name, karpenter_nodepool.API[1])
