"""Replay a stream of GPU jobs onto a pool of identical nodes under one scoring rule, and measure it. Pure.

Each job is one pod asking for ``gpus`` GPUs plus ``gpus`` times a per-GPU share of CPU and memory. A job
that fits nowhere when it arrives either waits (``"wait"``) or is dropped (``"reject"``). Waiting jobs are
pending pods: after every departure they are tried again in arrival order, and one that still does not fit
does not hold back the ones behind it (kube-scheduler retries unschedulable pods each on its own, so there is
no head-of-line blocking). Every waiting job runs in the end: a job never asks for more than one node.

Measured: a job that does not fit on arrival although the pool has at least ``gpus`` free GPUs in total is a
fragmentation failure; one that does not fit because fewer GPUs are free in total is a capacity failure. GPU
utilisation is time-weighted over ``[0, horizon]`` (by default up to the last arrival, while jobs still come
in), as a mean and per bucket of equal width.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from placement_model import NodeLoad, Resources, ScoringRule, select_node

from gpuready.core.scheduling import GPU_RESOURCE

NoFit = Literal["wait", "reject"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Job:
    """One GPU job: when it arrives, how long it runs once placed, how many GPUs it asks for."""

    arrival: float
    duration: float
    gpus: int


@dataclass(frozen=True, kw_only=True, slots=True)
class PoolShape:
    """Identical nodes, and what a job requests besides GPUs, per GPU."""

    nodes: int
    allocatable: Resources
    """Per node, e.g. ``{"nvidia.com/gpu": 8, "cpu": 95000, "memory": 1_100_000}`` (millicores, MiB)."""
    per_gpu_request: Resources = field(default_factory=dict)
    """CPU and memory a job requests per GPU it asks for."""

    @property
    def gpus(self) -> int:
        return self.nodes * self.allocatable[GPU_RESOURCE]

    def pod(self, job: Job) -> dict[str, int]:
        """The resource requests of ``job``'s pod."""
        requests = {GPU_RESOURCE: job.gpus}
        requests.update({name: amount * job.gpus for name, amount in dict(self.per_gpu_request).items()})
        return requests


@dataclass(frozen=True, kw_only=True, slots=True)
class ReplayResult:
    """What one replay measured."""

    rule: str
    jobs: int
    fragmentation_failures: int
    """Jobs that did not fit on arrival although enough GPUs were free in total."""
    capacity_failures: int
    """Jobs that did not fit on arrival because too few GPUs were free in total."""
    rejected: int
    """Jobs dropped because they did not fit on arrival (``"reject"`` only)."""
    mean_wait: float
    """Mean time from arrival to start over the jobs that ran."""
    mean_wait_by_size: Mapping[int, float]
    horizon: float
    mean_utilisation: float
    """Time-weighted share of the pool's GPUs in use over ``[0, horizon]``."""
    utilisation_buckets: tuple[float, ...]
    last_departure: float

    @property
    def fragmentation_share(self) -> float:
        return self.fragmentation_failures / self.jobs if self.jobs else 0.0


def job_stream(
    *, seed: int, count: int, sizes: Mapping[int, float], mean_interarrival: float, mean_duration: float
) -> list[Job]:
    """``count`` jobs with exponential inter-arrival times and durations and sizes drawn from ``sizes``."""
    rng = random.Random(seed)
    choices, weights = list(sizes), list(sizes.values())
    jobs: list[Job] = []
    clock = 0.0
    for _ in range(count):
        clock += rng.expovariate(1.0 / mean_interarrival)
        gpus = rng.choices(choices, weights)[0]
        jobs.append(Job(arrival=clock, duration=rng.expovariate(1.0 / mean_duration), gpus=gpus))
    return jobs


def replay(
    jobs: Sequence[Job],
    rule: ScoringRule,
    pool: PoolShape,
    *,
    on_no_fit: NoFit = "wait",
    horizon: float | None = None,
    buckets: int = 10,
    tie_seed: int | None = None,
) -> ReplayResult:
    """Place ``jobs`` (sorted by arrival) with ``rule``; ties go to the lowest node index unless ``tie_seed``."""
    rng = random.Random(tie_seed) if tie_seed is not None else None
    nodes = [NodeLoad(pool.allocatable) for _ in range(pool.nodes)]
    end = horizon if horizon is not None else (jobs[-1].arrival if jobs else 0.0)
    usage = _UsageMeter(end, buckets, pool.gpus)
    departures: list[tuple[float, int, int]] = []  # (time, job index, node index)
    pending: list[int] = []
    waits: list[float | None] = [None] * len(jobs)
    fragmentation = capacity = 0

    def start(index: int, node: int, now: float) -> None:
        job = jobs[index]
        nodes[node].add(pool.pod(job))
        usage.change(now, job.gpus)
        waits[index] = now - job.arrival
        heapq.heappush(departures, (now + job.duration, index, node))

    def place(index: int, now: float) -> bool:
        node = select_node(rule, pool.pod(jobs[index]), nodes, rng)
        if node is not None:
            start(index, node, now)
        return node is not None

    def depart_until(limit: float) -> None:
        while departures and departures[0][0] <= limit:
            now, index, node = heapq.heappop(departures)
            nodes[node].remove(pool.pod(jobs[index]))
            usage.change(now, -jobs[index].gpus)
            largest_free = max(n.free(GPU_RESOURCE) for n in nodes)
            still_pending = []
            for waiting in pending:  # in arrival order; a job that does not fit holds back no other
                if jobs[waiting].gpus > largest_free or not place(waiting, now):
                    still_pending.append(waiting)
            pending[:] = still_pending

    for index, job in enumerate(jobs):
        depart_until(job.arrival)
        if place(index, job.arrival):
            continue
        if usage.used_gpus + job.gpus <= pool.gpus:
            fragmentation += 1
        else:
            capacity += 1
        if on_no_fit == "wait":
            pending.append(index)
    depart_until(float("inf"))
    if pending:
        raise ValueError(f"{len(pending)} jobs never fit: a job asks for more than one node holds")
    ran = [wait for wait in waits if wait is not None]
    return ReplayResult(
        rule=rule.name,
        jobs=len(jobs),
        fragmentation_failures=fragmentation,
        capacity_failures=capacity,
        rejected=len(jobs) - len(ran),
        mean_wait=sum(ran) / len(ran) if ran else 0.0,
        mean_wait_by_size=_mean_by_size(jobs, waits),
        horizon=end,
        mean_utilisation=usage.mean(),
        utilisation_buckets=usage.per_bucket(),
        last_departure=usage.last_event,
    )


def _mean_by_size(jobs: Sequence[Job], waits: Sequence[float | None]) -> dict[int, float]:
    totals: dict[int, list[float]] = {}
    for job, wait in zip(jobs, waits, strict=True):
        if wait is not None:
            totals.setdefault(job.gpus, []).append(wait)
    return {size: sum(values) / len(values) for size, values in sorted(totals.items())}


class _UsageMeter:
    """GPUs in use, integrated over time into equal buckets of ``[0, horizon]``."""

    def __init__(self, horizon: float, buckets: int, gpus: int) -> None:
        self.horizon = horizon
        self.width = horizon / buckets if horizon > 0 else 0.0
        self.areas = [0.0] * buckets
        self.gpus = gpus
        self.used_gpus = 0
        self.last_event = 0.0

    def change(self, now: float, delta: int) -> None:
        """``delta`` GPUs start (+) or stop (-) being used at ``now``; events come in time order."""
        start, stop = self.last_event, min(now, self.horizon)
        while start < stop and self.width > 0:
            bucket = min(int(start / self.width), len(self.areas) - 1)
            edge = min(stop, (bucket + 1) * self.width)
            self.areas[bucket] += self.used_gpus * (edge - start)
            start = edge
        self.last_event = now
        self.used_gpus += delta

    def per_bucket(self) -> tuple[float, ...]:
        """Mean share of GPUs in use per bucket; complete once every job has departed (nothing in use)."""
        if self.width == 0:
            return tuple(0.0 for _ in self.areas)
        return tuple(area / (self.width * self.gpus) for area in self.areas)

    def mean(self) -> float:
        buckets = self.per_bucket()
        return sum(buckets) / len(buckets) if buckets else 0.0
