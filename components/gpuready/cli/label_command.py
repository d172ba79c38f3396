"""``gpuready label``: add the missing accelerator labels to GPU nodes, one merge PATCH per node, no pods.

Without ``--yes`` nothing is written: ``--dry-run`` shows the plan; neither flag shows it with a hint on
stderr that ``--yes`` applies it. Both exit 0: the plan was shown (``exit_table``). A rerun after ``--yes`` finds
nothing to do. CPU nodes are never touched.

Every PATCH is conditioned on the node as it was listed (its ``resourceVersion``): when another writer changed
the node in between (set ``nvidia.com/gpu.present=false``, say), the API server answers 409 and the node is read
again (GET) and its patch decided again by the same rules, so a label those rules keep is never overruled.

Applying always ends with ``labeled N of M`` and, when not all were, ``not done: <nodes>``. A node whose PATCH
fails on its own (409 after ``MAX_REREADS`` re-reads, 404 gone, 422 refused) is skipped and the others go on;
anything that affects every node (unreachable, credentials, the deadline) stops the run there (exit 2). SIGINT and
SIGTERM let the PATCH in flight finish and report it, then stop with the same summary (exit 130 / 143); a second
signal abandons the PATCH in flight and names its node as unknown.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping

from gpuready.cli.check_command import fail, open_client
from gpuready.cli.exit_codes import EXIT_INVALID, EXIT_OK
from gpuready.cli.habits import table_style
from gpuready.cli.interruption import Interrupted, deferred, exit_code
from gpuready.errors import GpuReadyError
from gpuready.gc_pause import paused_gc
from gpuready.kube.errors import ConflictError, KubeApiError
from gpuready.kube.node_record import NodeRecord, record_view
from gpuready.kube.nodes_api import NodeClient
from gpuready.verify.labeling import LabelPatch, label_patch, label_plan, unlabelable
from gpuready.verify.nodes import NodeView, node_view
from gpuready.verify.report import render_label_plan

NODE_SPECIFIC_STATUS = frozenset({404, 409, 422})
"""PATCH failures that concern one node only: the run goes on with the next node."""
MAX_NAMED = 20
"""Nodes named in the "not done" line before the rest is counted."""
MAX_REREADS = 4
"""Conflicts per node that are answered by reading the node again and deciding again (5 PATCHes at most)."""


def run(args: argparse.Namespace) -> int:
    """Show the label plan; apply it with --yes."""
    try:
        with open_client(args) as client:
            with paused_gc():
                views, versions = listed_nodes(client, args.selector)
                patches = label_plan(views)
            wide, headers = table_style(args)
            print(render_label_plan(patches, unlabelable(views), nodes=views, wide=wide, headers=headers))
            if not patches:
                print("nothing to label")
                return EXIT_OK
            if args.dry_run:
                return EXIT_OK
            if not args.yes:
                print(
                    f"hint: nothing was changed; re-run with --yes to apply these {len(patches)} patches "
                    "(or --dry-run to only show them)",
                    file=sys.stderr,
                )
                return EXIT_OK
            return apply(client, patches, versions)
    except GpuReadyError as error:
        return fail(error, args)


def listed_nodes(client: NodeClient, selector: str) -> tuple[list[NodeView], dict[str, str]]:
    """The nodes' views and, by name, the resourceVersion each was read at (the PATCHes' precondition)."""
    views: list[NodeView] = []
    versions: dict[str, str] = {}
    for record in client.list_nodes(selector, NodeRecord).items:
        view = record_view(record)
        views.append(view)
        versions[view.name] = str(getattr(record.metadata, "resourceVersion", "") or "")
    return views, versions


def apply(client: NodeClient, patches: list[LabelPatch], versions: Mapping[str, str]) -> int:
    """PATCH each node; always end with how many were labeled and which were not."""
    done: list[str] = []
    failed: list[str] = []
    stopped: GpuReadyError | None = None
    signum: int | None = None
    abandoned = ""
    with deferred() as stop:
        for patch in patches:
            if stop.signal is not None:
                signum = stop.signal
                break
            try:
                written = write(client, patch, versions.get(patch.node, ""))
            except Interrupted as error:  # a second signal: the PATCH in flight is abandoned
                signum, abandoned = error.signum, patch.node
                break
            except KubeApiError as error:
                if error.status not in NODE_SPECIFIC_STATUS:
                    stopped = error
                    break
                print(f"error: {error}", file=sys.stderr)
                failed.append(patch.node)
                continue
            except GpuReadyError as error:
                stopped = error
                break
            done.append(patch.node)
            print(f"node/{patch.node} labeled" if written else f"node/{patch.node}: nothing left to label (it changed)")
        else:
            signum = stop.signal
    finished = set(done)
    not_done = [p.node for p in patches if p.node not in finished]
    print(summary(len(done), len(patches), not_done))
    attempted = len(done) + len(failed)
    if signum is not None:
        return interrupted(signum, attempted, len(patches), abandoned)
    if stopped is not None:
        return fail(f"{stopped}; stopped after {attempted} of {len(patches)} nodes")
    if not_done:
        print("hint: fix what the errors above name, then re-run gpuready label --yes", file=sys.stderr)
        return EXIT_INVALID
    return EXIT_OK


def write(client: NodeClient, patch: LabelPatch, version: str) -> bool:
    """Apply ``patch`` conditioned on ``version``; on a conflict read the node again and decide again. False when
    the node, read again, needs no patch any more (another writer set the labels, or a ``false`` to keep)."""
    current: LabelPatch | None = patch
    for reread in range(MAX_REREADS + 1):
        assert current is not None
        try:
            client.patch_node_labels(current.node, current.labels, version)
            return True
        except ConflictError as error:
            if reread == MAX_REREADS:
                raise ConflictError(
                    f"patch node/{patch.node}: still 409 Conflict after {MAX_REREADS + 1} attempts, each on the node "
                    f"read again (something else keeps changing it); check who with: kubectl get node {patch.node} "
                    "--show-managed-fields -o yaml; then re-run gpuready label --yes, which patches only what is "
                    "still missing",
                    409,
                    error.reason,
                ) from error
        raw = client.get_node(patch.node)
        version = str(raw.get("metadata", {}).get("resourceVersion", ""))
        current = label_patch(node_view(raw))
        if current is None:
            return False
    raise AssertionError("unreachable: the loop returns or raises")


def interrupted(signum: int, attempted: int, total: int, abandoned: str) -> int:
    """The line that ends an interrupted run, and 130 (SIGINT) or 143 (SIGTERM)."""
    name = Interrupted(signum).name
    unknown = (
        f"; node/{abandoned}: its PATCH was abandoned in flight and may or may not have landed (check with: "
        f"kubectl get node {abandoned} --show-labels)"
        if abandoned
        else ""
    )
    print(
        f"error: interrupted by {name}; stopped after {attempted} of {total} nodes{unknown}; re-run gpuready label "
        "--yes to finish",
        file=sys.stderr,
    )
    return exit_code(signum)


def summary(labeled: int, total: int, not_done: list[str]) -> str:
    """``labeled N of M`` and, when some were not, ``; not done: a, b (and K more)``."""
    line = f"labeled {labeled} of {total}"
    if not not_done:
        return line
    named = ", ".join(not_done[:MAX_NAMED])
    more = f" and {len(not_done) - MAX_NAMED} more" if len(not_done) > MAX_NAMED else ""
    return f"{line}; not done: {named}{more}"
