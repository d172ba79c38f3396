"""The dynamic provider behind ``GpuPoolVerification``: wait for one pool's nodes to converge, or fail the update.

Pulumi pickles the provider (``dill``) into the resource's state and runs it in a separate provider process
(``python -m pulumi.dynamic``). The class is importable (``components`` is installed), so it is pickled by
reference; it holds no state, and its methods import the cluster (``components.kube``) and findings
(``components.verify``) code when they run, so nothing but plain props crosses the process boundary.

Props (all plain values; ``expectation`` comes from ``wire.expectation_to_data``):

* ``pool``: the gpuready pool name (the ``gpuready.io/pool`` label value);
* ``expectation``: what every node of the pool must look like;
* ``kubeconfig``: kubeconfig *content* (a secret; YAML or JSON), a path to one (a single line that is not
  JSON), or ``""`` for kubectl's default resolution
  (``--kubeconfig``-less: ``KUBECONFIG``, then ``~/.kube/config``);
* ``context``: kubeconfig context, ``""`` for the current one;
* ``timeout``: seconds to wait for convergence;
* ``triggers``: opaque values (e.g. the cloud node pool name, the GPU stack release revision) whose change
  re-verifies.

``create`` and ``update`` LIST then WATCH the pool's nodes (``components.kube.convergence.wait_for_nodes``) and
return once ``audit`` reports every expected node converged; otherwise they raise ``PoolNotConvergedError``,
whose message is the findings table of ``components.verify.report.render_report``. The engine never calls
them during ``pulumi preview`` (nor during the preview phase of ``pulumi up``): only ``check`` and ``diff``
run then, and neither touches the cluster.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from typing import Any

from pulumi.dynamic import CheckFailure, CheckResult, CreateResult, DiffResult, ResourceProvider, UpdateResult

RE_VERIFY_ON = ("pool", "expectation", "context", "triggers")
"""Inputs whose change makes ``diff`` report an update (so ``update`` verifies again). A rotated kubeconfig or
a new timeout alone does not re-verify."""

OUTPUT_KEYS = ("pool", "expectation", "context", "triggers", "timeout")
"""Inputs copied into the outputs (``diff`` compares against them). The kubeconfig is never stored."""


class PoolNotConvergedError(Exception):
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
        from components.core.scheduling import LABEL_POOL  # noqa: PLC0415 - imported in the provider process
        from components.errors import GpuReadyError  # noqa: PLC0415
        from components.kube.convergence import wait_for_nodes  # noqa: PLC0415
        from components.kube.nodes_api import connect  # noqa: PLC0415
        from components.verify.audit import AuditReport, audit  # noqa: PLC0415
        from components.verify.nodes import NodeView, node_view  # noqa: PLC0415
        from components.verify.report import render_report  # noqa: PLC0415
        from components.verify_hook.wire import expectation_from_data  # noqa: PLC0415

        pool = str(props["pool"])
        expectations = {pool: expectation_from_data(props.get("expectation") or {})}
        timeout = float(props.get("timeout") or 0)
        selector = f"{LABEL_POOL}={pool}"
        views: dict[str, tuple[str, NodeView]] = {}

        def evaluate(nodes: Mapping[str, Mapping[str, Any]]) -> AuditReport:
            current: list[NodeView] = []
            for name, raw in nodes.items():
                version = str(raw.get("metadata", {}).get("resourceVersion", ""))
                cached = views.get(name)
                if cached is None or cached[0] != version or not version:
                    cached = views[name] = (version, node_view(raw))
                current.append(cached[1])
            return audit(current, expectations)

        def done(report: AuditReport) -> bool:
            return report.done

        try:
            with (
                _KubeconfigFile(str(props.get("kubeconfig") or "")) as path,
                connect(path, str(props.get("context") or "") or None) as client,
            ):
                outcome = wait_for_nodes(client, selector, evaluate, done, timeout=timeout)
        except GpuReadyError as error:
            raise PoolNotConvergedError(f"pool {pool}: cannot verify its nodes: {error}") from error
        report = outcome.state
        if not outcome.converged:
            raise PoolNotConvergedError(
                f"pool {pool}: {report.converged} of {report.expected} nodes converged after {timeout:g}s "
                f"(nodes with {selector}); the update fails so nothing deploys onto an unverified pool.\n\n"
                f"{render_report(report, only_findings=True)}\n\n"
                f"Fix the findings and run `pulumi up` again, or watch with: gpuready verify -l '{selector}'"
            )
        outs = {key: props.get(key) for key in OUTPUT_KEYS}
        outs.update(
            converged=True,
            nodes=report.expected,
            findings=len(report.findings),
            waited=round(outcome.waited, 3),
        )
        return outs


class _KubeconfigFile:
    """The kubeconfig as a path for ``connect``: None (default resolution), the given path, or a private temp
    file holding the given content, removed afterwards."""

    def __init__(self, value: str) -> None:
        self._value = value
        self._temp: str | None = None

    def __enter__(self) -> str | None:
        value = self._value.strip()
        if not value:
            return None
        if "\n" not in value and not value.startswith("{"):  # one line, not JSON: a path
            return value
        fd, self._temp = tempfile.mkstemp(prefix="gpuready-kubeconfig-", suffix=".yaml")  # mode 0600
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(self._value)
        return self._temp

    def __exit__(self, *_: object) -> None:
        if self._temp is not None:
            os.unlink(self._temp)
