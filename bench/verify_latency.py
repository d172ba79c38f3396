"""Latency of verification during ``pulumi up``: from the last label landing to ``GpuPoolVerification`` success.

For N GPU nodes of one pool (8 and 64), the Kubernetes API stand-in (tests/kube_standin, real HTTP on 127.0.0.1,
in this process) starts with every node right but one missing ``gpuready.io/accelerator``. The dynamic provider's
``create`` (exactly what the engine runs on ``pulumi up``) starts waiting; 0.5 s later another thread lands the
label. Measured: the time from the label write returning to ``create`` returning success. Median of 5 runs.

Target (issue #4): <= 1 s. Run: ``.venv/bin/python bench/verify_latency.py`` (about 10 s).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from components.core.scheduling import LABEL_ACCELERATOR  # noqa: E402
from components.verify_hook import GpuPoolVerificationProvider  # noqa: E402
from tests.kube_standin import KubeStandin  # noqa: E402
from tests.verify_hook.conftest import pool_node, pool_spec, props  # noqa: E402

TARGET = 1.0
DELAY = 0.5


def one_run(nodes: int, workdir: Path) -> float:
    """Seconds from the last label landing to verification success."""
    spec = pool_spec("bench", nodes=nodes)
    seed = [pool_node(spec, f"gpu-{i:03d}") for i in range(nodes - 1)]
    seed.append(pool_node(spec, f"gpu-{nodes - 1:03d}", drop=(LABEL_ACCELERATOR,)))
    kube = KubeStandin.start(seed=seed)
    try:
        kubeconfig = kube.write_kubeconfig(workdir / f"kubeconfig-{nodes}")
        landed: list[float] = []

        def land() -> None:
            time.sleep(DELAY)
            kube.store.label("nodes", f"gpu-{nodes - 1:03d}", {LABEL_ACCELERATOR: spec.resolved.model.key})
            landed.append(time.perf_counter())

        labeler = threading.Thread(target=land)
        labeler.start()
        result = GpuPoolVerificationProvider().create(props(spec, str(kubeconfig), timeout=30))
        done = time.perf_counter()
        labeler.join()
        assert result.outs is not None and result.outs["converged"] is True and result.outs["nodes"] == nodes
        return done - landed[0]
    finally:
        kube.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 64])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    ok = True
    print(f"{'nodes':>6}  {'median s':>9}  {'min s':>7}  {'max s':>7}  target <= {TARGET:g} s")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            samples = [one_run(n, Path(tmp)) for _ in range(args.runs)]
            median = statistics.median(samples)
            passed = median <= TARGET
            ok &= passed
            print(f"{n:>6}  {median:>9.3f}  {min(samples):>7.3f}  {max(samples):>7.3f}  {'PASS' if passed else 'FAIL'}")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
