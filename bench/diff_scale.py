"""Time of ``gpuready diff`` on two 1,000-pool plans (target: under 1 s; issue #10).

The old plan is the real ``gpuready plan -o json`` of a 1,000-pool EKS stack (``bench/plan_scale.py``'s stack
file, GPU Operator included: about 13,000 resources). Two new plans are made from the same stack file with the
pool list edited, then planned the same way:

- ``busy``: every tenth pool on another instance type (replaced, new names), every tenth other pool with one more
  label (updated in place, one new ASG tag), every desiredSize changed (ignored), 50 pools removed;
- ``same``: the old plan again (nothing changes: the cost of reading and comparing everything).

Each figure is the median of ``--repeats`` fresh ``gpuready diff OLD NEW -o json`` processes (interpreter start,
imports, JSON reading, comparing, printing), beside the in-process ``diff_plans`` call alone.
Run: ``.venv/bin/python bench/diff_scale.py``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import bench_stack  # noqa: E402

import gpuready.plugins  # noqa: E402, F401 - registers the clouds' profiles, as every entry point does
from gpuready.plan_diff.diff import diff_plans  # noqa: E402

GPUREADY = ROOT / ".venv" / "bin" / "gpuready"


def busy_pools(count: int) -> list[dict[str, Any]]:
    pools = []
    for index, entry in enumerate(bench_stack.pool_entries(count)):
        if index % 20 == 19:
            continue  # 50 of 1,000 removed
        pool = {**entry, "desiredSize": 1}
        if index % 10 == 0:
            pool["instanceType"] = "g6.24xlarge" if pool["instanceType"] == "g6.12xlarge" else "g6.12xlarge"
            pool.pop("sharing", None)
            pool.pop("image", None)
        elif index % 10 == 5:
            pool["labels"] = {**pool["labels"], "example.com/cost-center": "42"}
        pools.append(pool)
    return pools


def make_plan(directory: Path, name: str, stack_file: Path, pools: list[dict[str, Any]] | None) -> Path:
    out = directory / f"{name}.json"
    if pools is not None:  # the same stack file with another pool list (too long for a --set argument)
        document = json.loads(stack_file.read_text())
        document["config"]["gpuready:nodePools"] = json.dumps(pools)
        stack_file = directory / f"Pulumi.{name}.yaml"
        stack_file.write_text(json.dumps(document))
    command = [str(GPUREADY), "plan", "--config", str(stack_file), "--project-dir", str(ROOT), "-o", "json",
               "--no-policy", "--stack-name", "bench"]  # fmt: skip
    with out.open("w") as handle:
        subprocess.run(command, stdout=handle, check=True)
    return out


def timed_cli(old: Path, new: Path, repeats: int) -> list[float]:
    figures = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([str(GPUREADY), "diff", str(old), str(new), "-o", "json"], stdout=subprocess.DEVNULL,
                       check=False)  # fmt: skip
        figures.append(time.perf_counter() - start)
    return figures


def timed_call(old: Path, new: Path, repeats: int) -> tuple[list[float], Any]:
    before, after = json.loads(old.read_text()), json.loads(new.read_text())
    figures, diff = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        diff = diff_plans(before, after)
        figures.append(time.perf_counter() - start)
    return figures, diff


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pools", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        stack_file = bench_stack.write_stack_file(directory, args.pools)
        old = make_plan(directory, "old", stack_file, None)
        busy = make_plan(directory, "busy", stack_file, busy_pools(args.pools))
        resources = len(json.loads(old.read_text())["resources"])
        print(f"old plan: {args.pools} pools, {resources} resources, {old.stat().st_size / 1e6:.1f} MB of JSON")
        print(f"{'pair':<6} {'changes':>8} {'at risk':>8} {'diff_plans s':>13} {'gpuready diff s (process)':>26}")
        for name, new in (("same", old), ("busy", busy)):
            call, diff = timed_call(old, new, args.repeats)
            cli = timed_cli(old, new, args.repeats)
            assert diff is not None
            print(f"{name:<6} {len(diff.changes):>8} {len(diff.at_risk):>8} {statistics.median(call):>13.3f} "
                  f"{statistics.median(cli):>26.3f}")  # fmt: skip
    print(f"(median of {args.repeats} runs; target: gpuready diff of two 1,000-pool plans under 1 s)")


if __name__ == "__main__":
    main()
