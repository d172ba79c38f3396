"""The bin-packing scheduler's inputs and the facts its rules check them against. Pure.

``scheduler_rules`` and ``scheduler_version`` check ``SchedulerFields``; ``scheduler_config.BinPackSchedulerSpec``
adds the validated release to them, so the rules and the spec import in one direction only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Literal

from gpuready.core import namespaces
from gpuready.core.k8s_syntax import TaintEffect
from gpuready.core.scheduling import GPU_RESOURCE
from gpuready.core.workload_placement import BINPACK_SCHEDULER
from gpuready.record import record

MIN_KUBE_MINOR = 25
"""Oldest minor whose kube-scheduler reads ``kubescheduler.config.k8s.io/v1``."""
KUBE_SCHEDULER_IMAGE = "registry.k8s.io/kube-scheduler"
"""Upstream kube-scheduler images, tagged ``v1.MINOR.PATCH``."""
DEFAULT_SCHEDULER_NAME = "default-scheduler"
"""The profile name of the cluster's own scheduler; every scheduler needs a unique name (Configure Multiple
Schedulers)."""
TolerationOperator = Literal["Exists", "Equal"]
TOLERATION_OPERATORS: tuple[TolerationOperator, ...] = ("Exists", "Equal")


@record(frozen=True, kw_only=True, slots=True)
class SchedulerToleration:
    """A toleration for the scheduler's own pods (e.g. a system node pool's ``CriticalAddonsOnly`` taint)."""

    key: str
    operator: TolerationOperator = "Equal"
    value: str = ""
    effect: TaintEffect | None = None
    """None tolerates every effect of the key."""

    def to_k8s(self) -> dict[str, str]:
        """The toleration as a Pod spec writes it."""
        encoded = {"key": self.key, "operator": self.operator}
        if self.value:
            encoded["value"] = self.value
        if self.effect is not None:
            encoded["effect"] = self.effect
        return encoded


@record(frozen=True, kw_only=True, slots=True)
class SchedulerFields:
    """The inputs of a ``BinPackSchedulerSpec``, as given (the rules read them; the spec validates them).

    Give ``kube_scheduler_version`` (``v1.33.4``) or the ``cluster_version`` the cluster reports
    (``1.33.4-eks-...``, ``v1.33.5-gke.1000``); a minor-only ``cluster_version`` (``1.33``) also needs
    ``patch_version``, since picking a patch would need a registry lookup.
    """

    name: str = "gpu-binpack-scheduler"
    """Name of the Deployment, ServiceAccount, leader-election Lease and the objects derived from them."""
    namespace: str = namespaces.BINPACK_SCHEDULER
    """The scheduler's own namespace, which gpuready creates (and deletes): never ``default`` or ``kube-*``."""
    scheduler_name: str = BINPACK_SCHEDULER
    """Profile name; pods opt in with ``spec.schedulerName: gpu-binpack``."""
    kube_scheduler_version: str | None = None
    """Exact image tag, ``v1.MINOR.PATCH``."""
    cluster_version: str | None = None
    """The control plane's version as the cloud or ``kubectl version`` reports it."""
    patch_version: int | None = None
    """Patch to use with a minor-only ``cluster_version``."""
    gpu_resources: tuple[str, ...] = ()
    """Extra GPU resource names that dominate scoring like ``nvidia.com/gpu`` (``nvidia.com/gpu.shared``,
    ``nvidia.com/mig-1g.10gb``)."""
    replicas: int = 2
    """Scheduler pods; one leads at a time (leader election is always on)."""
    cpu_request: str = "100m"
    memory_request: str = "256Mi"
    memory_limit: str | None = None
    """None sets no limit: the scheduler's caches grow with the cluster, and an OOM kill stops scheduling."""
    node_selector: Mapping[str, str] = field(default_factory=dict)
    """Extra node labels the scheduler pods require (``kubernetes.io/os: linux`` is always set)."""
    tolerations: tuple[SchedulerToleration, ...] = ()
    """Extra tolerations; none may tolerate a GPU taint."""
    gpu_taint_keys: tuple[str, ...] = ()
    """The GPU taint keys of the pools besides ``nvidia.com/gpu`` (a team's, ``gpuready:conventions``), which no
    toleration may name either (``gpu_taint_keys_of``)."""
    image_repository: str = KUBE_SCHEDULER_IMAGE
    """Repository of the kube-scheduler image (a mirror of ``registry.k8s.io/kube-scheduler``), without tag."""

    @property
    def scored_gpu_resources(self) -> tuple[str, ...]:
        """``nvidia.com/gpu`` and the extra GPU resource names, in that order."""
        return (GPU_RESOURCE, *self.gpu_resources)
