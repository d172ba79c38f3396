"""``gpuready label``: add the missing accelerator labels to GPU nodes, one merge PATCH per node, no pods.

Without ``--yes`` nothing is written: ``--dry-run`` shows the plan; neither flag shows it with a hint on
stderr that ``--yes`` applies it. Both exit 0: the plan was shown (``exit_table``). A rerun after ``--yes`` finds
nothing to do. CPU nodes are never touched.

Applying always ends with ``labeled N of M`` and, when not all were, ``not done: <nodes>``. A node whose PATCH
fails on its own (409 after retries, 404 gone, 422 refused) is skipped and the others go on; anything that
affects every node (unreachable, credentials, the deadline) stops the run there. Either way the exit code is 2.
"""

from __future__ import annotations

import argparse
import sys

from components.cli.check_command import fail, open_client
from components.cli.exit_codes import EXIT_INVALID, EXIT_OK
from components.errors import GpuReadyError
from components.gc_pause import paused_gc
from components.kube.errors import KubeApiError
from components.kube.node_record import list_views as node_views
from components.kube.nodes_api import NodeClient
from components.verify.labeling import LabelPatch, label_plan, unlabelable
from components.verify.report import render_label_plan

NODE_SPECIFIC_STATUS = frozenset({404, 409, 422})
"""PATCH failures that concern one node only: the run goes on with the next node."""
MAX_NAMED = 20
"""Nodes named in the "not done" line before the rest is counted."""


def run(args: argparse.Namespace) -> int:
    """Show the label plan; apply it with --yes."""
    try:
        with open_client(args) as client:
            with paused_gc():
                views = node_views(client, args.selector)
                patches = label_plan(views)
            print(render_label_plan(patches, unlabelable(views)))
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
            return apply(client, patches)
    except GpuReadyError as error:
        return fail(error, args)


def apply(client: NodeClient, patches: list[LabelPatch]) -> int:
    """PATCH each node; always end with how many were labeled and which were not."""
    labeled: list[str] = []
    failed: list[str] = []
    stopped: GpuReadyError | None = None
    for patch in patches:
        try:
            client.patch_node_labels(patch.node, patch.labels)
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
        labeled.append(patch.node)
        print(f"node/{patch.node} labeled")
    done = set(labeled)
    not_done = [p.node for p in patches if p.node not in done]
    print(summary(len(labeled), len(patches), not_done))
    if stopped is not None:
        return fail(f"{stopped}; stopped after {len(labeled) + len(failed)} of {len(patches)} nodes")
    if not_done:
        print("hint: fix what the errors above name, then re-run gpuready label --yes", file=sys.stderr)
        return EXIT_INVALID
    return EXIT_OK


def summary(labeled: int, total: int, not_done: list[str]) -> str:
    """``labeled N of M`` and, when some were not, ``; not done: a, b (and K more)``."""
    line = f"labeled {labeled} of {total}"
    if not not_done:
        return line
    named = ", ".join(not_done[:MAX_NAMED])
    more = f" and {len(not_done) - MAX_NAMED} more" if len(not_done) > MAX_NAMED else ""
    return f"{line}; not done: {named}{more}"
