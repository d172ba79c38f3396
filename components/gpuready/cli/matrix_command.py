"""``gpuready support-matrix``: print the cloud x provisioner x image x driver x GPU stack x sharing matrix, or write it
into (or check it against) a Markdown file's generated block."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gpuready.cli.exit_codes import EXIT_INVALID, EXIT_OK
from gpuready.cli.exit_codes import EXIT_VIOLATIONS as EXIT_STALE
from gpuready.cli.safe_write import write_atomically
from gpuready.core.gpu_stack.support_matrix import render_markdown, replace_block


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
        try:
            write_atomically(path, updated)
        except OSError as error:
            reason = error.strerror or str(error)
            print(f"error: {path}: cannot write the support matrix ({reason}); the file is unchanged. Free some "
                  "space (or fix the cause) and run the command again", file=sys.stderr)  # fmt: skip
            return EXIT_INVALID
    return EXIT_OK
