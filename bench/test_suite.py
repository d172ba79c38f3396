"""``make test`` on a fresh clone: wall and CPU time of each step, and the machine's load while it ran.

The committed HEAD of this repository is cloned into a temporary directory (no virtualenv, no caches, no
bytecode of the project: what CI starts from) and ``make test`` runs there step by step (``install``, ``lint``,
``typecheck``, ``contracts``, ``unit``), each step's wall time and CPU time (its whole process tree, from
``RUSAGE_CHILDREN``) printed, with the 1-minute load average before and after each step: wall time means
something only on an idle machine, CPU time is what the suite costs whatever the load. ``--serial`` also runs the
unit step on one worker (``PYTEST_WORKERS=0``), paired with the parallel one in the same clone, to show what the
workers buy. uv's package cache is shared with the machine's (as on CI's machine after its first run).

Target (issue #32): ``make test`` <= 4 minutes on an idle 2-core machine. Run: ``.venv/bin/python
bench/test_suite.py`` (``--serial``, ``--keep`` to leave the clone).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STEPS = ("install", "lint", "typecheck", "contracts", "unit")
TARGET_SECONDS = 240.0
_SUMMARY = re.compile(r"=+ (.*(passed|failed).*) in [0-9.]+s")


def step(clone: Path, target: str, env: dict[str, str], log: Path) -> tuple[float, float, str]:
    """``make <target>`` in ``clone``: (wall s, CPU s, pytest's summary line or "")."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with log.open("w") as out:
        done = subprocess.run(["make", target], cwd=clone, env=env, stdout=out, stderr=subprocess.STDOUT, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    text = log.read_text(errors="replace")
    if done.returncode:
        sys.stderr.write(text[-4000:])
        raise SystemExit(f"make {target} failed with exit {done.returncode}; log: {log}")
    found = _SUMMARY.findall(text)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), found[-1][0] if found else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--serial", action="store_true", help="also run the unit step on one worker")
    parser.add_argument("--keep", action="store_true", help="keep the clone and the logs")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="gpuready-suite-"))
    clone = work / "gpuready"
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(clone)], check=True)
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True, text=True, check=True
    )
    shared = ROOT.parent / "shared"
    if shared.is_dir():  # as CI has it: the upstream reference beside the clone (without it those tests skip)
        (work / "shared").symlink_to(shared.resolve())
    uv = shutil.which("uv") or str(ROOT / ".uv" / "bin" / "uv")
    env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "PYTHONPATH"}}
    (clone / ".uv" / "bin").mkdir(parents=True)
    (clone / ".uv" / "bin" / "uv").symlink_to(uv)  # the Makefile's uv, without installing it again
    print(f"fresh clone of {head.stdout.strip()} in {clone} (../shared: {'linked' if shared.is_dir() else 'absent'}); "
          f"{os.cpu_count()} CPUs; "
          f"PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '(unset)')}")  # fmt: skip
    print(f"{'step':>10} {'wall s':>7} {'CPU s':>7} {'load before':>11} {'load after':>10}  result")
    total_wall = total_cpu = 0.0
    plan = [(name, name, env) for name in STEPS]
    if args.serial:
        plan.append(("unit, 1 worker", "unit", {**env, "PYTEST_WORKERS": "0"}))
    for label, target, step_env in plan:
        load = os.getloadavg()[0]
        wall, cpu, summary = step(clone, target, step_env, work / f"{target}-{len(label)}.log")
        if label in STEPS:
            total_wall, total_cpu = total_wall + wall, total_cpu + cpu
        print(f"{label:>10} {wall:>7.1f} {cpu:>7.1f} {load:>11.2f} {os.getloadavg()[0]:>10.2f}  {summary}", flush=True)
    passed = total_wall <= TARGET_SECONDS
    print(f"make test: {total_wall:.0f} s wall ({total_wall / 60:.1f} min), {total_cpu:.0f} s CPU; "
          f"target <= {TARGET_SECONDS:.0f} s on an idle machine: {'PASS' if passed else 'FAIL'}")  # fmt: skip
    if args.keep:
        print(f"kept: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
