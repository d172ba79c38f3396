"""The benchmarks' own modules (``bench/placement_model.py``, ``bench/placement_replay.py``) import as top-level
modules, as the benchmark scripts import them (``python bench/binpack.py`` puts ``bench/`` first on the path)."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))
