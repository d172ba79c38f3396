"""Test helper: run a Pulumi project directory's program offline with one of its stack files."""

from __future__ import annotations

from pathlib import Path

from components.offline.capture import CapturedRun
from components.offline.project import load_project
from components.offline.runner import run_program
from components.offline.stack_config import load_stack_config


def run_project(directory: Path, stack: str = "dev") -> CapturedRun:
    """The captured run of ``directory``'s program with ``Pulumi.<stack>.yaml``."""
    project = load_project(directory)
    config = load_stack_config(project, stack)
    return run_program(
        project.program_dir,
        project=project.name,
        stack=stack,
        config=config.values,
        secret_keys=config.secret_keys,
        root_directory=project.program_dir,
    )
