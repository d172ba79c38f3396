"""Fixtures shared by test modules of several packages, each built once per test session (per worker under
pytest-xdist: ``make test`` runs the suite on every core)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import gpuready.plugins  # noqa: F401 - registers the clouds' profiles, as every entry point does

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def policy_pack_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The policy pack's wheel as ``make policy-pack`` builds it (``tools/policy_pack.py``), built once.

    Built in a process of its own, as ``make policy-pack`` does: the builder parses every module with ``ast``, and
    CPython 3.11 leaves ``ast``'s recursion bookkeeping wrong in a process where an earlier test hit a
    ``RecursionError`` (``SystemError: AST constructor recursion depth mismatch``), which the worker may have run.
    """
    out = tmp_path_factory.mktemp("policy-pack-wheel")
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "policy_pack.py"), str(out)],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return Path(done.stdout.strip())
