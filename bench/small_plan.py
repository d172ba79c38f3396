"""A small plan against its import floor: ``gpuready plan --stack <example>`` beside importing the SDK it needs.

For each example stack (``stacks/Pulumi.*.yaml``), a discovery child runs the plan in-process and lists the
Pulumi SDK modules it executed (``pulumi``, ``pulumi_aws``, ``pulumi_kubernetes``, ``pulumi_azure_native``,
``pulumi_gcp``, ``pulumi_policy``; modules the SDKs registered lazily but never loaded do not count). Then two
whole processes are compared:

- plan: ``.venv/bin/gpuready plan --stack <name>`` (the policy gate included, as users run it in CI);
- floor: ``python -c "import <each of those modules>"``: what any program registering those resources pays,
  with the cyclic GC off as in the plan (which pauses it for the whole command).

Two measures, both taken in this run:

- **instructions**: executed instructions of each whole process under ``valgrind --tool=callgrind`` (one run
  each: the count does not depend on the machine's load; about a minute per stack);
- **CPU**: user + system CPU time of each process, median of ``--runs`` pairs run in turn (interleaved, the order
  alternating); the ratio is taken pair by pair.

Bytecode is written and warmed first (``PYTHONDONTWRITEBYTECODE`` is cleared for the children), so neither side
compiles sources. Target (issue #32): plan/floor <= 1.15 by both measures. Run: ``.venv/bin/python
bench/small_plan.py`` (``--stacks``, ``--runs``, ``--no-instructions`` for CPU only).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STACKS = tuple(
    sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (ROOT / "stacks").glob("Pulumi.*.yaml"))
)
SDK = ("pulumi", "pulumi_aws", "pulumi_kubernetes", "pulumi_azure_native", "pulumi_gcp", "pulumi_policy")
TARGET = 1.15
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def discover(stack: str) -> list[str]:
    """Child: run the plan in-process; print the SDK modules it executed, in import order."""
    sys.path.insert(0, str(ROOT))
    from gpuready.cli.main import main  # noqa: PLC0415

    with contextlib.redirect_stdout(io.StringIO()):
        main(["plan", "--stack", stack, "--project-dir", str(ROOT)])
    return [
        name
        for name, module in list(sys.modules.items())
        if name.split(".")[0] in SDK and type(module) is types.ModuleType  # a lazy module not yet loaded is not
    ]


def cpu(command: list[str]) -> float:
    """User + system CPU seconds of one run of ``command`` (its whole process tree)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=ROOT, env=ENV, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(command: list[str], valgrind: str) -> int:
    """Instructions ``command`` executed under callgrind (the whole process, start-up included)."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [valgrind, "--tool=callgrind", f"--callgrind-out-file={tmp}/out", *command],
            cwd=ROOT, env=ENV, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
    found = _COLLECTED.search(done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no instruction count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--stacks", nargs="+", default=list(STACKS))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-instructions", action="store_true", help="skip callgrind (CPU time only)")
    parser.add_argument("--discover", metavar="STACK", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.discover:
        print(json.dumps(discover(args.discover)))
        return 0
    valgrind = None if args.no_instructions else shutil.which("valgrind")
    if not args.no_instructions and valgrind is None:
        parser.error("valgrind is not installed: pass --no-instructions for CPU time only")
    gpuready = str(Path(sys.executable).with_name("gpuready"))
    ok = True
    print(
        f"instructions: one callgrind run each; CPU: median of {args.runs} paired runs; target plan/floor <= {TARGET}"
    )
    print(f"{'stack':>17} {'SDK mods':>8} {'plan Ginstr':>11} {'floor Ginstr':>12} {'instr ratio':>11} "
          f"{'plan CPU s':>10} {'floor CPU s':>11} {'CPU ratio':>9}  target")  # fmt: skip
    for stack in args.stacks:
        found = subprocess.run(
            [sys.executable, __file__, "--discover", stack], cwd=ROOT, env=ENV, check=True, capture_output=True,
            text=True,
        )  # fmt: skip
        modules = json.loads(found.stdout.strip().splitlines()[-1])
        floor = [
            sys.executable,
            "-c",
            f"import gc, importlib\ngc.disable()\nfor m in {modules!r}: importlib.import_module(m)",
        ]
        plan = [gpuready, "plan", "--stack", stack, "--project-dir", str(ROOT)]
        cpu(plan), cpu(floor)  # write and warm the bytecode and the file cache
        samples: dict[str, list[float]] = {"plan": [], "floor": []}
        for run in range(args.runs):
            pair = [("plan", plan), ("floor", floor)]
            for side, command in pair if run % 2 == 0 else reversed(pair):
                samples[side].append(cpu(command))
        cpu_ratio = statistics.median(p / f for p, f in zip(samples["plan"], samples["floor"], strict=True))
        passed = cpu_ratio <= TARGET
        instr = "-"
        counts = ("-", "-")
        if valgrind is not None:
            plan_i, floor_i = instructions(plan, valgrind), instructions(floor, valgrind)
            counts = (f"{plan_i / 1e9:.2f}", f"{floor_i / 1e9:.2f}")
            instr = f"{plan_i / floor_i:.2f}"
            passed &= plan_i / floor_i <= TARGET
        ok &= passed
        print(
            f"{stack:>17} {len(modules):>8} {counts[0]:>11} {counts[1]:>12} {instr:>11} "
            f"{statistics.median(samples['plan']):>10.2f} {statistics.median(samples['floor']):>11.2f} "
            f"{cpu_ratio:>9.2f}  {'PASS' if passed else 'FAIL'}",
            flush=True,
        )
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
