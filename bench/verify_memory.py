"""Peak memory of ``gpuready verify`` against ``gpuready check`` on the same cluster of 10,000 and 50,000 nodes.

The Kubernetes API stand-in (tests/kube_standin, real HTTP on 127.0.0.1, its own process) is seeded with nodes
padded with ``status.images`` to a real node's size (about 11.6 KB of JSON, ``audit_scale.realistic``): 40 % GPU
nodes of a gpuready pool (labelled, tainted, advertising their GPU, Ready: they converge), 60 % CPU nodes. Each
side is a fresh process run in turn (paired, interleaved, the order alternating); its wall time, CPU and peak RSS
come from the kernel's accounting of that child (``os.wait4``), start-up and imports included:

- check: ``gpuready check -l kubernetes.io/hostname -o json`` (every node);
- verify: ``gpuready verify -l kubernetes.io/hostname -o json`` (every node; they converge at the LIST);
- verify-dicts (the baseline, as before issue #32): the same wait (``follow_nodes`` with ``WatchedAudit``) with
  the LIST decoded into dicts.

Target (issue #32): verify's peak RSS <= 1.5x check's at both sizes (the ratio taken pair by pair). Run:
``.venv/bin/python bench/verify_memory.py`` (``--sizes``, ``--runs``; the 50,000-node seed is about 0.6 GB).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import audit_scale  # noqa: E402

SIZES = (10_000, 50_000)
TARGET = 1.5
SELECTOR = "kubernetes.io/hostname"
"""Every node (the stand-in's nodes all carry it): both commands see the whole cluster."""


def cluster(count: int) -> list[dict[str, Any]]:
    """``count`` nodes, 4 in every 10 a converged GPU node of pool ``l4``, the others CPU nodes."""
    from tests.kube_standin import make_node  # noqa: PLC0415

    nodes: list[dict[str, Any]] = []
    for i in range(count):
        name = f"node-{i:05d}"
        if i % 10 < 4:
            node = make_node(name, instance_type="g6.xlarge", labels=audit_scale.POOL_LABELS,
                             taints=[audit_scale.GPU_TAINT], capacity={"nvidia.com/gpu": "1"})  # fmt: skip
        else:
            node = make_node(name, instance_type="m5.2xlarge", labels={"eks.amazonaws.com/nodegroup": "cpu"})
        nodes.append(audit_scale.realistic(node))
    return nodes


def dicts_child(kubeconfig: str) -> None:
    """The baseline: ``verify``'s wait with the LIST decoded into dicts (before issue #32)."""
    import gpuready.plugins  # noqa: F401, PLC0415 - registers the clouds' profiles, as every entry point does
    from gpuready.gc_pause import paused_gc  # noqa: PLC0415
    from gpuready.kube.convergence import follow_nodes  # noqa: PLC0415
    from gpuready.kube.node_resource import Node  # noqa: PLC0415
    from gpuready.kube.nodes_api import connect  # noqa: PLC0415
    from gpuready.verify.incremental import AuditState, WatchedAudit  # noqa: PLC0415
    from gpuready.verify.report import report_json  # noqa: PLC0415

    def done(state: AuditState) -> bool:
        return state.gpu_nodes > 0 and state.done

    with paused_gc(), connect(kubeconfig, env={}) as client:
        outcome = follow_nodes(client, SELECTOR, WatchedAudit({}), done, timeout=600, listed_as=Node)
        print(json.dumps({**report_json(outcome.state.report()), "converged": outcome.converged}))


def run(command: list[str], env: dict[str, str]) -> dict[str, float]:
    """One child: wall, CPU and peak RSS (MiB) from ``wait4``; it must exit 0 (check, or verify converged)."""
    with tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode:
            err.seek(0)
            raise RuntimeError(f"{command[:4]} exited {process.returncode}: {err.read()[-2000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak": usage.ru_maxrss / 1024}


def measure(count: int, runs: int) -> dict[str, list[dict[str, float]]]:
    gpuready = str(Path(sys.executable).with_name("gpuready"))
    with tempfile.TemporaryDirectory() as tmp:
        seed, config = Path(tmp) / "nodes.json", Path(tmp) / "kubeconfig"
        # Written by another process: a child forked from a large parent would start with the parent's RSS.
        subprocess.run([sys.executable, __file__, "--write-seed", str(count), str(seed)], cwd=ROOT, check=True)
        server = audit_scale.serve(seed, config)
        env = {**os.environ, "KUBECONFIG": str(config)}
        sides = {
            "check": [gpuready, "check", "-l", SELECTOR, "-o", "json"],
            "verify": [gpuready, "verify", "-l", SELECTOR, "-o", "json", "--timeout", "600"],
            "verify-dicts": [sys.executable, __file__, "--dicts-child", str(config)],
        }
        results: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
        try:
            for index in range(runs):
                for side in list(sides) if index % 2 == 0 else list(reversed(sides)):
                    results[side].append(run(sides[side], env))
        finally:
            server.terminate()
            server.wait(timeout=30)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--dicts-child", metavar="KUBECONFIG", help=argparse.SUPPRESS)
    parser.add_argument("--write-seed", nargs=2, metavar=("COUNT", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.dicts_child:
        dicts_child(args.dicts_child)
        return 0
    if args.write_seed:
        Path(args.write_seed[1]).write_text(json.dumps(cluster(int(args.write_seed[0]))))
        return 0
    ok = True
    for count in args.sizes:
        results = measure(count, args.runs)
        check = results["check"]
        print(f"{count:,} nodes; median of {args.runs} paired runs (whole processes)")
        print(f"{'side':>12} {'wall s':>7} {'CPU s':>6} {'peak MiB':>8} {'peak/check':>10}")
        for side, samples in results.items():
            med = {key: statistics.median(s[key] for s in samples) for key in ("wall", "cpu", "peak")}
            ratio = statistics.median(s["peak"] / c["peak"] for s, c in zip(samples, check, strict=True))
            print(f"{side:>12} {med['wall']:>7.2f} {med['cpu']:>6.2f} {med['peak']:>8.0f} {ratio:>10.2f}")
        verify = statistics.median(s["peak"] / c["peak"] for s, c in zip(results["verify"], check, strict=True))
        passed = verify <= TARGET
        print(f"verify peak / check peak {verify:.2f}; target <= {TARGET}: {'PASS' if passed else 'FAIL'}", flush=True)
        ok &= passed
    print("targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
