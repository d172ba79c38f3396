"""``gpuready support-matrix``: print the cloud x provisioner x image x driver x GPU stack x sharing matrix, or write it
into (or check it against) a Markdown file's generated block."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from components.cli.exit_codes import EXIT_INVALID, EXIT_OK
from components.cli.exit_codes import EXIT_VIOLATIONS as EXIT_STALE
from components.core.gpu_stack.support_matrix import render_markdown, replace_block


def run(args: argparse.Namespace) -> int:
    block = render_markdown()
    target = args.write or args.check
    if target is None:
        print(block)
        return EXIT_OK
    path = Path(target)
    try:
        text = path.read_text(encoding="utf-8")
        updated = replace_block(text, block)
    except (OSError, ValueError) as error:
        print(f"error: {path}: {error}", file=sys.stderr)
        return EXIT_INVALID
    if args.check:
        if updated != text:
            print(f"{path}: the support matrix is stale; run: gpuready support-matrix --write {path}", file=sys.stderr)
            return EXIT_STALE
        return EXIT_OK
    if updated != text:
        path.write_text(updated, encoding="utf-8")
    return EXIT_OK
