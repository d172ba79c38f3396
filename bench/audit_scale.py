"""Scale of ``gpuready check``: LIST calls, wall, CPU and peak memory to audit 1,000 and 10,000 realistic nodes.

The Kubernetes API stand-in (tests/kube_standin, real HTTP on 127.0.0.1, its own process) is seeded with a mixed
cluster: 40 % GPU nodes of several kinds (gpuready pools, GFD-labeled, GKE-labeled, unlabeled p5 instances,
NFD-only) and 60 % CPU nodes, each padded with ``status.images`` to the size of a real node (about 11.6 KB of JSON).
Each side runs in a fresh child process of a small parent, in turn (paired, interleaved); wall, CPU and peak RSS
are the whole child's (``os.wait4``), interpreter start-up and imports included:

- check: what ``gpuready check -o json`` runs: connect, LIST in pages of 500 decoded into ``NodeRecord``
  structs (only the fields the audit reads), views, audit, JSON report;
- dicts (the baseline, as before issue #17): the same with every node decoded into dicts, then views;
- skypilot (optional, ``--skypilot-python``): SkyPilot's own GPU-node detection on the same stand-in, run by a
  Python that has ``skypilot[kubernetes]`` installed outside this project (never needed in CI).

"work cpu" is the CPU from connecting to the JSON report, imports and start-up left out.

Targets (issues #4, #17): LIST calls <= ceil(N/500) + 1; work CPU <= 1 s at 10,000 nodes; peak memory at
10,000 nodes at most SkyPilot's (251 MB measured on the 2-core machine). Run: ``.venv/bin/python bench/audit_scale.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SIZES = (1_000, 10_000)
NODE_BYTES = 11_600
SKYPILOT_PEAK_MB = 251
GPU_TAINT = "nvidia.com/gpu=present:NoSchedule"
POOL_LABELS = {
    "gpuready.io/pool": "l4",
    "gpuready.io/gpu-pool": "true",
    "nvidia.com/gpu.present": "true",
    "gpuready.io/accelerator": "l4",
    "skypilot.co/accelerator": "l4",
    "gpuready.io/sharing": "none",
}


def cluster(count: int) -> list[dict[str, Any]]:
    """``count`` nodes: 4 GPU kinds and NFD-only GPU nodes in every 10, the other 6 CPU nodes; ~11.6 KB each."""
    from tests.kube_standin import make_node  # noqa: PLC0415

    nodes: list[dict[str, Any]] = []
    for i in range(count):
        name, kind = f"node-{i:05d}", i % 10
        if kind == 0:
            node = make_node(name, instance_type="g6.xlarge", labels=POOL_LABELS, taints=[GPU_TAINT],
                             capacity={"nvidia.com/gpu": "1"})  # fmt: skip
        elif kind == 1:
            gfd = {"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB", "nvidia.com/gpu.present": "true",
                   "nvidia.com/gpu.count": "8", "nvidia.com/gpu.replicas": "1"}  # fmt: skip
            node = make_node(name, instance_type="p4de.24xlarge", taints=[GPU_TAINT], capacity={"nvidia.com/gpu": "8"},
                             labels=gfd)  # fmt: skip
        elif kind == 2:
            node = make_node(name, instance_type="g2-standard-8", capacity={"nvidia.com/gpu": "1"},
                             labels={"cloud.google.com/gke-accelerator": "nvidia-l4"})  # fmt: skip
        elif kind == 3:
            node = make_node(name, instance_type="p5.48xlarge", capacity={"nvidia.com/gpu": "8"}, ready=i % 7 != 0)
        elif kind == 4:
            node = make_node(name, labels={"feature.node.kubernetes.io/pci-10de.present": "true"})
        else:
            node = make_node(name, instance_type="m5.2xlarge", labels={"eks.amazonaws.com/nodegroup": "cpu"})
        nodes.append(realistic(node))
    return nodes


def realistic(node: dict[str, Any]) -> dict[str, Any]:
    """Pad ``status.images`` (what kubelets report: container images with digests and sizes) to ~11.6 KB."""
    images: list[dict[str, Any]] = []
    node["status"]["images"] = images
    size, index = len(json.dumps(node)), 0
    while size < NODE_BYTES:
        image = {
            "names": [f"123456789012.dkr.ecr.us-east-1.amazonaws.com/team/service-{index}@sha256:{index:064x}",
                      f"123456789012.dkr.ecr.us-east-1.amazonaws.com/team/service-{index}:v1.{index}.0"],
            "sizeBytes": 250_000_000 + index,
        }  # fmt: skip
        images.append(image)
        size += len(json.dumps(image)) + 1
        index += 1
    return node


# ---------------------------------------------------------------- children


def child(side: str, kubeconfig: str) -> None:
    """One side, in a fresh process: print a JSON summary (the report itself is built and serialised)."""
    import gpuready.plugins  # noqa: F401, PLC0415 - registers the clouds' profiles, as every entry point does
    from gpuready.gc_pause import paused_gc  # noqa: PLC0415
    from gpuready.kube.node_record import list_views  # noqa: PLC0415
    from gpuready.kube.nodes_api import connect  # noqa: PLC0415
    from gpuready.verify.audit import audit  # noqa: PLC0415
    from gpuready.verify.nodes import node_view  # noqa: PLC0415
    from gpuready.verify.report import report_json  # noqa: PLC0415

    wall, cpu = time.perf_counter(), time.process_time()
    with paused_gc(), connect(kubeconfig, env={}) as client:  # as `gpuready check` does
        views = list_views(client) if side == "check" else [node_view(n) for n in client.list_nodes().items]
        report = audit(views, {})
        text = json.dumps(report_json(report))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    summary: dict[str, object] = {"gpu": len(report.results), "nodes": len(views), "lists": client.calls["list"]}
    summary.update(bytes=len(text), work_wall=wall, work_cpu=cpu)
    print(json.dumps({**summary, "botocore": "botocore" in sys.modules}))


SKYPILOT_PEER = """
from sky.provision.kubernetes import utils
formatter, labels = utils.detect_gpu_label_formatter(None)
key = utils.get_gpu_resource_key(None)
nodes = utils.get_kubernetes_nodes(context=None)
gpu = [n for n in nodes if (n.status.allocatable or {}).get(key) not in (None, "0") or (
    formatter is not None and any(formatter.match_label_key(k) for k in (n.metadata.labels or {})))]
print('{"gpu": %d, "nodes": %d}' % (len(gpu), len(nodes)))
"""
"""SkyPilot's detection (``sky.provision.kubernetes.utils``): the GPU label formatter of the cluster
(``detect_gpu_label_formatter``, which lists every node into the official client's ``V1Node`` models), then
the nodes with GPUs allocatable or a label of that formatter."""


def run_side(command: list[str], env: dict[str, str]) -> dict[str, Any]:
    """Run one child; its wall time, CPU and peak RSS from the kernel's accounting of that child (``wait4``)."""
    with tempfile.TemporaryFile("w+") as err:
        wall = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=err, env=env, text=True)
        assert process.stdout is not None
        out = process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - wall
        process.returncode = os.waitstatus_to_exitcode(status)
        process.stdout.close()
        if process.returncode:
            err.seek(0)
            raise RuntimeError(f"{command[:3]} failed: {err.read()[-2000:]}")
    summary = dict(json.loads(out.strip().splitlines()[-1]))
    return {**summary, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(seed: Path, kubeconfig: Path) -> subprocess.Popen[str]:
    """The stand-in in its own process, so each child's CPU time and heap are the client's alone."""
    command = [sys.executable, "-m", "tests.kube_standin.server", "--port", str(free_port()), "--seed", str(seed),
               "--kubeconfig", str(kubeconfig)]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    for line in server.stdout:
        if "serving on" in line:
            return server
    raise RuntimeError(f"stand-in did not start: {server.wait()}")


def measure(count: int, runs: int, skypilot: str | None) -> dict[str, list[dict[str, Any]]]:
    sides: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        seed, config = Path(tmp) / "nodes.json", Path(tmp) / "kubeconfig"
        # Written by another process: a child forked from a large parent would start with the parent's RSS.
        subprocess.run([sys.executable, __file__, "--write-seed", str(count), str(seed)], cwd=ROOT, check=True)
        average = len(seed.read_bytes()) / count
        server = serve(seed, config)
        env = {**os.environ, "KUBECONFIG": str(config)}
        for side in ("check", "dicts"):
            sides[side] = [sys.executable, __file__, "--child", side, str(config)]
        if skypilot:
            sides["skypilot"] = [skypilot, "-c", SKYPILOT_PEER]
            env["HOME"] = tmp  # SkyPilot writes its state under ~/.sky
        results: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
        try:
            for run in range(runs):
                order = list(sides) if run % 2 == 0 else list(reversed(sides))
                for side in order:
                    results[side].append(run_side(sides[side], env))
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"{count:,} nodes, {average / 1000:.1f} KB of JSON each on average; median of {runs} paired runs")
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skypilot-python", metavar="PYTHON", help="a Python with skypilot[kubernetes] installed")
    parser.add_argument("--child", nargs=2, metavar=("SIDE", "KUBECONFIG"), help=argparse.SUPPRESS)
    parser.add_argument("--write-seed", nargs=2, metavar=("COUNT", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child)
        return 0
    if args.write_seed:
        Path(args.write_seed[1]).write_text(json.dumps(cluster(int(args.write_seed[0]))))
        return 0
    ok = True
    for count in args.sizes:
        results = measure(count, args.runs, args.skypilot_python)
        check = results["check"]
        print(f"{'side':>9} {'gpu':>6} {'LISTs':>5} {'wall s':>7} {'cpu s':>6} {'peak MB':>8} "
              f"{'wall/check':>10} {'cpu/check':>9} {'peak/check':>10} {'work cpu s':>10}")  # fmt: skip
        for side, samples in results.items():
            med = {key: statistics.median(s[key] for s in samples) for key in ("wall", "cpu", "peak_mb")}
            ratio = {
                key: statistics.median(s[key] / c[key] for s, c in zip(samples, check, strict=True))
                for key in ("wall", "cpu", "peak_mb")
            }
            lists = samples[0].get("lists", "-")
            figures = f"{med['wall']:>7.2f} {med['cpu']:>6.2f} {med['peak_mb']:>8.0f}"
            ratios = f"{ratio['wall']:>10.2f} {ratio['cpu']:>9.2f} {ratio['peak_mb']:>10.2f}"
            work = statistics.median(s.get("work_cpu", float("nan")) for s in samples)
            print(f"{side:>9} {samples[0]['gpu']:>6} {lists:>5} {figures} {ratios} {work:>10.2f}")
        ok &= all(s["lists"] <= math.ceil(count / 500) + 1 for s in check)
        ok &= not any(s["botocore"] for s in check)
        if count >= 10_000:
            peak = statistics.median(s["peak_mb"] for s in check)
            limit = statistics.median(s["peak_mb"] for s in results["skypilot"]) if "skypilot" in results else None
            limit = limit or SKYPILOT_PEAK_MB
            print(
                f"check peak {peak:.0f} MB; target <= SkyPilot's {limit:.0f} MB: {'PASS' if peak <= limit else 'FAIL'}"
            )
            ok &= peak <= limit
            ok &= statistics.median(s["work_cpu"] for s in check) <= 1.0
    print("targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
