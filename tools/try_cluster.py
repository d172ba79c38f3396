"""``make try``: gpuready's cluster commands against a local Kubernetes API stand-in, without a cluster.

Starts the stand-in (``tests/kube_standin``, real HTTP on 127.0.0.1) seeded with GPU nodes in the states
``gpuready check`` knows (a healthy pool node, a missing GPU taint, a wrong SkyPilot label, NotReady, cordoned,
time-slicing not applied, unlabeled nodes whose GPU comes from GFD, the GKE label or only NFD) and CPU nodes,
writes a kubeconfig for it, prints the commands to run, and serves until Ctrl-C (or SIGTERM), then stops
cleanly and removes the kubeconfig it made.

Usage: ``python -m tools.try_cluster [--port N] [--kubeconfig FILE]``.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from tests.kube_standin import KubeStandin, make_node
from tests.kube_standin.resources import Obj

GPU_TAINT = "nvidia.com/gpu=present:NoSchedule"
_L4 = {
    "gpuready.io/pool": "l4",
    "gpuready.io/gpu-pool": "true",
    "gpuready.io/accelerator": "l4",
    "gpuready.io/sharing": "none",
    "skypilot.co/accelerator": "l4",
    "nvidia.com/gpu.present": "true",
    "nvidia.com/gpu.product": "NVIDIA-L4",
}
_TS = {**_L4, "gpuready.io/pool": "l4-shared", "gpuready.io/sharing": "time-slicing",
       "nvidia.com/device-plugin.config": "time-slicing-x4"}  # fmt: skip


def _l4(name: str, labels: dict[str, str], *, taint: bool = True, gpus: str = "1", **state: bool) -> Obj:
    """A g6.xlarge (one L4) node in us-east-1a; ``state``: ``ready`` / ``unschedulable``."""
    return make_node(
        name, instance_type="g6.xlarge", zone="us-east-1a", labels=labels, taints=[GPU_TAINT] if taint else [],
        capacity={"nvidia.com/gpu": gpus}, ready=state.get("ready", True),
        unschedulable=state.get("unschedulable", False),
    )  # fmt: skip


def seed_nodes() -> list[Obj]:
    """The nodes of the stand-in: each GPU node shows one state ``check`` reports (its name says which)."""
    return [
        _l4("l4-ok", _L4),
        _l4("l4-no-taint", _L4, taint=False),
        _l4("l4-wrong-skypilot-label", {**_L4, "skypilot.co/accelerator": "L4"}),
        _l4("l4-not-ready", _L4, ready=False),
        _l4("l4-cordoned", _L4, unschedulable=True),
        _l4("l4-shared-applied", _TS, gpus="4"),
        _l4("l4-shared-not-applied", _TS),
        make_node("p5-unlabeled", instance_type="p5.48xlarge", zone="us-east-1b", capacity={"nvidia.com/gpu": "8"},
                  labels={"eks.amazonaws.com/nodegroup": "h100"}),
        make_node("a100-gfd-only", taints=[GPU_TAINT], capacity={"nvidia.com/gpu": "8"},
                  labels={"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB", "nvidia.com/gpu.present": "true"}),
        make_node("gke-l4-unlabeled", instance_type="g2-standard-8", taints=[GPU_TAINT],
                  capacity={"nvidia.com/gpu": "1"}, labels={"cloud.google.com/gke-accelerator": "nvidia-l4",
                                                            "topology.kubernetes.io/zone": "us-central1-a"}),
        make_node("nfd-only", capacity={"nvidia.com/gpu": "1"},
                  labels={"feature.node.kubernetes.io/pci-10de.present": "true"}),
        make_node("cpu-1", instance_type="m5.xlarge", zone="us-east-1a"),
        make_node("cpu-2", instance_type="m5.xlarge", zone="us-east-1b"),
    ]  # fmt: skip


def gpuready_command() -> str:
    """How to run gpuready from here: the venv's script beside this Python (relative when under the working
    directory, as ``make try`` runs it), else ``gpuready`` from the PATH."""
    script = Path(sys.executable).with_name("gpuready")
    if not script.is_file():
        return "gpuready"
    try:
        return str(script.relative_to(Path.cwd()))
    except ValueError:
        return str(script)


def commands(kubeconfig: Path, gpuready: str = "gpuready") -> list[str]:
    """What to run against the stand-in."""
    run = f"{gpuready} {{}} --kubeconfig {kubeconfig}"
    return [
        run.format("check") + "            # every GPU node, findings with cause and fix",
        run.format("check") + " -o wide    # with instance type, zone and GPU product",
        run.format("label") + "            # the labels gpuready would add (nothing is written)",
        run.format("label") + " --yes      # add them; run check again to see the difference",
        run.format("verify") + " -l gpuready.io/pool=l4 --timeout 20   # waits, then says what never converged",
        f"kubectl --kubeconfig {kubeconfig} get nodes -L gpuready.io/pool,skypilot.co/accelerator",
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make try", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: any free one)")
    parser.add_argument("--kubeconfig", metavar="FILE", help="write the kubeconfig here (default: a temporary file)")
    args = parser.parse_args(argv)
    made = None if args.kubeconfig else Path(tempfile.mkdtemp(prefix="gpuready-try-"))
    kubeconfig = Path(args.kubeconfig) if args.kubeconfig else (made or Path()) / "kubeconfig"
    stopped = threading.Event()

    def on_signal(_signum: int, _frame: FrameType | None) -> None:
        stopped.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    nodes = seed_nodes()
    kube = KubeStandin.start(args.port, nodes)
    try:
        kube.write_kubeconfig(kubeconfig, context="gpuready-try")
        _say(
            f"Kubernetes API stand-in on {kube.url} with {len(nodes)} nodes (not a real cluster).",
            f"kubeconfig: {kubeconfig}",
            "",
            "Try, in another terminal:",
            *(f"  {line}" for line in commands(kubeconfig, gpuready_command())),
            "",
            "Ctrl-C stops it.",
        )
        stopped.wait()
    finally:
        kube.stop()
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
        _say("stopped")
    return 0


def _say(*lines: str) -> None:
    sys.stdout.write("".join(f"{line}\n" for line in lines))
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
