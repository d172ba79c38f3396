"""kube-scheduler's NodeResourcesFit filter and score, and its choice among the best nodes. Pure.

The formulas, as kubernetes/kubernetes ``pkg/scheduler/framework/plugins/noderesources`` computes them in
integers (``MaxNodeScore`` is 100):

- ``most_allocated.go``: ``score_r = min(requested_r, allocatable_r) * 100 // allocatable_r``;
- ``least_allocated.go``: ``score_r = (allocatable_r - requested_r) * 100 // allocatable_r``, 0 when
  ``requested_r > allocatable_r``;
- both: ``node score = sum(weight_r * score_r) // sum(weight_r)`` over the resources with
  ``allocatable_r > 0``, where ``requested_r`` is what the node's pods request plus the incoming pod;
- ``resource_allocation.go``: an extended resource the pod does not request is left out of its score;
- ``fit.go`` (filter): a pod fits when every resource it requests stays within the node's allocatable.

The Resource Bin Packing page documents the same weighted mean. The scheduler then takes the best-scored
node and breaks ties uniformly at random by reservoir sampling (``schedule_one.go`` ``selectHost``);
``select_node`` does the same with a seeded ``random.Random``, or takes the lowest index without one. Only
NodeResourcesFit is modelled: the other default score plugins (BalancedAllocation, ImageLocality, ...) are
left out, and so is ``percentageOfNodesToScore``, which scores every node of a cluster under 100 nodes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

MAX_NODE_SCORE = 100
NATIVE_RESOURCES = frozenset({"cpu", "memory", "ephemeral-storage"})
"""Resources that are always scored; every other name counts as an extended (scalar) resource."""

Resources = Mapping[str, int]
"""Resource name -> integer amount (GPUs, millicores, MiB)."""
Strategy = Literal["LeastAllocated", "MostAllocated"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ScoringRule:
    """A NodeResourcesFit ``scoringStrategy``: a type and resource weights."""

    name: str
    strategy: Strategy
    weights: Mapping[str, int]


DEFAULT_SPREADING = ScoringRule(name="LeastAllocated", strategy="LeastAllocated", weights={"cpu": 1, "memory": 1})
"""The default scheduler's NodeResourcesFit scoring: LeastAllocated, cpu and memory weighted 1
(NodeResourcesFitArgs reference)."""


def scoring_rule_of(configuration: Mapping[str, Any], name: str = "MostAllocated") -> ScoringRule:
    """The NodeResourcesFit scoring rule of a ``KubeSchedulerConfiguration``'s first profile.

    Raises:
        ValueError: the profile uses ``RequestedToCapacityRatio``, which this model does not compute.
    """
    for plugin in configuration["profiles"][0].get("pluginConfig", []):
        if plugin["name"] == "NodeResourcesFit":
            strategy = plugin["args"]["scoringStrategy"]
            if strategy["type"] not in ("LeastAllocated", "MostAllocated"):
                raise ValueError(f"scoring strategy {strategy['type']!r} is not modelled")
            weights = {r["name"]: int(r["weight"]) for r in strategy["resources"]}
            return ScoringRule(name=name, strategy=strategy["type"], weights=weights)
    return DEFAULT_SPREADING


@dataclass(slots=True)
class NodeLoad:
    """A node's allocatable resources and what the pods placed on it request."""

    allocatable: Resources
    requested: dict[str, int] = field(default_factory=dict)

    def add(self, pod: Resources) -> None:
        for name, amount in pod.items():
            self.requested[name] = self.requested.get(name, 0) + amount

    def remove(self, pod: Resources) -> None:
        for name, amount in pod.items():
            self.requested[name] -= amount

    def free(self, name: str) -> int:
        return self.allocatable.get(name, 0) - self.requested.get(name, 0)


def resource_score(strategy: Strategy, requested: int, allocatable: int) -> int:
    """One resource's 0-100 score; ``requested`` already includes the incoming pod."""
    if allocatable == 0:
        return 0
    if strategy == "MostAllocated":
        return min(requested, allocatable) * MAX_NODE_SCORE // allocatable
    if requested > allocatable:
        return 0
    return (allocatable - requested) * MAX_NODE_SCORE // allocatable


def node_score(rule: ScoringRule, pod: Resources, node: NodeLoad) -> int:
    """NodeResourcesFit's 0-100 score of placing ``pod`` on ``node``."""
    total = weight_sum = 0
    for name, weight in rule.weights.items():
        pod_request = pod.get(name, 0)
        allocatable = node.allocatable.get(name, 0)
        if (pod_request == 0 and name not in NATIVE_RESOURCES) or allocatable == 0:
            continue
        requested = node.requested.get(name, 0) + pod_request
        total += resource_score(rule.strategy, requested, allocatable) * weight
        weight_sum += weight
    return total // weight_sum if weight_sum else 0


def fits(pod: Resources, node: NodeLoad) -> bool:
    """The NodeResourcesFit filter: every requested resource stays within the node's allocatable."""
    return all(amount <= node.free(name) for name, amount in pod.items() if amount)


def select_node(
    rule: ScoringRule, pod: Resources, nodes: Sequence[NodeLoad], rng: random.Random | None = None
) -> int | None:
    """Index of the node the scheduler picks for ``pod``, or None when no node fits.

    Ties between best-scored nodes: reservoir sampling with ``rng`` (as ``selectHost``), else the lowest index.
    """
    chosen: int | None = None
    best = -1
    ties = 0
    for index, node in enumerate(nodes):
        if not fits(pod, node):
            continue
        score = node_score(rule, pod, node)
        if score > best:
            chosen, best, ties = index, score, 1
        elif score == best:
            ties += 1
            if rng is not None and rng.randrange(ties) == 0:
                chosen = index
    return chosen
