"""NodeResourcesFit's scores, filter and node choice, checked against numbers worked out by hand.

Formulas: ``most_allocated.go`` / ``least_allocated.go`` (kubernetes/kubernetes scheduler noderesources
plugin), weighted mean as on the Resource Bin Packing page; ties as ``selectHost`` (reservoir sampling).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from placement_model import (
    DEFAULT_SPREADING,
    NodeLoad,
    ScoringRule,
    Strategy,
    fits,
    node_score,
    resource_score,
    select_node,
)

PACKING = ScoringRule(name="packing", strategy="MostAllocated", weights={"nvidia.com/gpu": 100, "cpu": 1, "memory": 1})
NODE = {"nvidia.com/gpu": 8, "cpu": 8000, "memory": 8000}


def gpu_pod(gpus: int) -> dict[str, int]:
    """``gpus`` GPUs with 1 CPU and 1000 MiB per GPU."""
    return {"nvidia.com/gpu": gpus, "cpu": 1000 * gpus, "memory": 1000 * gpus}


def loaded(gpus: int, cpu: int | None = None, memory: int | None = None) -> NodeLoad:
    per_gpu = 1000 * gpus
    return NodeLoad(
        NODE,
        {
            "nvidia.com/gpu": gpus,
            "cpu": per_gpu if cpu is None else cpu,
            "memory": per_gpu if memory is None else memory,
        },
    )


@pytest.mark.parametrize(
    ("strategy", "requested", "allocatable", "score"),
    [
        ("MostAllocated", 3, 4, 75),  # the bin-packing page's example: requested + used = 0.75 of available
        ("MostAllocated", 5, 8, 62),  # 500 // 8, truncated
        ("MostAllocated", 9, 8, 100),  # requested above capacity counts as full
        ("MostAllocated", 1, 0, 0),
        ("LeastAllocated", 5, 8, 37),  # (8 - 5) * 100 // 8
        ("LeastAllocated", 9, 8, 0),
        ("LeastAllocated", 0, 8, 100),
    ],
)
def test_resource_score(strategy: Strategy, requested: int, allocatable: int, score: int) -> None:
    assert resource_score(strategy, requested, allocatable) == score


def test_most_allocated_picks_the_fuller_node() -> None:
    nodes = [loaded(0), loaded(4)]
    pod = gpu_pod(1)
    # node 0: 1/8 of each -> 12, 12, 12 -> (1200 + 12 + 12) // 102 = 12
    # node 1: 5/8 of each -> 62, 62, 62 -> (6200 + 62 + 62) // 102 = 62
    assert [node_score(PACKING, pod, n) for n in nodes] == [12, 62]
    assert select_node(PACKING, pod, nodes) == 1


def test_least_allocated_picks_the_emptier_node() -> None:
    nodes = [loaded(0), loaded(4)]
    pod = gpu_pod(1)
    # cpu and memory only: node 0 (8000 - 1000) * 100 // 8000 = 87; node 1 (8000 - 5000) * 100 // 8000 = 37
    assert [node_score(DEFAULT_SPREADING, pod, n) for n in nodes] == [87, 37]
    assert select_node(DEFAULT_SPREADING, pod, nodes) == 0


def test_gpu_weight_outvotes_full_cpu_and_memory() -> None:
    """One GPU more on node 0 against CPU and memory filled up by CPU-only pods on node 1."""
    nodes = [loaded(1, cpu=0, memory=0), loaded(0, cpu=7000, memory=7000)]
    pod = gpu_pod(1)
    # node 0: gpu 2/8 -> 25, cpu 1000/8000 -> 12, memory 12 -> (2500 + 24) // 102 = 24
    # node 1: gpu 1/8 -> 12, cpu 8000/8000 -> 100, memory 100 -> (1200 + 200) // 102 = 13
    assert [node_score(PACKING, pod, n) for n in nodes] == [24, 13]
    assert select_node(PACKING, pod, nodes) == 0
    weight_10 = ScoringRule(name="w10", strategy="MostAllocated", weights={"nvidia.com/gpu": 10, "cpu": 1, "memory": 1})
    # node 0: (250 + 24) // 12 = 22; node 1: (120 + 200) // 12 = 26 -> weight 10 follows CPU and memory
    assert [node_score(weight_10, pod, n) for n in nodes] == [22, 26]
    assert select_node(weight_10, pod, nodes) == 1


def test_a_node_without_the_resource_is_filtered_and_unscored() -> None:
    cpu_node = NodeLoad({"cpu": 8000, "memory": 8000}, {})
    pod = gpu_pod(1)
    assert not fits(pod, cpu_node)
    # the GPU entry is skipped (allocatable 0): cpu and memory alone -> (12 + 12) // 2
    assert node_score(PACKING, pod, cpu_node) == 12
    assert select_node(PACKING, pod, [cpu_node, loaded(7)]) == 1


def test_no_node_fits() -> None:
    assert select_node(PACKING, gpu_pod(2), [loaded(7), loaded(7)]) is None
    assert fits(gpu_pod(1), loaded(7))
    assert not fits(gpu_pod(2), loaded(7))


def test_ties_go_to_the_lowest_index_without_a_random_source() -> None:
    assert select_node(PACKING, gpu_pod(1), [loaded(4), loaded(2), loaded(4)]) == 0


def test_ties_are_shared_evenly_with_a_random_source() -> None:
    rng = random.Random(7)
    nodes = [loaded(4), loaded(2), loaded(4), loaded(4)]
    picks = Counter(select_node(PACKING, gpu_pod(1), nodes, rng) for _ in range(3000))
    assert set(picks) == {0, 2, 3}
    assert all(900 < count < 1100 for count in picks.values())


def test_node_load_bookkeeping() -> None:
    node = loaded(0)
    node.add(gpu_pod(3))
    assert node.free("nvidia.com/gpu") == 5
    node.remove(gpu_pod(3))
    assert node.requested == {"nvidia.com/gpu": 0, "cpu": 0, "memory": 0}
