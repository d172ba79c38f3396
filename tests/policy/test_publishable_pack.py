"""Issue #16: the policy pack works as a directory of its own, as ``pulumi policy publish`` uploads it.

A copy of ``policies/gpu_conventions`` outside the repository gets the wheel of ``make policy-pack`` and a
virtualenv holding only what its ``requirements.txt`` installs (no gpuready checkout, no cloud SDK); its process,
started as the engine starts it, must reach the same violations on the example stacks and programs as the pack
in the repository.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuready.offline.analyzer import PACK_DIR, analyze_endpoint, analyze_pack, pack_process
from gpuready.offline.analyzer_requests import configure_request
from tests.offline.projects import run_project

ROOT = Path(__file__).resolve().parents[2]

RUNS = [
    (ROOT, stack)
    for stack in (
        "eks-dev",
        "aks-dev",
        "gke-dev",
        "gke-operator",
        "eks-karpenter",
        "gke-compute-class",
        "aks-nap",
        "eks-dra",
        "aks-dra-operator",
    )
] + [
    (ROOT / "examples" / "wrong_program", "dev"),
    (ROOT / "examples" / "training_job", "dev"),
]


def _uv() -> str:
    found = shutil.which("uv") or str(ROOT / ".uv" / "bin" / "uv")
    assert Path(found).is_file(), "uv not found: run `make install` (it installs uv into .uv/)"
    return found


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory, policy_pack_wheel: Path) -> Iterator[tuple[Path, Path]]:
    """(pack directory copy, its virtualenv's python), outside the repository."""
    home = tmp_path_factory.mktemp("published")
    pack = home / "gpu_conventions"
    shutil.copytree(PACK_DIR, pack, ignore=shutil.ignore_patterns("venv", "wheels", "__pycache__"))
    (pack / "wheels").mkdir()
    shutil.copy2(policy_pack_wheel, pack / "wheels" / policy_pack_wheel.name)  # what `make policy-pack` writes
    env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "PYTHONPATH"}}
    subprocess.run([_uv(), "venv", "--quiet", "--python", sys.executable, str(pack / "venv")], check=True, env=env)
    python = pack / "venv" / "bin" / "python"
    subprocess.run(
        [_uv(), "pip", "install", "--quiet", "--python", str(python), "-r", "requirements.txt"],
        cwd=pack,
        check=True,
        env=env,
    )
    yield pack, python


def test_the_virtualenv_holds_only_what_the_pack_installs(published: tuple[Path, Path]) -> None:
    pack, python = published
    probe = "import importlib.util as u; print(*(bool(u.find_spec(m)) for m in {!r}))"
    absent = ("pulumi_aws", "pulumi_azure_native", "pulumi_gcp", "pulumi_kubernetes", "lightkube", "boto3")
    result = subprocess.run(
        [str(python), "-c", probe.format(absent)], cwd=pack, capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["False"] * len(absent)
    origin = subprocess.run(
        [str(python), "-c", "import gpuready.core, gpuready.policy; print(gpuready.core.__file__)"],
        cwd=pack.parent,
        capture_output=True,
        text=True,
        check=True,
    )
    assert str(pack / "venv") in origin.stdout  # from the wheel, not from a checkout


@pytest.mark.parametrize(("directory", "stack"), RUNS, ids=[s if d == ROOT else d.name for d, s in RUNS])
def test_the_published_pack_reaches_the_same_violations(
    published: tuple[Path, Path], directory: Path, stack: str
) -> None:
    pack, python = published
    run = run_project(directory, stack)
    with pack_process(pack, python=str(python)) as endpoint:
        info = endpoint.info()
        assert info.name == "gpuready-gpu-conventions"
        found = analyze_endpoint(endpoint, run, configure_request(info, None))
    assert found == analyze_pack(run)
    if directory.name == "wrong_program":  # the raw program the gate must fail
        assert any(v.level == "mandatory" for v in found)
