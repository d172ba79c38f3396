"""Scale of ``gpuready check``: LIST calls, wall time and client CPU to audit 1,000 and 10,000 nodes.

The Kubernetes API stand-in (tests/kube_standin, real HTTP on 127.0.0.1) is seeded with a mixed cluster: 40 % GPU
nodes of several kinds (gpuready pools, GFD-labeled, GKE-labeled, unlabeled p5 instances, NFD-only) and 60 % CPU
nodes. The stand-in runs in its own process; the client side, in this process, is what ``gpuready check`` runs:
connect, LIST nodes in pages of 500 (lightkube's ``Client.list`` under our retry transport), build node views,
audit. Client CPU is this process's CPU time; "conn cpu" is the part spent setting up the client (kubeconfig,
TLS contexts), which does not grow with the cluster.

Targets (issue #4): LIST calls <= ceil(N/500) + 1; client CPU <= 1 s at 10,000 nodes.
Run: ``.venv/bin/python bench/audit_scale.py`` (about 30 s, mostly seeding the stand-in).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from components.gc_pause import paused_gc  # noqa: E402
from components.kube.nodes_api import connect  # noqa: E402
from components.verify.audit import audit  # noqa: E402
from components.verify.nodes import node_view  # noqa: E402
from tests.kube_standin import make_node  # noqa: E402

SIZES = (1_000, 10_000)
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
    """``count`` nodes: 4 GPU kinds and NFD-only GPU nodes in every 10, the other 6 CPU nodes."""
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
        nodes.append(node)
    return nodes


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(seed: Path, kubeconfig: Path) -> subprocess.Popen[str]:
    """The stand-in in its own process, so the client's CPU time and heap are the client's alone."""
    command = [sys.executable, "-m", "tests.kube_standin.server", "--port", str(free_port()), "--seed", str(seed),
               "--kubeconfig", str(kubeconfig)]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    for line in server.stdout:
        if "serving on" in line:
            return server
    raise RuntimeError(f"stand-in did not start: {server.wait()}")


def measure(count: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        seed, config = Path(tmp) / "nodes.json", Path(tmp) / "kubeconfig"
        seed.write_text(json.dumps(cluster(count)))
        server = serve(seed, config)
        try:
            with connect(str(config), env={}) as warm:  # imports and the first connection outside the clock
                warm.list_nodes("kubernetes.io/hostname=node-00000")
            gc.collect()
            wall, cpu = time.perf_counter(), time.process_time()
            with paused_gc(), connect(str(config), env={}) as client:  # as `gpuready check` does
                connected_cpu = time.process_time() - cpu
                listing = client.list_nodes()
                listed_wall, listed_cpu = time.perf_counter() - wall, time.process_time() - cpu
                report = audit([node_view(raw) for raw in listing.items], {})
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        finally:
            server.terminate()
            server.wait(timeout=10)
    assert len(listing.items) == count
    return {
        "nodes": count,
        "gpu_nodes": len(report.results),
        "findings": len(report.findings),
        "list_calls": client.calls["list"],
        "list_target": math.ceil(count / 500) + 1,
        "wall_s": wall,
        "client_cpu_s": cpu,
        "list_wall_s": listed_wall,
        "list_cpu_s": listed_cpu,
        "connect_cpu_s": connected_cpu,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    args = parser.parse_args(argv)
    print(f"{'nodes':>7} {'gpu':>6} {'findings':>8} {'LISTs':>5} {'target':>6} {'wall s':>7} {'cpu s':>6} "
          f"{'list wall':>9} {'list cpu':>8} {'conn cpu':>8}")  # fmt: skip
    ok = True
    for count in args.sizes:
        r = measure(count)
        counts = f"{r['nodes']:>7} {r['gpu_nodes']:>6} {r['findings']:>8} {r['list_calls']:>5} {r['list_target']:>6}"
        times = f"{r['wall_s']:>7.3f} {r['client_cpu_s']:>6.3f} {r['list_wall_s']:>9.3f} {r['list_cpu_s']:>8.3f}"
        times += f" {r['connect_cpu_s']:>8.3f}"
        print(f"{counts} {times}")
        ok &= r["list_calls"] <= r["list_target"]
        if count >= 10_000:
            ok &= r["client_cpu_s"] <= 1.0
    print("targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
