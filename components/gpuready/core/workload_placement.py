"""How a GPU workload's pods are placed relative to each other: bin-packing or spreading. Pure.

Kubernetes facts (kubernetes.io "Assigning Pods to Nodes", inter-pod affinity and anti-affinity; "Pod Topology
Spread Constraints"; "Configure Multiple Schedulers"): ``schedulerName`` hands the pod to a secondary scheduler
(gpuready's ``GpuBinPackingScheduler`` profile ``gpu-binpack`` scores nodes MostAllocated); a *preferred*
``podAffinity`` on a group label with ``topologyKey: kubernetes.io/hostname`` draws a job's workers onto the
nodes its other workers use; a *required* ``podAntiAffinity`` on the same key puts each replica on its own
node; ``topologySpreadConstraints`` on ``topology.kubernetes.io/zone`` balance replicas across zones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from gpuready.core.k8s_syntax import label_value_problem
from gpuready.errors import Problem, SpecError
from gpuready.record import record

BINPACK_SCHEDULER = "gpu-binpack"
"""The profile name ``GpuBinPackingScheduler`` serves by default."""
PACK_GROUP_LABEL = "gpuready.io/pack-group"
HOSTNAME = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
PACK_WEIGHT = 100
"""Preferred-affinity weight (1-100): the strongest preference short of a requirement."""


@record(frozen=True, kw_only=True, slots=True)
class Placement:
    """Packing or spreading for a workload's pods; validated on creation."""

    scheduler_name: str | None = None
    """Secondary scheduler, e.g. ``gpu-binpack`` (None: the default scheduler)."""
    pack_group: str | None = None
    """Pods with the same group value prefer the same nodes (preferred pod affinity on ``gpuready.io/pack-group``)."""
    spread_by_host: bool = False
    """Each replica on its own node (required pod anti-affinity on ``kubernetes.io/hostname``)."""
    spread_by_zone: bool = False
    """Replicas balanced across zones (topology spread, max skew 1, ``ScheduleAnyway``)."""
    selector: Mapping[str, str] = field(default_factory=dict)
    """The workload's own pod labels; spreading needs them to find its replicas."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "selector", dict(self.selector))
        problems = _problems(self)
        if problems:
            raise SpecError(problems)

    def pod_labels(self) -> dict[str, str]:
        """Labels the pods must carry (the pack group's)."""
        return {PACK_GROUP_LABEL: self.pack_group} if self.pack_group else {}

    def pod_spec(self) -> dict[str, Any]:
        """``schedulerName``, ``affinity`` and ``topologySpreadConstraints`` as the placement asks."""
        spec: dict[str, Any] = {}
        if self.scheduler_name:
            spec["schedulerName"] = self.scheduler_name
        affinity: dict[str, Any] = {}
        if self.pack_group:
            term = {"labelSelector": {"matchLabels": self.pod_labels()}, "topologyKey": HOSTNAME}
            affinity["podAffinity"] = {
                "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": PACK_WEIGHT, "podAffinityTerm": term}]
            }
        if self.spread_by_host:
            term = {"labelSelector": {"matchLabels": dict(self.selector)}, "topologyKey": HOSTNAME}
            affinity["podAntiAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": [term]}
        if affinity:
            spec["affinity"] = affinity
        if self.spread_by_zone:
            spec["topologySpreadConstraints"] = [
                {
                    "maxSkew": 1,
                    "topologyKey": ZONE,
                    "whenUnsatisfiable": "ScheduleAnyway",
                    "labelSelector": {"matchLabels": dict(self.selector)},
                }
            ]
        return spec


def _problems(placement: Placement) -> list[Problem]:
    problems: list[Problem] = []
    name = placement.scheduler_name
    if name is not None and (not name or label_value_problem(name) or name != name.lower()):
        problems.append(
            Problem(
                "placement.schedulerName",
                "is not a scheduler name (a lowercase DNS-style name)",
                name,
                (),
                "e.g. gpu-binpack",
            )
        )
    if placement.pack_group is not None and (not placement.pack_group or label_value_problem(placement.pack_group)):
        problems.append(
            Problem("placement.packGroup", "must be a valid label value", placement.pack_group, (), "e.g. job-42")
        )
    if placement.pack_group and placement.spread_by_host:
        problems.append(
            Problem(
                "placement",
                "packing onto shared nodes and one replica per node contradict each other",
                None,
                (),
                "pack a job's workers (packGroup) or spread a service's replicas (spreadByHost), not both",
            )
        )
    if (placement.spread_by_host or placement.spread_by_zone) and not placement.selector:
        problems.append(
            Problem(
                "placement.selector",
                "spreading needs the workload's pod labels to recognise its replicas",
                None,
                (),
                "pass selector={'app': 'my-service'} (the labels of the pod template)",
            )
        )
    for key, value in placement.selector.items():
        if label_value_problem(value):
            problems.append(Problem(f"placement.selector.{key}", "is not a valid label value", value))
    return problems
