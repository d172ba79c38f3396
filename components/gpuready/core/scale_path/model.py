"""What the scale-path model reasons about, and the one interface its deciders share. Pure.

For a pool and one request shape its workload helper can produce (``shapes``), two deciders answer in turn: the
autoscaler of the pool's provisioner (``Provisioner.scale_decider``: Karpenter, EKS Auto Mode, AKS node
auto-provisioning, the cluster autoscaler of EKS / AKS node groups, GKE) says whether a pending pod of that shape
makes it create a node and up to how many, then the scheduler (``scheduler_fit``) says whether the pod is placed on
such a node. Every refusal carries the upstream rule it encodes (``cite``) and a fix that works (``fix``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import field
from typing import TYPE_CHECKING

from gpuready.core.taints import Taint
from gpuready.errors import Problem
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

KARPENTER_GATES: tuple[str, ...] = (
    "NodeRepair",
    "ReservedCapacity",
    "SpotToSpotConsolidation",
    "NodeOverlay",
    "StaticCapacity",
    "CapacityBuffer",
)
"""Karpenter's feature gates (kubernetes-sigs/karpenter v1.14.1 ``pkg/operator/options/options.go`` L134; the chart's
``settings.featureGates``, ../shared/reference/upstream/karpenter-aws/chart-values.v1.14.1.yaml L230-249)."""
NODE_OVERLAY_GATE = "NodeOverlay"
"""Off by default (options.go L134 ``NodeOverlay=false``; chart ``settings.featureGates.nodeOverlay: false``)."""


@record(frozen=True, kw_only=True, slots=True)
class ClusterFacts:
    """What the stack declares about the cluster's autoscaler settings (``gpuready:karpenterFeatureGates``)."""

    karpenter_feature_gates: frozenset[str] = frozenset()
    """Karpenter feature gates the cluster's controller runs with on (the defaults have every alpha gate off)."""

    @property
    def node_overlay(self) -> bool:
        """Whether Karpenter applies NodeOverlays (the alpha ``NodeOverlay`` gate)."""
        return NODE_OVERLAY_GATE in self.karpenter_feature_gates


DEFAULT_CLUSTER = ClusterFacts()
"""A cluster whose autoscalers run with their upstream defaults."""


def karpenter_cluster(gates: object, path: str, problems: list[Problem]) -> ClusterFacts:
    """The cluster facts of a declared list of Karpenter feature gates (the stack key
    ``gpuready:karpenterFeatureGates``, the package's ``karpenterFeatureGates`` input), spelled as Karpenter's
    ``--feature-gates`` spells them; each problem is added to ``problems`` under ``path``."""
    if gates is None:
        return DEFAULT_CLUSTER
    if not isinstance(gates, list | tuple):
        problems.append(Problem(path, "must be a list of Karpenter feature gates", gates, KARPENTER_GATES,
                                "e.g. [NodeOverlay]"))  # fmt: skip
        return DEFAULT_CLUSTER
    for index, gate in enumerate(gates):
        if gate not in KARPENTER_GATES:
            hint = "spell it as Karpenter's --feature-gates does, e.g. NodeOverlay"
            problems.append(Problem(f"{path}[{index}]", "is not a Karpenter feature gate", gate, KARPENTER_GATES, hint))
    return ClusterFacts(karpenter_feature_gates=frozenset(g for g in gates if g in KARPENTER_GATES))


@record(frozen=True, kw_only=True, slots=True)
class Shape:
    """One request a workload on the pool makes: ``count`` units of an extended resource, or a ResourceClaim for
    devices of a DeviceClass (of one MIG profile)."""

    resource: str
    claim: bool = False
    mig_profile: str | None = None
    count: int = 1

    @property
    def text(self) -> str:
        """``nvidia.com/gpu x1``, ``claim mig.nvidia.com 1g.10gb x1``."""
        if self.claim:
            profile = f" {self.mig_profile}" if self.mig_profile else ""
            return f"claim {self.resource}{profile} x{self.count}"
        return f"{self.resource} x{self.count}"


@record(frozen=True, kw_only=True, slots=True)
class PendingPod:
    """What the autoscaler and the scheduler see of a pending pod of one shape (the workload helper's pod)."""

    node_selector: Mapping[str, str]
    tolerations: tuple[Mapping[str, str], ...]
    requests: Mapping[str, int] = field(default_factory=dict)
    """Extended resources of its containers (requests == limits)."""
    device_class: str | None = None
    """The DeviceClass its ResourceClaim asks for (DRA), None without a claim."""
    devices: int = 0
    selector_attributes: tuple[str, ...] = ()
    """Device attributes its claim's CEL selectors read."""


@record(frozen=True, kw_only=True, slots=True)
class NewNode:
    """A node of the pool once Ready: its labels, taints, allocatable extended resources and published devices."""

    labels: Mapping[str, str]
    taints: tuple[Taint, ...]
    allocatable: Mapping[str, int]
    devices: Mapping[str, int] = field(default_factory=dict)
    """DeviceClass -> devices its ResourceSlices publish."""
    mig: bool = False
    """Whether its devices are MIG devices (which publish more attributes)."""
    gpus: int = 0
    """Physical GPUs of its instance type."""


@record(frozen=True, kw_only=True, slots=True)
class Decision:
    """One decider's answer: yes (with the autoscaler's bound on nodes), or no with the reason, rule and fix."""

    ok: bool
    reason: str = ""
    cite: str = ""
    fix: str = ""
    max_nodes: int | None = None
    """Most nodes the autoscaler makes for such pods (None: the scheduler's answer, which bounds nothing)."""
    key: str = ""
    """The pool key the fix changes (``sharing``, ``minSize``...), "" when it is the workload's."""
    via: str = ""
    """How the nodes come when a plain pending pod does not make them (a GKE queued pool: through a
    ProvisioningRequest only), "" when it does."""

    @classmethod
    def no(cls, reason: str, cite: str, fix: str, key: str = "") -> Decision:
        return cls(ok=False, reason=reason, cite=cite, fix=fix, key=key)


class ScaleDecider(ABC):
    """An autoscaler: does a pending pod make it create a node of the pool, and up to how many."""

    title: str
    """How messages name it (``Karpenter``, ``cluster-autoscaler (EKS)``)."""

    def node_labels(self, spec: GpuPoolSpec) -> dict[str, str]:
        """Labels the autoscaler puts on the nodes it makes besides the pool's (GKE's class label)."""
        return {}

    def node_taints(self, spec: GpuPoolSpec) -> tuple[Taint, ...]:
        """Taints the autoscaler puts on the nodes it makes besides the pool's (GKE's class taint)."""
        return ()

    @abstractmethod
    def decide(self, spec: GpuPoolSpec, pod: PendingPod, node: NewNode, cluster: ClusterFacts) -> Decision:
        """Whether a pending ``pod`` makes the autoscaler create a ``node`` of ``spec``'s pool, up to how many."""
