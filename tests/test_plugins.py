"""``gpuready.plugins`` registers every cloud's profile once, and every entry point imports it before it asks the
core's registry anything (each in a fresh process, where nothing else has registered the clouds)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from gpuready.core.clouds.registry import cloud_names, cloud_profiles
from tests.ast_source import parse

ROOT = Path(__file__).resolve().parents[1]
_REGISTERED = "from gpuready.core.clouds.registry import REGISTRY; print([p.name for p in REGISTRY.profiles()])"


def test_every_cloud_is_registered_once_in_order() -> None:
    assert [p.name for p in cloud_profiles()] == list(cloud_names())


def test_shell_completion_registers_nothing() -> None:
    """``eval "$(gpuready completion bash)"`` runs at every shell start: it loads no cloud profile."""
    code = (
        "import sys; from gpuready.cli.main import main; main(['completion', 'bash']); "
        "print('gpuready.plugins' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("False")


@pytest.mark.parametrize(
    "entry",
    [
        "import gpuready.stack_program",  # the stack program (stacks/__main__.py, gpuready new's projects)
        "import gpuready.package.provider",  # the component package's provider process
        "import gpuready.package.schema",  # make schema
        "import gpuready; gpuready.public_names.exports()",  # the facade's public names
        "from gpuready.cli.main import main; main(['support-matrix'])",  # the CLI, once a command runs
    ],
)
def test_an_entry_point_registers_the_clouds_in_a_fresh_process(entry: str) -> None:
    code = f"import contextlib, io\nwith contextlib.redirect_stdout(io.StringIO()):\n    {entry}\n{_REGISTERED}"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(list(cloud_names()))


@pytest.mark.parametrize(
    "path",
    [
        "policies/gpu_conventions/__main__.py",  # serves the policy pack (never returns: read, not run)
        "components/gpuready/verify_hook/provider.py",  # the verification hook's provider process
        "tests/conftest.py",
    ],
)
def test_an_entry_point_that_cannot_run_here_imports_the_registration(path: str) -> None:
    imported = {
        alias.name
        for node in ast.walk(parse((ROOT / path).read_text(encoding="utf-8")))
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert "gpuready.plugins" in imported
