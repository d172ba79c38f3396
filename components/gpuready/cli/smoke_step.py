"""``gpuready verify --smoke``: after the pools converge, one short Job per pool that runs ``nvidia-smi`` on one of
its GPUs (``gpuready.core.health.smoke_job``), its result and log reported per pool, everything it created deleted
(``gpuready.kube.smoke_api``). Never without the flag; never before the pools converged; within ``--timeout``.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Sequence
from typing import Any

from gpuready.core.health.smoke_job import smoke_job
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import GpuReadyError
from gpuready.kube.deadline import Deadline
from gpuready.kube.nodes_api import NodeClient
from gpuready.kube.smoke_api import CLEANUP_SECONDS, SmokeResult, run_smoke
from gpuready.record import record
from gpuready.verify.report import table

_MARGIN = 5.0
"""Seconds kept back from the Job's own deadline for reading its result and log."""


@record(frozen=True, slots=True)
class SmokePlan:
    """What ``--smoke`` asked for: the pools, the image and the namespace."""

    pools: tuple[GpuPoolSpec, ...]
    image: str
    namespace: str
    run: str
    nccl_image: str | None
    """The two-node all-reduce's image; None: each fabric's default (``nccl_smoke.default_image``)."""


def smoke_plan(args: argparse.Namespace, pools: Sequence[GpuPoolSpec]) -> SmokePlan | None:
    """The smoke run ``args`` ask for (None without ``--smoke``); refused without a stack's pools."""
    if not getattr(args, "smoke", False):
        return None
    if not pools:
        raise GpuReadyError("--smoke: needs the pools of a stack: pass --stack NAME or --config FILE (not -l)")
    return SmokePlan(tuple(pools), args.smoke_image, args.smoke_namespace, secrets.token_hex(3),
                     args.smoke_nccl_image)  # fmt: skip


def run_smoke_step(
    client: NodeClient, plan: SmokePlan | None, deadline: Deadline, *, converged: bool, pools_with_nodes: set[str]
) -> list[SmokeResult]:
    """Run the plan's Jobs when the pools converged (none otherwise, nor without a plan), on the pools that have
    nodes: a pool without nodes has nothing to run on (and an elastic one would scale up for the Job)."""
    if plan is None or not converged:
        return []
    seconds = int(deadline.remaining() - _MARGIN)
    idle = [SmokeResult(p.name, "", "no-nodes", "", "the pool has no nodes yet: nothing to run on", ())
            for p in plan.pools if p.name not in pools_with_nodes]  # fmt: skip
    jobs = [smoke_job(p, image=plan.image, namespace=plan.namespace, run=plan.run, deadline_seconds=seconds,
                      nccl_image=plan.nccl_image) for p in plan.pools if p.name in pools_with_nodes]  # fmt: skip
    if not jobs:
        return idle
    print(f"smoke test: {len(jobs)} Job(s) in namespace {plan.namespace}, {seconds}s", file=sys.stderr, flush=True)
    job_deadline = Deadline(max(0.0, deadline.remaining() - _MARGIN))
    client.deadline = deadline
    return [*run_smoke(client, jobs, job_deadline, client.policy.sleep), *idle]


def smoke_passed(plan: SmokePlan | None, results: Sequence[SmokeResult]) -> bool:
    """No smoke asked for, or every pool's Job passed and nothing was left behind."""
    if plan is None:
        return True
    return len(results) == len(plan.pools) and all(
        r.status in ("passed", "no-nodes") and not r.left_behind for r in results
    )


def smoke_json(plan: SmokePlan | None, results: Sequence[SmokeResult]) -> dict[str, Any]:
    """``smoke`` for ``-o json`` (nothing without ``--smoke``)."""
    if plan is None:
        return {}
    return {"smoke": {
        "image": plan.image, "namespace": plan.namespace, "ran": bool(results), "passed": smoke_passed(plan, results),
        "pools": [{"pool": r.pool, "job": r.job, "status": r.status, "node": r.node, "detail": r.detail,
                   "log": list(r.log), "leftBehind": list(r.left_behind), **_advice(r)} for r in results],
    }}  # fmt: skip


def smoke_text(plan: SmokePlan, results: Sequence[SmokeResult]) -> str:
    """A row per pool, then each failure with its cause, fix and log."""
    if not results:
        return "smoke test: not run (the pools did not converge)"
    rows = [(r.pool, r.status, r.node or "-", r.job) for r in results]
    parts = [table(("POOL", "SMOKE", "NODE", "JOB"), rows)]
    for r in results:
        if r.status in ("passed", "no-nodes") and not r.left_behind:
            continue
        advice = _advice(r)
        lines = [f"pool/{r.pool}: smoke {r.status}", f"  {r.detail}", f"  cause: {advice['cause']}",
                 f"  fix:   {advice['fix']}", *(f"  log:   {line}" for line in r.log),
                 *(f"  left behind: {item}" for item in r.left_behind)]  # fmt: skip
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def _advice(result: SmokeResult) -> dict[str, str]:
    if result.cause:  # the run judged its own failure (the NCCL all-reduce's transport)
        return {"cause": result.cause, "fix": result.fix}
    where = f"kubectl get pods -n <namespace> -o wide -l gpuready.io/smoke-pool={result.pool.lower()}"
    if result.status == "not-started":
        return {"cause": "the Job's pod never ran: no node of the pool could take it (no free GPU, taints the pod "
                "does not tolerate, no node with the pool's labels) or no pod was created",
                "fix": f"look at why it was not scheduled, then run verify --smoke again: {where}"}  # fmt: skip
    if result.status == "timed-out":
        return {"cause": "nvidia-smi did not finish before the deadline (image pull, a hung driver)",
                "fix": f"give it a longer --timeout or pre-pull the image; {where}"}  # fmt: skip
    if result.status == "failed":
        return {"cause": "nvidia-smi failed on the node: no driver or container toolkit, or a broken GPU (see the "
                "log)", "fix": f"read the log above and the node's health: gpuready check -l "
                f"kubernetes.io/hostname={result.node or '<node>'}"}  # fmt: skip
    if result.left_behind:
        return {"cause": f"cleanup could not delete everything within {CLEANUP_SECONDS:g}s",
                "fix": f"delete them: kubectl delete jobs,pods -n <namespace> -l gpuready.io/smoke-pool="
                f"{result.pool.lower()}"}  # fmt: skip
    return {}
