"""Pause Python's cyclic garbage collector around work that builds many objects and frees none of them.

Large offline plans, policy runs and node audits keep every object they make until they finish, so the
collector only rescans live objects; with it running, a 1,000-pool plan grows faster than linear (shared
testing notes, section 1, "the GC trap") and a 10,000-node audit doubles its CPU time (bench/audit_scale.py).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Disable the cyclic GC inside the block; restore its previous state afterwards."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
