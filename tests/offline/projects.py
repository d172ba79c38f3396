"""Test helper: run a Pulumi project directory's program offline with one of its stack files."""

from __future__ import annotations

from pathlib import Path

from gpuready.offline.capture import CapturedRun
from gpuready.offline.project import load_project
from gpuready.offline.runner import run_stack


def run_project(directory: Path, stack: str = "dev") -> CapturedRun:
    """The captured run of ``directory``'s program with ``Pulumi.<stack>.yaml``."""
    return run_stack(load_project(directory), stack)
