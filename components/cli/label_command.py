"""``gpuready label``: add the missing accelerator labels to GPU nodes, one merge PATCH per node, no pods.

Without ``--yes`` nothing is written: ``--dry-run`` shows the plan (exit 0); neither flag shows it and exits 2
with a hint. A rerun after ``--yes`` finds nothing to do. CPU nodes are never touched.
"""

from __future__ import annotations

import argparse
import sys

from components.cli.check_command import EXIT_INVALID, EXIT_OK, fail, open_client
from components.errors import GpuReadyError
from components.gc_pause import paused_gc
from components.verify.labeling import label_plan, unlabelable
from components.verify.nodes import node_view
from components.verify.report import render_label_plan


def run(args: argparse.Namespace) -> int:
    """Show the label plan; apply it with --yes."""
    try:
        with open_client(args) as client:
            with paused_gc():
                views = [node_view(raw) for raw in client.list_nodes(args.selector).items]
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
                return EXIT_INVALID
            for done, patch in enumerate(patches):
                try:
                    client.patch_node_labels(patch.node, patch.labels)
                except GpuReadyError:
                    print(f"stopped: {done} of {len(patches)} nodes were labeled", file=sys.stderr)
                    raise
                print(f"node/{patch.node} labeled")
    except GpuReadyError as error:
        return fail(error)
    print(f"{len(patches)} nodes labeled")
    return EXIT_OK
