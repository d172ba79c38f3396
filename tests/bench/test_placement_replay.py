"""Replays of a tiny job stream, every figure worked out by hand; and the seeded job stream.

Two nodes of 8 GPUs, jobs asking 1 CPU and 1000 MiB per GPU, ties to the lowest node index:

- A (t=0, 10 h, 1 GPU) and B (t=1, 10 h, 1 GPU): spreading puts them on different nodes, packing on node 0;
- C (t=2, 5 h, 8 GPUs): spreading leaves 7 + 7 GPUs free, no node fits (fragmentation); packing fits node 1;
- D (t=3, 1 h, 8 GPUs): spreading, fragmentation again; packing, only 6 GPUs free in total (capacity).

Waiting, spreading: A departs at 10 and C takes node 0; B departs at 11 and D takes node 1. Packing: C
departs at 7 and D takes node 1.
"""

from __future__ import annotations

import itertools

import pytest
from placement_model import DEFAULT_SPREADING, ScoringRule
from placement_replay import Job, PoolShape, job_stream, replay

PACKING = ScoringRule(name="packing", strategy="MostAllocated", weights={"nvidia.com/gpu": 100, "cpu": 1, "memory": 1})
POOL = PoolShape(
    nodes=2,
    allocatable={"nvidia.com/gpu": 8, "cpu": 8000, "memory": 8000},
    per_gpu_request={"cpu": 1000, "memory": 1000},
)
JOBS = [
    Job(arrival=0.0, duration=10.0, gpus=1),
    Job(arrival=1.0, duration=10.0, gpus=1),
    Job(arrival=2.0, duration=5.0, gpus=8),
    Job(arrival=3.0, duration=1.0, gpus=8),
]


def test_spreading_fragments_and_makes_the_big_jobs_wait() -> None:
    result = replay(JOBS, DEFAULT_SPREADING, POOL, horizon=20.0, buckets=2)
    assert (result.fragmentation_failures, result.capacity_failures, result.rejected) == (2, 0, 0)
    assert result.fragmentation_share == 0.5
    assert result.mean_wait == 4.0  # C and D wait 8 h each
    assert result.mean_wait_by_size == {1: 0.0, 8: 8.0}
    # GPU-hours per 10 h: 1*1 + 2*9 = 19; then 9*1 (B, C) + 16*1 (C, D) + 8*3 (C) = 49; out of 16 GPUs * 10 h
    assert result.utilisation_buckets == pytest.approx((19 / 160, 49 / 160))
    assert result.mean_utilisation == pytest.approx(68 / 320)
    assert result.last_departure == 15.0


def test_packing_keeps_a_whole_node_free() -> None:
    result = replay(JOBS, PACKING, POOL, horizon=20.0, buckets=2)
    assert (result.fragmentation_failures, result.capacity_failures, result.rejected) == (0, 1, 0)
    assert result.mean_wait == 1.0  # only D waits, 4 h
    assert result.mean_wait_by_size == {1: 0.0, 8: 2.0}
    # 1 + 2 + 10*1 + 10*4 + 10*1 (A, B, D) + 2*2 = 67; then B alone for 1 h
    assert result.utilisation_buckets == pytest.approx((67 / 160, 1 / 160))
    assert result.mean_utilisation == pytest.approx(68 / 320)
    assert result.last_departure == 11.0


def test_utilisation_up_to_the_last_arrival_by_default() -> None:
    spreading = replay(JOBS, DEFAULT_SPREADING, POOL, buckets=3)
    packing = replay(JOBS, PACKING, POOL, buckets=3)
    assert spreading.horizon == packing.horizon == 3.0
    assert spreading.utilisation_buckets == pytest.approx((1 / 16, 2 / 16, 2 / 16))
    assert packing.utilisation_buckets == pytest.approx((1 / 16, 2 / 16, 10 / 16))
    assert packing.mean_utilisation == pytest.approx(13 / 48)


def test_rejecting_drops_the_jobs_that_do_not_fit() -> None:
    spreading = replay(JOBS, DEFAULT_SPREADING, POOL, on_no_fit="reject", horizon=20.0, buckets=2)
    packing = replay(JOBS, PACKING, POOL, on_no_fit="reject", horizon=20.0, buckets=2)
    assert (spreading.fragmentation_failures, spreading.capacity_failures, spreading.rejected) == (2, 0, 2)
    assert (packing.fragmentation_failures, packing.capacity_failures, packing.rejected) == (0, 1, 1)
    assert spreading.mean_wait_by_size == {1: 0.0}
    assert spreading.mean_utilisation == pytest.approx(20 / 320)  # A and B only
    assert packing.mean_utilisation == pytest.approx(60 / 320)  # A, B and C


def test_a_job_larger_than_a_node_is_refused() -> None:
    with pytest.raises(ValueError, match="never fit"):
        replay([Job(arrival=0.0, duration=1.0, gpus=9)], PACKING, POOL)


def test_job_stream_is_seeded() -> None:
    sizes = {1: 0.4, 2: 0.3, 4: 0.2, 8: 0.1}
    first = job_stream(seed=3, count=2000, sizes=sizes, mean_interarrival=0.5, mean_duration=2.0)
    assert first == job_stream(seed=3, count=2000, sizes=sizes, mean_interarrival=0.5, mean_duration=2.0)
    assert first != job_stream(seed=4, count=2000, sizes=sizes, mean_interarrival=0.5, mean_duration=2.0)
    assert {job.gpus for job in first} == {1, 2, 4, 8}
    assert all(a.arrival < b.arrival for a, b in itertools.pairwise(first))
    assert first[-1].arrival / len(first) == pytest.approx(0.5, rel=0.1)
    assert sum(job.duration for job in first) / len(first) == pytest.approx(2.0, rel=0.1)
