"""The GPU weights of gpuready's bin-packing profile under the NodeResourcesFit model of ``bench/placement_model.py``:
one more GPU unit outweighs any CPU and memory, and CPU-only pods are scored as before (the GPU_WEIGHT argument).
"""

from __future__ import annotations

import pytest
from placement_model import NodeLoad, ScoringRule, node_score, scoring_rule_of

from gpuready.core.binpack.scheduler_config import BinPackSchedulerSpec, scheduler_configuration

SPEC = BinPackSchedulerSpec(kube_scheduler_version="v1.33.4")


def test_one_more_gpu_unit_outweighs_any_cpu_and_memory() -> None:
    """Every node size up to 33 units and every fill: the node with one more unit used wins, even when the
    other node's CPU and memory are full and its own are idle (the GPU_WEIGHT argument)."""
    rule = scoring_rule_of(scheduler_configuration(SPEC))
    pod = {"nvidia.com/gpu": 1, "cpu": 1, "memory": 1}
    for capacity in range(2, 34):
        allocatable = {"nvidia.com/gpu": capacity, "cpu": 1000, "memory": 1000}
        for used in range(capacity - 1):
            fuller = NodeLoad(allocatable, {"nvidia.com/gpu": used + 1, "cpu": 0, "memory": 0})
            emptier = NodeLoad(allocatable, {"nvidia.com/gpu": used, "cpu": 999, "memory": 999})
            assert node_score(rule, pod, fuller) > node_score(rule, pod, emptier), (capacity, used)


def test_weight_10_would_let_cpu_and_memory_outvote_a_gpu() -> None:
    """Why GPU_WEIGHT is 100 rather than 10, on an 8-GPU node (hand-computed in test_placement_model)."""
    weak = ScoringRule(name="w10", strategy="MostAllocated", weights={"nvidia.com/gpu": 10, "cpu": 1, "memory": 1})
    pod = {"nvidia.com/gpu": 1, "cpu": 1, "memory": 1}
    allocatable = {"nvidia.com/gpu": 8, "cpu": 1000, "memory": 1000}
    fuller = NodeLoad(allocatable, {"nvidia.com/gpu": 1, "cpu": 0, "memory": 0})
    emptier = NodeLoad(allocatable, {"nvidia.com/gpu": 0, "cpu": 999, "memory": 999})
    assert node_score(weak, pod, fuller) < node_score(weak, pod, emptier)


def test_gpu_weights_leave_cpu_only_pods_alone() -> None:
    """An extended resource the pod does not request is left out of its score (resource_allocation.go)."""
    rule = scoring_rule_of(scheduler_configuration(SPEC))
    allocatable = {"nvidia.com/gpu": 8, "cpu": 1000, "memory": 1000}
    node = NodeLoad(allocatable, {"nvidia.com/gpu": 0, "cpu": 500, "memory": 250})
    # (500 + 100) * 100 // 1000 = 60 and (250 + 100) * 100 // 1000 = 35: (60 + 35) // 2 = 47
    assert node_score(rule, {"cpu": 100, "memory": 100}, node) == 47


def test_only_least_and_most_allocated_are_modelled() -> None:
    config = scheduler_configuration(SPEC)
    config["profiles"][0]["pluginConfig"][0]["args"]["scoringStrategy"]["type"] = "RequestedToCapacityRatio"
    with pytest.raises(ValueError, match="not modelled"):
        scoring_rule_of(config)
