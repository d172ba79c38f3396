"""Latency of verification when many nodes change at once: from the last of N label changes landing to converged.

One pool of 1,000 GPU nodes (or ``--pools 10`` of 100; EKS L4, each with a ``status.images`` list) is served by
the Kubernetes API stand-in (tests/kube_standin, real HTTP on 127.0.0.1) in its own process. Before each run, N of
its nodes lose ``gpuready.io/accelerator``; the verifier LISTs (N nodes not converged) and WATCHes; then the
stand-in lands the N labels in a burst, as a GPU Operator rollout relabels a pool. Measured: the time from the last
label landing to the verifier returning "converged" (a monotonic clock shared by both processes).

Two verifiers run in turn (paired, interleaved, same stand-in, same connection code ``follow_nodes``):

- incremental: ``WatchedAudit``, what ``gpuready verify`` and ``GpuPoolVerification`` run (one node re-checked
  per event, the pool summary kept up to date);
- full re-audit (the baseline, as before issue #17): every node re-audited after every event (views of unchanged
  nodes reused, as that code did).

Target (issue #17): incremental <= 100 ms at 1,000 changed nodes. Run: ``.venv/bin/python bench/verify_latency.py``
(about 2 minutes; ``--runs``, ``--bursts``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import gpuready.plugins  # noqa: E402, F401 - registers the clouds' profiles, as every entry point does
from gpuready.core.scheduling import LABEL_ACCELERATOR, LABEL_POOL  # noqa: E402
from gpuready.core.specs import GpuPoolSpec  # noqa: E402
from gpuready.kube.convergence import NodeTracker, follow_nodes  # noqa: E402
from gpuready.kube.nodes_api import connect  # noqa: E402
from gpuready.verify.audit import AuditReport, audit  # noqa: E402
from gpuready.verify.expectations import Expectation, expectation_for  # noqa: E402
from gpuready.verify.incremental import WatchedAudit  # noqa: E402
from gpuready.verify.nodes import NodeView, node_view  # noqa: E402

POOL_NODES = 1_000
BURSTS = (100, 300, 1_000)
TARGET = 0.100
POOL = "bench"


def specs(pools: int) -> list[GpuPoolSpec]:
    """``pools`` pools sharing the 1,000 nodes; node ``i`` belongs to pool ``i % pools``."""
    size = POOL_NODES // pools
    names = [POOL] if pools == 1 else [f"{POOL}-{p}" for p in range(pools)]
    return [GpuPoolSpec(cloud="eks", name=n, instance_type="g6.xlarge", min_size=size, max_size=size) for n in names]


def selector(pools: int) -> str:
    """What ``gpuready verify --stack`` watches (one pool: what ``GpuPoolVerification`` watches)."""
    names = [s.name for s in specs(pools)]
    return f"{LABEL_POOL}={names[0]}" if pools == 1 else f"{LABEL_POOL} in ({','.join(names)})"


# ---------------------------------------------------------------- the stand-in process


def serve(pools: int) -> None:
    """Child process: serve the pools; on ``drop N`` remove N nodes' accelerator label, on ``land N`` add them back
    in a burst and print the monotonic time the last one landed."""
    from tests.golden.node_sets import pool_node  # noqa: PLC0415
    from tests.kube_standin import KubeStandin  # noqa: PLC0415

    expectations = [expectation_for(s) for s in specs(pools)]
    seed = [pool_node(expectations[i % pools], f"gpu-{i:04d}", "g6.xlarge") for i in range(POOL_NODES)]
    model = expectations[0].labels[LABEL_ACCELERATOR]
    with KubeStandin.start(seed=seed, history=100_000) as kube, tempfile.TemporaryDirectory() as tmp:
        print(json.dumps({"kubeconfig": str(kube.write_kubeconfig(Path(tmp) / "kubeconfig"))}), flush=True)
        for line in sys.stdin:
            verb, count = line.split()
            value = None if verb == "drop" else model
            for i in range(int(count)):
                kube.store.label("Node", f"gpu-{i:04d}", {LABEL_ACCELERATOR: value})
            print(json.dumps({"landed": time.monotonic()}), flush=True)


class Standin:
    def __init__(self, pools: int) -> None:
        command = [sys.executable, __file__, "--serve", "--pools", str(pools)]
        self.process = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.kubeconfig = str(self._read()["kubeconfig"])

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        return dict(json.loads(self.process.stdout.readline()))

    def send(self, verb: str, count: int) -> float:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{verb} {count}\n")
        self.process.stdin.flush()
        return float(self._read()["landed"])

    def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


# ---------------------------------------------------------------- the two verifiers


class FullReaudit:
    """The baseline: keep every node, re-audit all of them after each event (views of unchanged nodes reused)."""

    def __init__(self, expectations: Mapping[str, Expectation]) -> None:
        self._expectations = expectations
        self._nodes: dict[str, Mapping[str, Any]] = {}
        self._views: dict[str, tuple[str, NodeView]] = {}

    def reset(self, nodes: Mapping[str, Mapping[str, Any]]) -> AuditReport:
        self._nodes = dict(nodes)
        return self._evaluate()

    def apply(self, name: str, node: Mapping[str, Any] | None) -> AuditReport:
        if node is None:
            self._nodes.pop(name, None)
        else:
            self._nodes[name] = node
        return self._evaluate()

    def _evaluate(self) -> AuditReport:
        views = []
        for name, raw in self._nodes.items():
            version = str(raw.get("metadata", {}).get("resourceVersion", ""))
            cached = self._views.get(name)
            if cached is None or cached[0] != version:
                cached = self._views[name] = (version, node_view(raw))
            views.append(cached[1])
        return audit(views, self._expectations)


def one_run(standin: Standin, burst: int, make: Callable[[], NodeTracker[Any]], watched: str) -> float:
    """Seconds from the last of ``burst`` labels landing to the verifier's converged result."""
    standin.send("drop", burst)
    tracker = make()
    listed = threading.Event()
    reset = tracker.reset

    def reset_and_signal(nodes: Mapping[str, Mapping[str, Any]]) -> Any:
        state = reset(nodes)
        listed.set()
        return state

    tracker.reset = reset_and_signal  # type: ignore[method-assign]
    landed: list[float] = []

    def land() -> None:
        listed.wait(30)
        time.sleep(0.3)  # the watch is open by then (events after the LIST arrive anyway)
        landed.append(standin.send("land", burst))

    labeler = threading.Thread(target=land)
    labeler.start()
    with connect(standin.kubeconfig, env={}) as client:
        outcome = follow_nodes(client, watched, tracker, _done, timeout=120)
    converged_at = time.monotonic()
    labeler.join()
    assert outcome.converged, f"burst {burst}: not converged"
    return converged_at - landed[0]


def _done(state: Any) -> bool:
    return bool(state.done)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--bursts", type=int, nargs="+", default=list(BURSTS))
    parser.add_argument("--runs", type=int, default=3, help="paired runs per burst (default 3)")
    parser.add_argument("--pools", type=int, default=1, choices=(1, 10), help="1 pool of 1,000 or 10 of 100")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.pools)
        return 0
    expectations = {s.name: expectation_for(s) for s in specs(args.pools)}
    sides: dict[str, Callable[[], NodeTracker[Any]]] = {
        "incremental": lambda: WatchedAudit(expectations),
        "full re-audit": lambda: FullReaudit(expectations),
    }
    standin = Standin(args.pools)
    ok = True
    layout = f"{args.pools} pools of {POOL_NODES // args.pools} nodes" if args.pools > 1 else f"1 pool of {POOL_NODES}"
    print(f"{layout}; median of {args.runs} paired runs; target incremental <= {TARGET * 1000:g} ms")
    print(f"{'changed':>7}  {'incremental':>11}  {'full re-audit':>13}  {'ratio':>6}  {'range incr.':>17}  target")
    try:
        for burst in args.bursts:
            samples: dict[str, list[float]] = {name: [] for name in sides}
            ratios = []
            for run in range(args.runs):
                order = list(sides) if run % 2 == 0 else list(reversed(sides))
                pair = {name: one_run(standin, burst, sides[name], selector(args.pools)) for name in order}
                for name, seconds in pair.items():
                    samples[name].append(seconds)
                ratios.append(pair["full re-audit"] / pair["incremental"])
            incr, full = statistics.median(samples["incremental"]), statistics.median(samples["full re-audit"])
            passed = incr <= TARGET
            ok &= passed
            spread = f"{min(samples['incremental']) * 1000:.1f}-{max(samples['incremental']) * 1000:.1f} ms"
            print(
                f"{burst:>7}  {incr * 1000:>8.1f} ms  {full * 1000:>10.1f} ms  {statistics.median(ratios):>5.0f}x"
                f"  {spread:>17}  {'PASS' if passed else 'FAIL'}"
            )
    finally:
        standin.stop()
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
