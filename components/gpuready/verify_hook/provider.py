"""The dynamic provider behind ``GpuPoolVerification``: wait for one pool's nodes to converge, or fail the update.

Pulumi pickles the provider (``dill``) into the resource's state and runs it in a separate provider process
(``python -m pulumi.dynamic``). The class is importable (``components`` is installed), so it is pickled by
reference; it holds no state, and its methods import the cluster (``gpuready.kube``) and findings
(``gpuready.verify``) code when they run, so nothing but plain props crosses the process boundary.

Props (all plain values; ``expectation`` comes from ``wire.expectation_to_data``):

* ``pool``: the gpuready pool name (the ``gpuready.io/pool`` label value);
* ``expectation``: what every node of the pool must look like;
* ``kubeconfig``: kubeconfig *content* (a secret; YAML or JSON, parsed in memory, never written to a file), a path
  to one (a single line that is not JSON), or ``""`` for kubectl's default resolution
  (``--kubeconfig``-less: ``KUBECONFIG``, then ``~/.kube/config``);
* ``context``: kubeconfig context, ``""`` for the current one;
* ``timeout``: seconds to wait for convergence;
* ``triggers``: opaque values (e.g. the cloud node pool name, the GPU stack release revision) whose change
  re-verifies.

``create`` and ``update`` LIST then WATCH the pool's nodes (``gpuready.kube.convergence.follow_nodes``), every
request, retry and wait bounded by one deadline (``timeout``), of which a DRA pool's node watch leaves a share to
the ResourceSlice audit (as ``gpuready verify`` does: ``resource_slices.slice_reserve``), and
return once ``audit`` reports every expected node converged; otherwise they raise ``PoolNotConvergedError``,
whose message is the findings table of ``gpuready.verify.report.render_report``. The engine never calls
them during ``pulumi preview`` (nor during the preview phase of ``pulumi up``): only ``check`` and ``diff``
run then, and neither touches the cluster.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pulumi.dynamic import CheckFailure, CheckResult, CreateResult, DiffResult, ResourceProvider, UpdateResult

from gpuready.errors import GpuReadyError

if TYPE_CHECKING:
    from gpuready.kube.deadline import Deadline
    from gpuready.kube.nodes_api import NodeClient
    from gpuready.kube.smoke_api import SmokeResult

KUBECONFIG_SOURCE = "the verification's kubeconfig (gpuready:kubeconfig)"
"""How errors name kubeconfig content passed in: by where it came from, never by what it holds."""

RE_VERIFY_ON = ("pool", "expectation", "context", "triggers", "smoke")
"""Inputs whose change makes ``diff`` report an update (so ``update`` verifies again). A rotated kubeconfig or
a new timeout alone does not re-verify."""

OUTPUT_KEYS = ("pool", "expectation", "context", "triggers", "timeout", "smoke")
"""Inputs copied into the outputs (``diff`` compares against them). The kubeconfig is never stored."""


class PoolNotConvergedError(GpuReadyError):
    """The pool's nodes did not converge in time; the message is the findings table."""


class GpuPoolVerificationProvider(ResourceProvider):
    """Create/update = wait until the pool's nodes converge; delete = nothing (verification owns no cloud object)."""

    def check(self, _olds: dict[str, Any], news: dict[str, Any]) -> CheckResult:
        failures: list[CheckFailure] = []
        if not isinstance(news.get("pool"), str) or not news.get("pool"):
            failures.append(CheckFailure("pool", "must be a non-empty pool name"))
        timeout = news.get("timeout")
        if isinstance(timeout, int | float) and timeout < 0:
            failures.append(CheckFailure("timeout", f"must not be negative; got {timeout}"))
        return CheckResult(news, failures)

    def diff(self, _id: str, _olds: dict[str, Any], _news: dict[str, Any]) -> DiffResult:
        changed = [key for key in RE_VERIFY_ON if _olds.get(key) != _news.get(key)]
        return DiffResult(changes=bool(changed), replaces=[], delete_before_replace=False)

    def create(self, props: dict[str, Any]) -> CreateResult:
        outs = self.verify(props)
        return CreateResult(f"gpuready-verify-{outs['pool']}", outs)

    def update(self, _id: str, _olds: dict[str, Any], _news: dict[str, Any]) -> UpdateResult:
        return UpdateResult(self.verify(_news))

    def delete(self, _id: str, _props: dict[str, Any]) -> None:
        return None

    def verify(self, props: Mapping[str, Any]) -> dict[str, Any]:
        """Wait for convergence; the outputs on success, ``PoolNotConvergedError`` (or a cluster error) otherwise."""
        import gpuready.plugins  # noqa: F401, PLC0415 - registers the clouds' profiles in the provider process
        from gpuready.core.scheduling import LABEL_POOL  # noqa: PLC0415 - imported in the provider process
        from gpuready.kube.convergence import follow_nodes  # noqa: PLC0415 - imported in the provider process
        from gpuready.kube.deadline import Deadline  # noqa: PLC0415 - imported in the provider process
        from gpuready.kube.node_record import NodeRecord  # noqa: PLC0415 - imported in the provider process
        from gpuready.kube.resource_slices import (  # noqa: PLC0415 - imported in the provider process
            audit_slices,
            may_need_slices,
            slice_reserve,
            wait_for_slices,
        )
        from gpuready.verify.incremental import AuditState, WatchedAudit  # noqa: PLC0415 - imported in the provider process
        from gpuready.verify.report import render_report  # noqa: PLC0415 - imported in the provider process
        from gpuready.verify_hook.wire import expectation_from_data  # noqa: PLC0415 - imported in the provider process

        pool = str(props["pool"])
        expectations = {pool: expectation_from_data(props.get("expectation") or {})}
        timeout = float(props.get("timeout") or 0)
        selector = f"{LABEL_POOL}={pool}"

        def done(state: AuditState) -> bool:
            return state.done

        deadline = Deadline(timeout)
        # The same split as ``gpuready verify``: a DRA pool's node watch leaves ``slice_reserve`` of the deadline
        # to the ResourceSlice audit, which then runs whether or not the nodes converged (verification degrades:
        # findings, or "slices not checked: <why>", never a bare deadline error).
        dra = may_need_slices([expectation.advertiser for expectation in expectations.values()])
        nodes_deadline = deadline.keeping(slice_reserve(deadline)) if dra else deadline
        try:
            with _client(str(props.get("kubeconfig") or ""), str(props.get("context") or "") or None) as client:
                outcome = follow_nodes(
                    client, selector, WatchedAudit(expectations), done, timeout=nodes_deadline, listed_as=NodeRecord
                )
                report = outcome.state.report()
                client.deadline = deadline
                if outcome.converged:  # a DRA pool's nodes converge on their ResourceSlices too
                    report = wait_for_slices(client, report, deadline, client.policy.sleep)
                else:
                    report = audit_slices(client, report)
                smoke = None
                if props.get("smoke") and outcome.converged and report.done and report.results:
                    smoke = _smoke(client, props["smoke"], deadline)
        except GpuReadyError as error:
            # ``from None``: the engine prints the whole traceback (pulumi/dynamic/__main__.py aborts with
            # ``traceback.format_exc()``), chained causes included; gpuready's message is the safe summary.
            raise PoolNotConvergedError(f"pool {pool}: cannot verify its nodes: {error}") from None
        if not (outcome.converged and report.done):
            failing = f"The cluster kept failing until the deadline: {outcome.problem}\n\n" if outcome.problem else ""
            raise PoolNotConvergedError(
                f"pool {pool}: {report.converged} of {report.expected} nodes converged after {timeout:g}s "
                f"(nodes with {selector}); the update fails so nothing deploys onto an unverified pool.\n\n"
                f"{failing}{render_report(report, only_findings=True)}\n\n"
                f"Fix the findings and run `pulumi up` again, or watch with: gpuready verify -l '{selector}'"
            )
        if smoke is not None and (smoke.status != "passed" or smoke.left_behind):
            raise PoolNotConvergedError(
                f"pool {pool}: its nodes converged but the GPU smoke Job {smoke.job} {smoke.status} "
                f"(node {smoke.node or '-'}): {smoke.detail}"
                + "".join(f"\n  log: {line}" for line in smoke.log)
                + "".join(f"\n  left behind: {item}" for item in smoke.left_behind)
                + (f"\n  cause: {smoke.cause}\n  fix: {smoke.fix}" if smoke.cause else "")
                + "\n\nFix the node and run `pulumi up` again; by hand: gpuready verify --stack <stack> --smoke"
            )
        outs = {key: props.get(key) for key in OUTPUT_KEYS}
        if smoke is not None:
            outs["smokeStatus"] = smoke.status
        outs.update(
            converged=True,
            nodes=report.expected,
            findings=len(report.findings),
            waited=round(outcome.waited, 3),
        )
        return outs


def _smoke(client: NodeClient, data: Mapping[str, Any], deadline: Deadline) -> SmokeResult:
    """Run the pool's smoke Job (planned by the stack program) within what is left of ``deadline``."""
    import secrets  # noqa: PLC0415 - imported in the provider process

    from gpuready.core.health.smoke_job import rerun  # noqa: PLC0415 - imported in the provider process
    from gpuready.kube.deadline import Deadline  # noqa: PLC0415 - imported in the provider process
    from gpuready.kube.smoke_api import run_smoke  # noqa: PLC0415 - imported in the provider process
    from gpuready.verify_hook.wire import smoke_from_data  # noqa: PLC0415 - imported in the provider process

    margin = 5.0
    job = rerun(smoke_from_data(data), secrets.token_hex(3), int(deadline.remaining() - margin))
    [result] = run_smoke(client, [job], Deadline(max(0.0, deadline.remaining() - margin)), client.policy.sleep)
    return result


def _client(kubeconfig: str, context: str | None) -> NodeClient:
    """A node client from the ``kubeconfig`` prop: "" for kubectl's default resolution, one line that is not JSON
    for a path, anything else for content, which is parsed in memory and never written to disk (so no temporary
    file can outlive the provider process, however it ends). Errors name the prop, never its content."""
    from gpuready.cloud_credentials import recognise  # noqa: PLC0415 - imported in the provider process
    from gpuready.kube.errors import KubeConfigError  # noqa: PLC0415 - imported in the provider process
    from gpuready.kube.kubeconfig import load_target_from_text  # noqa: PLC0415 - imported in the provider process
    from gpuready.kube.nodes_api import client_for, connect  # noqa: PLC0415 - imported in the provider process

    value = kubeconfig.strip()
    if not value:
        return connect(None, context, credentials=recognise)
    if "\n" not in value and not value.startswith("{"):  # one line, not JSON: a path
        if not Path(value).expanduser().is_file():  # not shown: it may be a pasted token rather than a path
            raise KubeConfigError(
                f"{KUBECONFIG_SOURCE}: one line that names no existing file ({len(value)} characters, not shown); "
                "pass a path to a kubeconfig file, or the whole kubeconfig as a secret"
            )
        return connect(value, context, credentials=recognise)
    return client_for(load_target_from_text(kubeconfig, context, source=KUBECONFIG_SOURCE, credentials=recognise))
