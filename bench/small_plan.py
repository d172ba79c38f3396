"""A small plan against its import floor: ``gpuready plan --stack <example>`` beside importing the SDK it needs.

For each example stack (3 pools each, the GPU stack and, on eks-dev, the bin-packing scheduler), a discovery
child runs the plan in-process and lists the Pulumi SDK modules it executed (``pulumi``, ``pulumi_aws``,
``pulumi_kubernetes``, ``pulumi_azure_native``, ``pulumi_gcp``, ``pulumi_policy``; modules the SDKs registered
lazily but never loaded do not count). Then, in turn (paired, interleaved, fresh processes, wall time of the whole
process):

- plan: ``.venv/bin/gpuready plan --stack <name>`` (the policy gate included, as users run it in CI);
- floor: ``python -c "import <each of those modules>"``: what any program registering those resources pays,
  with the cyclic GC off as in the plan (which pauses it for the whole command).

The ratio plan/floor is taken pair by pair. Target (issue #17): <= 1.2x. Run: ``.venv/bin/python
bench/small_plan.py`` (about a minute; ``--stacks``, ``--runs``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STACKS = ("eks-dev", "aks-dev", "gke-dev", "gke-operator")
SDK = ("pulumi", "pulumi_aws", "pulumi_kubernetes", "pulumi_azure_native", "pulumi_gcp", "pulumi_policy")
TARGET = 1.2


def discover(stack: str) -> list[str]:
    """Child: run the plan in-process; print the SDK modules it executed, in import order."""
    sys.path.insert(0, str(ROOT))
    from components.cli.main import main  # noqa: PLC0415

    with contextlib.redirect_stdout(io.StringIO()):
        main(["plan", "--stack", stack, "--project-dir", str(ROOT)])
    return [
        name
        for name, module in list(sys.modules.items())
        if name.split(".")[0] in SDK and type(module) is types.ModuleType  # a lazy module not yet loaded is not
    ]


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--stacks", nargs="+", default=list(STACKS))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--discover", metavar="STACK", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.discover:
        print(json.dumps(discover(args.discover)))
        return 0
    gpuready = str(Path(sys.executable).with_name("gpuready"))
    ok = True
    print(f"median of {args.runs} paired runs (whole processes, wall); target plan/floor <= {TARGET}")
    print(f"{'stack':>13} {'SDK modules':>11} {'plan s':>7} {'floor s':>7} {'plan/floor':>10}  target")
    for stack in args.stacks:
        found = subprocess.run(
            [sys.executable, __file__, "--discover", stack], cwd=ROOT, check=True, capture_output=True, text=True
        )
        modules = json.loads(found.stdout.strip().splitlines()[-1])
        floor = [
            sys.executable,
            "-c",
            f"import gc, importlib\ngc.disable()\nfor m in {modules!r}: importlib.import_module(m)",
        ]
        plan = [gpuready, "plan", "--stack", stack, "--project-dir", str(ROOT)]
        samples: dict[str, list[float]] = {"plan": [], "floor": []}
        wall(plan)  # warm the file cache and bytecode
        for run in range(args.runs):
            pair = [("plan", plan), ("floor", floor)]
            for side, command in pair if run % 2 == 0 else reversed(pair):
                samples[side].append(wall(command))
        ratio = statistics.median(p / f for p, f in zip(samples["plan"], samples["floor"], strict=True))
        passed = ratio <= TARGET
        ok &= passed
        print(
            f"{stack:>13} {len(modules):>11} {statistics.median(samples['plan']):>7.2f} "
            f"{statistics.median(samples['floor']):>7.2f} {ratio:>10.2f}  {'PASS' if passed else 'FAIL'}"
        )
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
