"""GPU fragmentation under the default scheduler's spreading versus gpuready's bin-packing profile.

One seeded stream of GPU jobs (1, 2, 4 or 8 GPUs; exponential inter-arrival times and durations) is
replayed onto 32 nodes of 8 GPUs twice, with kube-scheduler's NodeResourcesFit formulas
(``bench/placement_model.py``):

- LeastAllocated: the default scheduler's scoring (cpu and memory, weight 1 each);
- MostAllocated: the scoring rule read from the ``KubeSchedulerConfiguration`` gpuready deploys.

Ties between best-scored nodes are broken by a seeded random choice, as kube-scheduler's reservoir
sampling does. Two queueing assumptions, each replayed with both rules (``placement_replay``): "wait", a job
that fits nowhere stays pending and is retried after every departure, in arrival order, without head-of-line
blocking (Kubernetes pods); "reject", it is dropped. Printed per rule: fragmentation failures (did not fit on
arrival although enough GPUs were free in total), capacity failures (too few GPUs free in total), rejected
jobs, mean waits, and GPU utilisation up to the last arrival (mean and 10 buckets). With waiting, every job
runs in the end, so the utilisation of a stable pool tends to the offered load under both rules and the
difference shows in the waits; with rejection it shows in the utilisation.
Run: ``.venv/bin/python bench/binpack.py``.
"""

from __future__ import annotations

import argparse

from placement_model import DEFAULT_SPREADING, ScoringRule, scoring_rule_of
from placement_replay import Job, NoFit, PoolShape, ReplayResult, job_stream, replay

from gpuready.core.binpack.scheduler_config import BinPackSchedulerSpec, scheduler_configuration
from gpuready.core.scheduling import GPU_RESOURCE

SEED = 20240611
NODES = 32
JOBS = 4000
SIZES = {1: 0.4, 2: 0.3, 4: 0.2, 8: 0.1}
"""GPUs per job -> share of jobs (mean 2.6 GPUs)."""
MEAN_DURATION = 1.0
"""Hours a job runs once placed."""
OFFERED_LOAD = 0.85
"""Arrival rate x mean size x mean duration / GPUs in the pool."""
POOL = PoolShape(
    nodes=NODES,
    allocatable={GPU_RESOURCE: 8, "cpu": 95_000, "memory": 1_100_000},
    per_gpu_request={"cpu": 11_000, "memory": 122_880},
)
"""An 8-GPU node with about 96 vCPU and 1.1 TB allocatable (p4d/a2-highgpu-8g class); jobs ask 11 vCPU and
120 GiB per GPU (millicores, MiB)."""


def mean_size() -> float:
    return sum(size * share for size, share in SIZES.items()) / sum(SIZES.values())


HEADER = f"{'rule':<16} {'frag fail':>9} {'cap fail':>9} {'rejected':>9} {'wait h':>8} {'wait 8G h':>9} {'GPU util':>8}"


def row(result: ReplayResult) -> str:
    return (
        f"{result.rule:<16} {result.fragmentation_share:>9.1%} {result.capacity_failures / result.jobs:>9.1%} "
        f"{result.rejected / result.jobs:>9.1%} {result.mean_wait:>8.3f} {result.mean_wait_by_size.get(8, 0.0):>9.3f} "
        f"{result.mean_utilisation:>8.1%}"
    )


def ratio_row(pack: ReplayResult, spread: ReplayResult) -> str:
    return (
        f"{'ratio Most/Least':<16} {_ratio(pack.fragmentation_share, spread.fragmentation_share):>9} "
        f"{_ratio(pack.capacity_failures, spread.capacity_failures):>9} {_ratio(pack.rejected, spread.rejected):>9} "
        f"{_ratio(pack.mean_wait, spread.mean_wait):>8} "
        f"{_ratio(pack.mean_wait_by_size.get(8, 0.0), spread.mean_wait_by_size.get(8, 0.0)):>9} "
        f"{_ratio(pack.mean_utilisation, spread.mean_utilisation):>8}"
    )


def report(jobs: list[Job], rules: tuple[ScoringRule, ...], on_no_fit: NoFit, seed: int) -> None:
    results = [replay(jobs, rule, POOL, on_no_fit=on_no_fit, tie_seed=seed) for rule in rules]
    print(f"-- a job that fits nowhere on arrival: {on_no_fit}")
    print(HEADER)
    for result in results:
        print(row(result))
    print(ratio_row(results[1], results[0]))
    print("GPU utilisation per tenth of the arrival period:")
    for result in results:
        print(f"  {result.rule:<14} " + " ".join(f"{share:>4.0%}" for share in result.utilisation_buckets))
    if on_no_fit == "reject":
        print()
        return
    print("mean wait by job size (h):")
    for result in results:
        waits = ", ".join(f"{size} GPU {wait:.3f}" for size, wait in result.mean_wait_by_size.items())
        print(f"  {result.rule:<14} {waits}; last job done at {result.last_departure:.1f} h")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--jobs", type=int, default=JOBS)
    parser.add_argument("--load", type=float, default=OFFERED_LOAD)
    args = parser.parse_args()

    mean_interarrival = mean_size() * MEAN_DURATION / (args.load * POOL.gpus)
    jobs = job_stream(
        seed=args.seed, count=args.jobs, sizes=SIZES, mean_interarrival=mean_interarrival, mean_duration=MEAN_DURATION
    )
    packing = scoring_rule_of(scheduler_configuration(BinPackSchedulerSpec(kube_scheduler_version="v1.33.4")))
    print(
        f"{len(jobs)} jobs (seed {args.seed}) on {NODES} x 8 GPUs, offered load {args.load:.0%}, sizes {SIZES}, "
        f"mean duration {MEAN_DURATION} h, arrivals over {jobs[-1].arrival:.1f} h"
    )
    print(f"LeastAllocated weights {dict(DEFAULT_SPREADING.weights)}; MostAllocated weights {dict(packing.weights)}")
    print()
    for on_no_fit in ("wait", "reject"):
        report(jobs, (DEFAULT_SPREADING, packing), on_no_fit, args.seed)


def _ratio(numerator: float, denominator: float) -> str:
    return f"{numerator / denominator:.2f}" if denominator else "n/a"


if __name__ == "__main__":
    main()
