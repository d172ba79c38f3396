"""The CLI's start-up path (the parser, ``--version``) loads no cluster client, no Pulumi SDK and no pool model:
they load with the command that needs them, so ``gpuready --version`` or a usage error answers at once."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("lightkube", "httpx2", "pulumi", "pydantic", "gpuready.core.specs", "gpuready.kube.nodes_api")


@pytest.mark.parametrize("module", HEAVY)
def test_building_the_parser_loads_no_heavy_module(module: str) -> None:
    probe = f"import sys; from gpuready.cli.main import build_parser; build_parser(); print({module!r} in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False", done.stderr
