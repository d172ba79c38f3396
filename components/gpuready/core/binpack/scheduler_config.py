"""The bin-packing scheduler's spec and its ``KubeSchedulerConfiguration``. Pure.

Sources (kubernetes/website): "Resource Bin Packing" (concepts/scheduling-eviction/resource-bin-packing),
"kube-scheduler Configuration (v1)" (reference/config-api/kube-scheduler-config.v1) and "Configure Multiple
Schedulers" (tasks/extend-kubernetes/configure-multiple-schedulers). Scoring formulas: kubernetes/kubernetes
``pkg/scheduler/framework/plugins/noderesources/{most,least}_allocated.go`` and ``resource_allocation.go``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from typing import Any, Literal

from gpuready.core import resources, yaml_text
from gpuready.core.binpack import scheduler_rules
from gpuready.core.binpack.scheduler_fields import (
    DEFAULT_SCHEDULER_NAME,
    KUBE_SCHEDULER_IMAGE,
    MIN_KUBE_MINOR,
    TOLERATION_OPERATORS,
    SchedulerFields,
    SchedulerToleration,
    TolerationOperator,
)
from gpuready.core.scheduling import GPU_RESOURCE, GPU_TAINT_KEY
from gpuready.core.specs import GpuPoolSpec
from gpuready.record import record

__all__ = [  # the facts moved to scheduler_fields stay importable from here
    "CONFIG_DIR",
    "CONFIG_FILE",
    "CONFIG_PATH",
    "CPU_WEIGHT",
    "DEFAULT_SCHEDULER_NAME",
    "GPU_WEIGHT",
    "KUBE_SCHEDULER_IMAGE",
    "MEMORY_WEIGHT",
    "MIN_KUBE_MINOR",
    "SCHEDULER_CONFIG_API_VERSION",
    "SECURE_PORT",
    "TOLERATION_OPERATORS",
    "BinPackSchedulerSpec",
    "SchedulerToleration",
    "ScoringStrategyType",
    "TolerationOperator",
    "configuration_yaml",
    "gpu_resources_of",
    "scheduler_configuration",
    "scoring_resources",
]

SCHEDULER_CONFIG_API_VERSION = "kubescheduler.config.k8s.io/v1"
"""The ``KubeSchedulerConfiguration`` API version; GA since Kubernetes 1.25."""
CONFIG_DIR = "/etc/kubernetes/gpu-binpack"
CONFIG_FILE = "config.yaml"
CONFIG_PATH = f"{CONFIG_DIR}/{CONFIG_FILE}"
SECURE_PORT = 10259
"""kube-scheduler's HTTPS port (``--secure-port`` default); ``/healthz`` is readable without credentials
(``--authorization-always-allow-paths`` default ``/healthz,/readyz,/livez``; kube-scheduler command-line
reference)."""

GPU_WEIGHT = 100
"""Weight of every GPU resource in the ``MostAllocated`` score: the API's maximum (weights go 1-100).

A node's score is ``sum(weight_r * score_r) // sum(weight_r)`` with ``score_r = requested_r * 100 //
allocatable_r`` after adding the pod (``most_allocated.go``). CPU and memory weigh 1 each, so together they
move the weighted sum by at most 200. One more GPU unit used on a node with ``C`` units raises ``score_gpu``
by at least ``100 // C`` points and the weighted sum by at least ``100 * (100 // C)``: more than 200 for
every ``C`` up to 33 (8-GPU nodes, 4-way shares of 8 GPUs, 7-slice MIG on 4 GPUs), so the fuller node's sum
is higher whatever CPU and memory say (the final division can at most make it a tie). A weight of 10 would
let CPU and memory outvote a whole GPU on an 8-GPU node (``10 * 12.5 = 125 < 200``). Extended resources a
pod does not request are left out of its score (``resource_allocation.go``), so GPU weights do not change
where CPU-only pods go.
"""
CPU_WEIGHT = 1
MEMORY_WEIGHT = 1

ScoringStrategyType = Literal["LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"]
SCORING_STRATEGY_TYPES: tuple[ScoringStrategyType, ...] = (
    "LeastAllocated",
    "MostAllocated",
    "RequestedToCapacityRatio",
)
"""``ScoringStrategyType`` values of ``NodeResourcesFitArgs``; the default is ``LeastAllocated`` with cpu and
memory weighted 1 (NodeResourcesFitArgs reference)."""


@record(frozen=True, kw_only=True, slots=True)
class BinPackSchedulerSpec(SchedulerFields):
    """A second kube-scheduler with one bin-packing profile, validated on creation (``scheduler_rules``).

    Give ``kube_scheduler_version`` (``v1.33.4``) or the ``cluster_version`` the cluster reports
    (``1.33.4-eks-...``, ``v1.33.5-gke.1000``); a minor-only ``cluster_version`` (``1.33``) also needs
    ``patch_version``, since picking a patch would need a registry lookup.
    """

    version: str = field(init=False, repr=False, compare=False)
    """The kube-scheduler release, ``v1.MINOR.PATCH``, filled in by validation."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "gpu_resources", tuple(self.gpu_resources))
        object.__setattr__(self, "gpu_taint_keys", tuple(self.gpu_taint_keys))
        object.__setattr__(self, "node_selector", dict(self.node_selector))
        object.__setattr__(self, "tolerations", tuple(self.tolerations))
        object.__setattr__(self, "version", scheduler_rules.validate(self))

    @property
    def image(self) -> str:
        """The kube-scheduler image, e.g. ``registry.k8s.io/kube-scheduler:v1.33.4``."""
        return f"{self.image_repository}:{self.version}"


def gpu_taint_keys_of(pools: Iterable[GpuPoolSpec]) -> tuple[str, ...]:
    """The pools' GPU taint keys besides ``nvidia.com/gpu`` (their conventions'), for ``gpu_taint_keys``."""
    keys = dict.fromkeys(pool.conventions.gpu_taint.key for pool in pools)
    return tuple(k for k in keys if k != GPU_TAINT_KEY)


def gpu_resources_of(pools: Iterable[GpuPoolSpec]) -> tuple[str, ...]:
    """The GPU resource names gpuready's pools advertise besides ``nvidia.com/gpu``, for ``gpu_resources``.

    E.g. ``nvidia.com/gpu.shared`` (time-slicing with ``renameByDefault``) or ``nvidia.com/mig-1g.10gb``
    (MIG ``mixed``), in first-seen order (``resources.resource_names``).
    """
    names: dict[str, None] = {}
    for pool in pools:
        names.update(dict.fromkeys(n for n in resources.resource_names(pool) if n != GPU_RESOURCE))
    return tuple(names)


def scoring_resources(spec: BinPackSchedulerSpec) -> list[dict[str, Any]]:
    """``scoringStrategy.resources``: every GPU resource at ``GPU_WEIGHT``, then cpu and memory at 1."""
    gpus = [{"name": name, "weight": GPU_WEIGHT} for name in spec.scored_gpu_resources]
    return [*gpus, {"name": "cpu", "weight": CPU_WEIGHT}, {"name": "memory", "weight": MEMORY_WEIGHT}]


def scheduler_configuration(spec: BinPackSchedulerSpec) -> dict[str, Any]:
    """The ``KubeSchedulerConfiguration`` (``kubescheduler.config.k8s.io/v1``) of the bin-packing scheduler.

    One profile, ``spec.scheduler_name``, keeps every default plugin and only configures
    ``NodeResourcesFit`` to score with ``MostAllocated`` (the "Resource Bin Packing" page's example, with
    GPU weights). Leader election uses a Lease named ``spec.name`` in ``spec.namespace``: left at its
    defaults it would contend for the control plane scheduler's own ``kube-system/kube-scheduler`` Lease
    (Configure Multiple Schedulers, "Enable leader election"). Leader election stays on even with one
    replica, so a rolling update never runs two active schedulers of the same name.
    """
    return {
        "apiVersion": SCHEDULER_CONFIG_API_VERSION,
        "kind": "KubeSchedulerConfiguration",
        "leaderElection": {
            "leaderElect": True,
            "resourceLock": "leases",
            "resourceName": spec.name,
            "resourceNamespace": spec.namespace,
        },
        "profiles": [
            {
                "schedulerName": spec.scheduler_name,
                "pluginConfig": [
                    {
                        "name": "NodeResourcesFit",
                        "args": {"scoringStrategy": {"type": "MostAllocated", "resources": scoring_resources(spec)}},
                    }
                ],
            }
        ],
    }


def configuration_yaml(spec: BinPackSchedulerSpec) -> str:
    """The configuration file the scheduler reads with ``--config``."""
    return yaml_text.dump(scheduler_configuration(spec), remember=True)
