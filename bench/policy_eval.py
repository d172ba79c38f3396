"""Cost of the policy gate of ``gpuready plan`` on a 1,000-pool plan, in-process and over gRPC.

Each measurement runs in a fresh child process. The plan is an EKS stack of N gpuready pools (shared,
MIG, Bottlerocket and plain pools in turn: N components + N ``aws.eks.NodeGroup``):

- plan / gate: ``gpuready plan --config <N pools> -o json`` with the gate off (``--no-policy``) and on (the
  default), end to end; the gate's cost includes importing pulumi_policy and the pack.
- per resource: on one captured run, the pack evaluated in-process as the CLI does (scoped: each resource
  only to the policies that read its type, decoded once for all of them), in-process unscoped (every resource
  to every policy, as the engine sends them), and over gRPC to the real pack process
  (``python -u policies/gpu_conventions/__main__.py``).

Target (issue #17; #5 had 30%): the gate adds at most 10% to plan time. Run: ``.venv/bin/python bench/policy_eval.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_stack import write_stack_file  # noqa: E402

POOLS = 1000
REPEATS = 3
TARGET = 0.10


def child_plan(count: int, gate: bool) -> dict[str, float]:
    """One ``gpuready plan`` run, with or without the gate."""
    import pulumi_aws  # noqa: F401, PLC0415 - SDK import outside the clock, on both sides

    import gpuready.plugins  # noqa: F401, PLC0415 - registers the clouds' profiles, as every entry point does
    from gpuready.cli import plan_command  # noqa: PLC0415
    from gpuready.cli.main import build_parser  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as tmp:
        stack_file = write_stack_file(Path(tmp), count)
        argv = ["plan", "--config", str(stack_file), "--project-dir", str(ROOT), "-o", "json"]
        args = build_parser().parse_args(argv)
        args.no_policy = not gate
        sink = io.StringIO()
        start = time.perf_counter()
        with contextlib.redirect_stdout(sink):
            code = plan_command.run(args)
        elapsed = time.perf_counter() - start
    plan = json.loads(sink.getvalue())
    if code not in (0, 1):
        raise SystemExit(f"gpuready plan failed with exit code {code}")
    return {"seconds": elapsed, "resources": len(plan["resources"]), "violations": len(plan["violations"])}


def child_per_resource(count: int) -> dict[str, float]:
    """Evaluation time per resource on one captured run: in-process scoped / unscoped, and over gRPC."""
    import gpuready.plugins  # noqa: F401, PLC0415 - registers the clouds' profiles, as every entry point does
    from gpuready.offline import analyzer, analyzer_requests  # noqa: PLC0415
    from gpuready.offline.project import load_project  # noqa: PLC0415
    from gpuready.offline.pulumi_config import load_stack_config  # noqa: PLC0415
    from gpuready.offline.runner import run_program  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as tmp:
        stack_file = write_stack_file(Path(tmp), count)
        project = load_project(ROOT)
        config = load_stack_config(project, f"bench-{count}", config_file=stack_file)
        run = run_program(
            project.program_dir,
            project=project.name,
            stack=f"bench-{count}",
            config=config.values,
            secret_keys=config.secret_keys,
            root_directory=ROOT,
        )
    name, policies = analyzer.load_pack()
    analyzer.analyze_run(run, policies, pack_name=name)  # warm-up
    timings: dict[str, float] = {"resources": len(run.resources)}
    start = time.perf_counter()
    scoped = analyzer.analyze_run(run, policies, pack_name=name)
    timings["scoped"] = time.perf_counter() - start
    start = time.perf_counter()
    unscoped = analyzer.analyze_run(run, policies, pack_name=name, scoped=False)
    timings["unscoped"] = time.perf_counter() - start
    start = time.perf_counter()
    with analyzer.pack_process() as endpoint:
        timings["grpc_start"] = time.perf_counter() - start
        start = time.perf_counter()
        over_grpc = analyzer.analyze_endpoint(endpoint, run, analyzer_requests.configure_request(endpoint.info(), None))
        timings["grpc"] = time.perf_counter() - start
    if not scoped == unscoped == over_grpc:
        raise SystemExit("the three evaluations disagree")
    timings["violations"] = len(scoped)
    return timings


def measure(*child_args: str) -> dict[str, float]:
    result = subprocess.run(
        [sys.executable, __file__, "--child", *child_args], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--pools", type=int, default=POOLS)
    parser.add_argument("--repeats", type=int, default=REPEATS)
    args = parser.parse_args()
    if args.child:
        kind, count = args.child[0], int(args.child[1])
        result = child_per_resource(count) if kind == "per-resource" else child_plan(count, kind == "gate")
        print(json.dumps(result))
        return
    count = args.pools
    plain, gated = [], []
    for _ in range(args.repeats):  # interleaved, so machine noise hits both sides alike
        plain.append(measure("plan", str(count)))
        gated.append(measure("gate", str(count)))
    plan_s = statistics.median(r["seconds"] for r in plain)
    gate_s = statistics.median(r["seconds"] for r in gated)
    per = measure("per-resource", str(count))
    resources = int(per["resources"])
    overhead = (gate_s - plan_s) / plan_s
    print(f"policy gate on a {count}-pool plan ({resources} resources, {int(gated[0]['violations'])} violations)")
    print(f"  plan without gate      {plan_s:8.3f} s   (median of {args.repeats}, fresh process each)")
    print(f"  plan with gate         {gate_s:8.3f} s")
    print(f"  gate overhead          {overhead:8.1%}   (target <= {TARGET:.0%})")
    print("  per resource, on one captured run:")
    for key, label in (
        ("scoped", "in-process, scoped (CLI)"),
        ("unscoped", "in-process, every policy"),
        ("grpc", "gRPC to the pack process"),
    ):
        print(f"    {label:26} {1000 * per[key] / resources:7.3f} ms   ({per[key]:.3f} s total)")
    print(f"  pack process start-up        {per['grpc_start']:7.3f} s")
    print(f"  evaluation alone (scoped)    {per['scoped'] / plan_s:7.1%} of plan time (less noisy than end to end)")
    print("PASS" if overhead <= TARGET else f"FAIL: the gate adds more than {TARGET:.0%} to plan time")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
