"""Plan time and peak memory of ``gpuready plan`` for 10, 100 and 1,000 pools, with and without the policy gate,
against the bare mock runtime.

Each measurement runs in a fresh child process (peak RSS is per process); the sides run in turn (paired,
interleaved: plan, gate, bare, then the next round in another order) and ratios are taken pair by pair. Every
side imports the same SDKs before the clock starts and runs with the cyclic GC off (the planner pauses it; the
bare side disables it), so the GC setting is the same on both sides of each ratio.

- plan: ``gpuready plan --config <N pools> -o json --no-policy`` in-process (read Pulumi.yaml and the stack
  file, type-check config like the engine, validate every pool, register, capture, build the JSON plan).
- gate: the same with the policy gate (the default), importing pulumi_policy and the pack inside the clock.
- bare: the same registrations (one component + one ``aws.eks.NodeGroup`` per pool with the same inputs,
  the same component outputs and stack exports, all precomputed before the clock starts) under plain
  ``set_mocks`` + ``pulumi.runtime.test``: the SDK's own cost of registering what gpuready registers.

- program: the real ``stacks/__main__.py`` (validation, components, exports) under plain ``set_mocks`` +
  ``pulumi.runtime.test``: what the offline planner adds around the program (config checks, isolated run,
  capture, JSON plan). ``set_mocks`` finishes its root stack at once, so exports are never registered there.

Targets (issues #2, #17): plan + gate within 1.3x of bare, the gate at most 10% of the plan at 1,000 pools,
1,000 pools in <= 10 s, linear. Run: ``.venv/bin/python bench/plan_scale.py`` (about 3 minutes).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_stack import BENCH_WIRING, pool_entries, write_stack_file  # noqa: E402

SIZES = (10, 100, 1000)
REPEATS = 3


def child_gpuready(count: int, *, gate: bool = False) -> dict[str, float]:
    import pulumi_aws  # noqa: F401, PLC0415 - import cost outside the clock, as for the bare side
    import pulumi_kubernetes  # noqa: F401, PLC0415

    from gpuready.cli import main as cli  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as tmp:
        stack_file = write_stack_file(Path(tmp), count)
        baseline = _rss_mb()
        sink = io.StringIO()
        start, cpu = time.perf_counter(), time.process_time()
        with contextlib.redirect_stdout(sink):
            code = cli.main(
                ["plan", "--config", str(stack_file), "--project-dir", str(ROOT), "-o", "json"]
                + ([] if gate else ["--no-policy"]),
                exiting=True,  # as the console script runs it: the run is not torn down before the process exits
            )
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    if code != 0:
        raise SystemExit(f"gpuready plan failed with exit code {code}")
    resources = len(json.loads(sink.getvalue())["resources"])
    return {
        "seconds": elapsed,
        "cpu": cpu,
        "peak_mb": _rss_mb(),
        "growth_mb": _rss_mb() - baseline,
        "resources": resources,
    }


def child_bare(count: int) -> dict[str, float]:
    import pulumi  # noqa: PLC0415
    import pulumi_aws as aws  # noqa: PLC0415
    import pulumi_kubernetes as k8s  # noqa: PLC0415

    import gpuready.plugins  # noqa: F401, PLC0415 - registers the clouds' profiles, as every entry point does
    from gpuready.core.gpu_stack.stack_objects import ConfigMapObject  # noqa: PLC0415
    from gpuready.core.gpu_stack.stack_plan import plan_gpu_stack  # noqa: PLC0415
    from gpuready.core.gpu_stack.stack_spec import GpuStackSpec  # noqa: PLC0415
    from gpuready.core.pool_config import parse_pools  # noqa: PLC0415
    from gpuready.core.pool_summary import pool_outputs  # noqa: PLC0415
    from gpuready.eks import lifecycle, plan  # noqa: PLC0415

    # Everything gpuready registers, computed before the clock starts: the same child inputs, the same
    # component outputs and the same stack exports. The ratio then isolates gpuready's own work
    # (config type checks, validation, capture, plan JSON), not the SDK's cost of registering.
    prepared = []
    specs = parse_pools(pool_entries(count), "eks")
    for spec in specs:
        values = pool_outputs(spec, plan.driver_summary(spec), lifecycle.summary(spec)).as_dict()
        args = plan.node_group_args(spec)
        args["node_group_name"] = lifecycle.cloud_name(spec, {**args, **BENCH_WIRING})
        prepared.append((spec.name, args, values, lifecycle.autoscaler_tags(spec)))
    tag_count = sum(len(tags) for *_, tags in prepared)
    stack_plan = plan_gpu_stack(specs[0].profile, specs, GpuStackSpec(kind="gpu-operator"))
    release = stack_plan.release
    assert release is not None and stack_plan.namespace is not None
    namespace_metadata = stack_plan.namespace["metadata"]

    pulumi.runtime.set_mocks(_echo_mocks(), project="gpuready", stack="bench")

    @pulumi.runtime.test  # type: ignore[untyped-decorator]
    def program() -> None:
        exports = {}
        components = []
        for name, args, values, tags in prepared:
            component = pulumi.ComponentResource("gpuready:index:EksGpuNodePool", name, {}, None)
            components.append(component)
            node_group = aws.eks.NodeGroup(
                f"{name}-node-group",
                tags={},
                opts=pulumi.ResourceOptions(
                    parent=component, ignore_changes=list(lifecycle.CREATION_ONLY), delete_before_replace=False
                ),
                **BENCH_WIRING,
                **args,
            )
            for key, value in tags.items():
                aws.autoscaling.Tag(
                    f"{name}-asg-{key}",
                    autoscaling_group_name=f"eks-{args['node_group_name']}-offline",
                    tag=aws.autoscaling.TagTagArgs(key=key, value=value, propagate_at_launch=False),
                    opts=pulumi.ResourceOptions(parent=component, deleted_with=node_group, depends_on=[node_group]),
                )
            component.register_outputs({"node_pool_name": node_group.node_group_name, **values})
            exports[name] = {"nodePoolName": node_group.node_group_name, **values}
        provider = k8s.Provider("cluster", kubeconfig=pulumi.Output.secret("offline"))
        stack = pulumi.ComponentResource("gpuready:index:GpuOperator", "gpu-stack", {}, None)
        child = pulumi.ResourceOptions(parent=stack, provider=provider)
        namespace = k8s.core.v1.Namespace("gpu-stack-namespace", metadata=namespace_metadata, opts=child)
        in_namespace = pulumi.ResourceOptions.merge(child, pulumi.ResourceOptions(depends_on=[namespace]))
        maps = [
            k8s.core.v1.ConfigMap(f"gpu-stack-{i}", metadata=o.manifest["metadata"], data=o.data, opts=in_namespace)
            for i, o in enumerate(stack_plan.objects)
            if isinstance(o, ConfigMapObject)
        ]
        k8s.helm.v3.Release(
            "gpu-stack-release",
            name=release.name,
            chart=release.chart.name,
            version=release.version,
            repository_opts=k8s.helm.v3.RepositoryOptsArgs(repo=release.repository),
            namespace=release.namespace,
            values=dict(release.values),
            timeout=release.timeout_seconds,
            opts=pulumi.ResourceOptions.merge(
                child, pulumi.ResourceOptions(depends_on=[namespace, *maps, *components])
            ),
        )
        stack.register_outputs({"release_name": release.name, "values": dict(release.values)})
        pulumi.export("cloud", "eks")
        pulumi.export("clusterName", "bench")
        pulumi.export("gpuStack", {"kind": "gpu-operator", "pools": {p.pool: p.summary for p in stack_plan.pools}})
        pulumi.export("pools", exports)

    return _timed(program, resources=2 * count + tag_count + 5)


def child_program(count: int) -> dict[str, float]:
    """The real stack program (validation, components, exports) under plain ``set_mocks`` + ``pulumi.runtime.test``."""
    import runpy  # noqa: PLC0415

    import pulumi  # noqa: PLC0415
    import pulumi_aws  # noqa: F401, PLC0415
    import pulumi_kubernetes  # noqa: F401, PLC0415

    from gpuready.offline.project import load_project  # noqa: PLC0415
    from gpuready.offline.pulumi_config import load_stack_config  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as tmp:
        project = load_project(ROOT)
        config = load_stack_config(project, "bench", config_file=write_stack_file(Path(tmp), count))
    pulumi.runtime.set_mocks(_echo_mocks(), project="gpuready", stack="bench")
    pulumi.runtime.set_all_config(dict(config.values), list(config.secret_keys))
    sys.path.insert(0, str(ROOT / "stacks"))

    @pulumi.runtime.test  # type: ignore[untyped-decorator]
    def program() -> None:
        runpy.run_path(str(ROOT / "stacks" / "__main__.py"), run_name="__main__")

    return _timed(program, resources=2 * count)


def _timed(program: Callable[[], None], *, resources: int) -> dict[str, float]:
    """Run ``program`` with the GC off; wall and CPU seconds, peak and added RSS."""
    baseline = _rss_mb()
    gc.disable()
    start, cpu = time.perf_counter(), time.process_time()
    program()
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "seconds": elapsed,
        "cpu": cpu,
        "peak_mb": _rss_mb(),
        "growth_mb": _rss_mb() - baseline,
        "resources": resources,
    }


def _echo_mocks() -> Any:
    """Mocks that echo inputs as outputs, as the offline planner's do."""
    import pulumi  # noqa: PLC0415

    from gpuready.offline.computed_outputs import computed_outputs  # noqa: PLC0415
    from gpuready.offline.invoke_results import fake_invoke_result  # noqa: PLC0415

    class Echo(pulumi.runtime.Mocks):
        def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
            return f"{args.name}_id", {**args.inputs, **computed_outputs(args.typ, args.name, args.inputs)}

        def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict[str, Any], list[tuple[str, str]]]:
            return fake_invoke_result(args.token, args.args), []  # the offline planner's cluster lookups

    return Echo()


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(kind: str, count: int) -> dict[str, float]:
    result = subprocess.run(
        [sys.executable, __file__, "--child", kind, str(count)], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=2, metavar=("KIND", "N"), help=argparse.SUPPRESS)
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument("--program", action="store_true", help="also time stacks/__main__.py under plain set_mocks")
    args = parser.parse_args()
    if args.child:
        kind, count = args.child[0], int(args.child[1])
        children: dict[str, Callable[[int], dict[str, float]]] = {
            "plan": child_gpuready,
            "gate": lambda n: child_gpuready(n, gate=True),
            "bare": child_bare,
            "program": child_program,
        }
        print(json.dumps(children[kind](count)))
        return
    kinds = ["plan", "gate", "bare", *(["program"] if args.program else [])]
    print(f"median of {args.repeats} paired rounds; every run in a fresh process; GC off on every side")
    print(f"{'pools':>6} {'resources':>9} {'plan s':>7} {'gate s':>7} {'bare s':>7} {'plan/bare':>9} "
          f"{'gate/bare':>9} {'gate/plan':>9} {'gate cost':>9} {'ms/pool':>8} {'peak MB':>8}")  # fmt: skip
    for count in args.sizes:
        runs: dict[str, list[dict[str, float]]] = {kind: [] for kind in kinds}
        for round_ in range(args.repeats):
            order = kinds[round_ % len(kinds) :] + kinds[: round_ % len(kinds)]
            for kind in order:
                runs[kind].append(measure(kind, count))

        def med(kind: str, runs: dict[str, list[dict[str, float]]] = runs) -> float:
            return statistics.median(r["seconds"] for r in runs[kind])

        def ratio(a: str, b: str, runs: dict[str, list[dict[str, float]]] = runs) -> float:
            return statistics.median(x["seconds"] / y["seconds"] for x, y in zip(runs[a], runs[b], strict=True))

        gate_cost = statistics.median(
            (g["seconds"] - p["seconds"]) / p["seconds"] for g, p in zip(runs["gate"], runs["plan"], strict=True)
        )
        print(
            f"{count:>6} {int(runs['plan'][0]['resources']):>9} {med('plan'):>7.2f} {med('gate'):>7.2f} "
            f"{med('bare'):>7.2f} {ratio('plan', 'bare'):>9.2f} {ratio('gate', 'bare'):>9.2f} "
            f"{ratio('gate', 'plan'):>9.2f} {gate_cost:>8.0%} {1000 * med('gate') / count:>8.2f} "
            f"{max(r['peak_mb'] for r in runs['gate']):>8.0f}"
        )
        if args.program:
            print(f"{'':>6} program (stacks/__main__.py under plain set_mocks): {med('program'):.2f} s, "
                  f"plan/program {ratio('plan', 'program'):.2f}")  # fmt: skip
    print("bare: the same registrations precomputed under plain set_mocks; gate cost: (gate - plan) / plan")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
