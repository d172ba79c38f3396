"""The wheel installs one top-level package, ``gpuready``, and the checkout imports it from ``components/``.

A program of one's own may have a ``components/`` or ``policies/`` package of its own (a common layout); gpuready
must not shadow it nor be shadowed by it, so nothing but ``gpuready`` (and its ``.dist-info``) goes to the top
level of site-packages. The wheel is built in-process with the project's own build backend (hatchling).
"""

from __future__ import annotations

import tomllib
import zipfile
from pathlib import Path

import pytest
from hatchling.builders.wheel import WheelBuilder

import gpuready

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    built = list(WheelBuilder(str(ROOT)).build(directory=str(tmp_path_factory.mktemp("wheel")), versions=["standard"]))
    assert len(built) == 1
    return zipfile.ZipFile(built[0])


def test_the_wheel_installs_gpuready_and_nothing_else_at_top_level(wheel: zipfile.ZipFile) -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert {name.split("/")[0] for name in wheel.namelist()} == {"gpuready", f"gpuready-{version}.dist-info"}


def test_the_wheel_carries_the_policy_rules_and_the_cli_entry_point(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    assert {"gpuready/__init__.py", "gpuready/policy/policies.py", "gpuready/cli/main.py", "gpuready/py.typed"} <= names
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "gpuready = gpuready.cli.main:entry" in wheel.read(entry_points).decode()


def test_the_checkout_imports_gpuready_from_its_source_root() -> None:
    assert Path(gpuready.__file__).resolve().parent == ROOT / "components" / "gpuready"


def test_the_wheel_carries_the_stack_program_and_the_config_block_new_projects_use(wheel: zipfile.ZipFile) -> None:
    """A project ``gpuready new`` writes runs ``gpuready.stack_program`` and gets its ``config:`` block from the
    package's data file: both must be in the wheel, not only in the checkout."""
    names = set(wheel.namelist())
    assert {
        "gpuready/stack_program/__init__.py", "gpuready/stack_program/program.py", "gpuready/stack_program/config.py",
        "gpuready/new_project/project_config.yaml", "gpuready/new_project/scaffold.py",
    } <= names  # fmt: skip
