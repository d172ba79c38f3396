"""What a cloud knows about multi-node fabrics (``core.fabric``): the part of ``CloudProfile`` about them. Pure.

Each cloud sets ``fabric_types`` (its instance types with a fabric, each fact cited in the cloud's package) and
adds its own needs of a fabric pool (``fabric_pool_problems``), the cluster objects the fabric needs
(``fabric_objects``) and what a workload's pods need on such a pool (``fabric_pod_annotations``,
``fabric_container_resources``). The defaults are a cloud without fabrics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from gpuready.core.clouds.named import NamedCloud
from gpuready.core.fabric import kind_problems

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec
    from gpuready.errors import Problem


class FabricProfile(NamedCloud, Protocol):
    """The fabric facts and hooks of a cloud profile (its audience: pool rules, the stack program's cluster
    objects, the workload helper, the policy pack)."""

    fabric_types: ClassVar[Mapping[str, str]] = {}
    """Instance types with a multi-node fabric -> its kind (``core.fabric.FABRIC_KINDS``)."""

    fabric_networks: ClassVar[Mapping[str, int]] = {}
    """Instance types whose fabric needs additional node networks -> how many (GKE GPUDirect)."""
    policy_fabric_networks_field: ClassVar[str] = ""
    """Dotted path of a pool resource's additional node networks (the policy pack counts them)."""

    def fabric_problems(self, spec: GpuPoolSpec, instance_type: str) -> list[Problem]:
        """Problems of the pool's ``fabric`` on ``instance_type``: the kind first (the types that have it), then
        the cloud's own needs of a fabric pool."""
        fabric = spec.fabric
        if fabric is None:
            return []
        problems = kind_problems(fabric.kind, instance_type, self.title, self.fabric_types)
        return problems or self.fabric_pool_problems(spec, instance_type)

    def fabric_pool_problems(self, spec: GpuPoolSpec, instance_type: str) -> list[Problem]:
        """The cloud's own needs of a pool whose type has the fabric it asks for (networks, placement...)."""
        return []

    def fabric_summary(self, spec: GpuPoolSpec) -> str:
        """The pool's fabric as the plan table shows it (``-`` without one)."""
        return "-" if spec.fabric is None else spec.fabric.kind

    def fabric_objects(self, pools: Sequence[GpuPoolSpec]) -> list[Mapping[str, Any]]:
        """Kubernetes objects the stack's fabric pools need in the cluster (cluster-side networks, installers), in
        creation order; a ``helm.sh/v3`` ``Release`` manifest is a Helm release, and what follows it waits for it
        (its CRDs)."""
        return []

    def fabric_stack_problems(self, spec: GpuPoolSpec, stack_kind: str) -> list[Problem]:
        """Problems of a fabric pool under the stack's ``gpuStack.kind`` (the software its fabric needs)."""
        return []

    def fabric_operator_values(self, pools: Sequence[GpuPoolSpec]) -> dict[str, Any]:
        """GPU Operator values the pools' fabrics need, by top-level section (merged into the section)."""
        return {}

    def fabric_pod_annotations(self, spec: GpuPoolSpec) -> dict[str, str]:
        """Pod annotations a multi-node workload on ``spec``'s pool needs for the fabric (extra interfaces)."""
        return {}

    def fabric_sidecars(self, spec: GpuPoolSpec) -> list[Mapping[str, Any]]:
        """Containers a multi-node workload's pods run beside its own for the fabric (GKE TCPX/TCPXO: RxDM)."""
        return []

    def fabric_volumes(self, spec: GpuPoolSpec) -> list[Mapping[str, Any]]:
        """Pod volumes the fabric's sidecars and containers mount."""
        return []

    def fabric_container_fields(self, spec: GpuPoolSpec) -> Mapping[str, Any]:
        """What each of the workload's containers adds for the fabric: ``env`` and ``volumeMounts`` entries and
        ``capabilities`` to add (merged into what the container has)."""
        return {}

    def fabric_container_resources(self, spec: GpuPoolSpec) -> dict[str, str]:
        """Extended resources (name -> quantity, request == limit) a container of such a workload asks for the
        fabric's devices."""
        return {}
