"""The work tree after ``make``: what the Makefile creates stays out of ``git status``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "path", [".uv/bin/uv", ".venv/bin/python", ".venv-lowest/bin/python", ".mypy_cache/x", ".ruff_cache/x"]
)
def test_what_make_creates_is_ignored(path: str) -> None:
    """``make`` on a machine without uv installs it into ``.uv/`` (Makefile); git must not list it."""
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git work tree")
    result = subprocess.run([git, "check-ignore", "-q", path], cwd=ROOT, check=False)
    assert result.returncode == 0, f"{path} is not ignored"
