"""``ast.parse`` for the tests that read the project's own source, safe from CPython 3.11's AST bookkeeping bug.

A Pulumi program that fails leaves futures whose exception nobody retrieved; asyncio logs them when they are
collected, and Python 3.11 formats that traceback with ``ast.parse``. When the collection runs inside another
``ast.parse`` (a later test on the same xdist worker), the nested parse breaks CPython's recursion bookkeeping
("SystemError: AST constructor recursion depth mismatch", CPython gh-106905, fixed in 3.11.8).
``tests.pulumi_mocks.failing_program`` collects after each failing program, but a future the event loop still
holds outlives it; so every parse here keeps the collector off while it runs (such garbage is then collected, and
logged, outside any parse; collecting before each parse would cost a full collection per file).
"""

from __future__ import annotations

import ast
import gc


def parse(source: str) -> ast.Module:
    """``ast.parse(source)`` with the collector off during the parse."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(source)
    finally:
        if enabled:
            gc.enable()
