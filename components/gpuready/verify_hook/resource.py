"""``GpuPoolVerification``: a resource that exists only once a pool's nodes have converged.

Why a dependable resource and not resource hooks: pulumi 3.272.0 does have resource hooks
(``pulumi/resource_hooks.py``: ``ResourceHook``, ``ResourceHookBinding`` with ``after_create`` /
``after_update``, bound through ``ResourceOptions.hooks``; ``ResourceHookOptions.on_dry_run`` defaults to
False, so they are skipped in preview). An ``after_*`` hook that raises does fail the deployment, but a hook
is not a resource: nothing downstream can ``depends_on`` it, so a workload (or anything else that must only
land on verified pools) would be created in parallel with the check instead of after it, and the result is
not recorded in state. A dynamic resource gives the same failure ("the update fails with the findings
table") plus an ordering edge: ``ResourceOptions(depends_on=[verification])`` waits for convergence. It is
skipped in preview for free (the engine calls a dynamic provider's ``create``/``update`` only on ``up``), and
``diff`` re-verifies only when the pool, its expectation, the context or a trigger changed.

Usage in a stack program (after the pools and, when there is one, the GPU stack)::

    from gpuready.verify_hook import verify_pools
    checks = verify_pools(pools, kubeconfig=cluster.kubeconfig, skip=["batch"], depends_on=[gpu_stack])
    Workload("train", ..., opts=pulumi.ResourceOptions(depends_on=[checks["train"]]))
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import field
from typing import Any

import pulumi
import pulumi.dynamic

from gpuready.core.specs import GpuPoolSpec
from gpuready.pool_outputs import GpuNodePoolBase
from gpuready.record import record
from gpuready.verify.expectations import expectation_for
from gpuready.verify_hook.provider import GpuPoolVerificationProvider
from gpuready.verify_hook.wire import expectation_to_data, smoke_to_data

DEFAULT_TIMEOUT = 900.0
"""Seconds to wait for a pool's nodes: new GPU nodes take minutes to boot, install drivers and advertise GPUs."""


@record(kw_only=True)
class GpuPoolVerificationArgs:
    """Inputs of ``GpuPoolVerification``. Build them with ``for_spec`` so the expectation matches the pool."""

    pool: str
    """The gpuready pool name (the ``gpuready.io/pool`` label value)."""
    expectation: Mapping[str, Any]
    """``wire.expectation_to_data(expectation_for(spec))``: plain data for the provider process."""
    kubeconfig: pulumi.Input[str] | None = None
    """Kubeconfig content (or a path); stored as a secret. None: ``KUBECONFIG``, then ``~/.kube/config``."""
    context: pulumi.Input[str] | None = None
    """Kubeconfig context; None for the current one."""
    timeout: float = DEFAULT_TIMEOUT
    """Seconds to wait for convergence before failing the update."""
    triggers: Sequence[pulumi.Input[Any]] = ()
    """Values whose change re-verifies (e.g. the cloud node pool name, a Helm release revision)."""
    depends_on: Sequence[pulumi.Resource] = field(default_factory=list)
    """Resources that must be in place first: the pool component and, when there is one, the GPU stack."""
    smoke: Mapping[str, Any] | None = None
    """``wire.smoke_to_data(...)``: the pool's GPU smoke Job, run once the nodes converged (None: no smoke run)."""

    @classmethod
    def for_spec(cls, spec: GpuPoolSpec, *, smoke: bool = False, smoke_image: str | None = None,
                 smoke_nccl_image: str | None = None, **fields: Any) -> GpuPoolVerificationArgs:  # fmt: skip
        """Args for ``spec``'s pool (``smoke``: with its smoke Job, of ``smoke_image`` or the pinned default; a
        fabric pool's two-node all-reduce of ``smoke_nccl_image`` or its fabric's default); ``fields`` sets the
        other attributes."""
        data = smoke_to_data(spec, smoke_image, smoke_nccl_image) if smoke else None
        return cls(pool=spec.name, expectation=expectation_to_data(expectation_for(spec)), smoke=data, **fields)


class GpuPoolVerification(pulumi.dynamic.Resource):
    """Waits (WATCH, no polling) on ``pulumi up`` until the pool's nodes converge; fails with the findings."""

    pool: pulumi.Output[str]
    converged: pulumi.Output[bool]
    """True once verified (a failed verification leaves no resource)."""
    nodes: pulumi.Output[int]
    """Nodes that converged."""
    findings: pulumi.Output[int]
    """Findings left when it converged (warnings only)."""
    waited: pulumi.Output[float]
    """Seconds the last verification waited."""

    def __init__(self, name: str, args: GpuPoolVerificationArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        if args.timeout < 0:
            raise ValueError(f"GpuPoolVerification {name}: timeout must not be negative; got {args.timeout}")
        props: dict[str, Any] = {
            "pool": args.pool,
            "expectation": dict(args.expectation),
            "kubeconfig": pulumi.Output.secret(args.kubeconfig if args.kubeconfig is not None else ""),
            "context": args.context if args.context is not None else "",
            "timeout": float(args.timeout),
            "triggers": list(args.triggers),
            **({"smoke": dict(args.smoke)} if args.smoke is not None else {}),
            "converged": None,
            "nodes": None,
            "findings": None,
            "waited": None,
        }
        merged = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(depends_on=list(args.depends_on)))
        super().__init__(GpuPoolVerificationProvider(), name, props, merged)


def verify_pools(
    pools: Sequence[GpuNodePoolBase],
    *,
    kubeconfig: pulumi.Input[str] | None = None,
    context: pulumi.Input[str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    skip: Collection[str] = (),
    depends_on: Sequence[pulumi.Resource] = (),
    smoke: bool = False,
    smoke_image: str | None = None,
    smoke_nccl_image: str | None = None,
    opts: pulumi.ResourceOptions | None = None,
) -> dict[str, GpuPoolVerification]:
    """One ``GpuPoolVerification`` (named ``<pool>-verify``) per pool not named in ``skip``, each depending on
    its pool component and on ``depends_on`` (e.g. the GPU stack); with ``smoke``, each also runs the pool's GPU
    smoke Job once its nodes converged (``smoke_nccl_image``: a fabric pool's two-node all-reduce image, None for
    its fabric's default). Pool name -> verification."""
    names = {p.spec.name for p in pools}
    unknown = sorted(set(skip) - names)
    if unknown:
        raise ValueError(f"verify_pools: skip names unknown pools {unknown}; pools: {sorted(names)}")
    checks: dict[str, GpuPoolVerification] = {}
    for pool in pools:
        spec = pool.spec
        if spec.name in skip:
            continue
        args = GpuPoolVerificationArgs.for_spec(
            spec,
            smoke=smoke,
            smoke_image=smoke_image,
            smoke_nccl_image=smoke_nccl_image,
            kubeconfig=kubeconfig,
            context=context,
            timeout=timeout,
            triggers=[pool.node_pool_name],
            depends_on=[pool, *depends_on],
        )
        checks[spec.name] = GpuPoolVerification(f"{spec.name}-verify", args, opts)
    return checks
