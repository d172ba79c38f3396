"""A valid stack config is read without pydantic (issue #32): after ``gpuready plan --stack X`` (which runs the
stack program under the offline runner) and after reading the stack's settings as ``gpuready verify --stack``
does, ``pydantic`` is not loaded and the fast path (``config_model.fast``) refused nothing.

One fresh process plans every example stack in turn (a process per stack costs a minute of the suite on two
cores); what each stack loaded is taken after it, so a stack that loads pydantic is the one named.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_STACKS = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in ROOT.glob("stacks/Pulumi.*.yaml"))

SCRIPT = """
import contextlib, io, json, sys
from pathlib import Path

import gpuready.plugins  # noqa: F401 - as the CLI does
from gpuready.cli.main import main
from gpuready.cli.verify_stack import _view
from gpuready.core.config_model import fast
from gpuready.offline.project import load_project

def loaded():
    return sorted(m for m in sys.modules if m.split(".")[0] in ("pydantic", "pydantic_core"))

root = sys.argv[1]
for stack in sys.argv[2:]:
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(["plan", "--stack", stack, "--project-dir", root])
    after_plan = loaded()
    pools = len(_view(load_project(Path(root)), stack, None).pools)
    print(json.dumps({"stack": stack, "code": code, "plan": after_plan, "verify": loaded(), "pools": pools,
                      "fallbacks": list(fast.fallbacks)}))
"""


@pytest.fixture(scope="module")
def runs() -> dict[str, dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ROOT), *EXAMPLE_STACKS], cwd=ROOT, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    found = [json.loads(line) for line in done.stdout.splitlines() if line.startswith('{"stack"')]
    return {run["stack"]: run for run in found}


@pytest.mark.parametrize("stack", EXAMPLE_STACKS)
def test_a_valid_stack_plans_and_reads_without_pydantic(runs: dict[str, dict[str, Any]], stack: str) -> None:
    found = runs[stack]
    assert found["code"] == 0
    assert found["fallbacks"] == [], f"the fast path refused {found['fallbacks']}"
    assert found["plan"] == [], f"gpuready plan --stack {stack} loaded {found['plan'][:5]}"
    assert found["verify"] == [], f"verify's settings read loaded {found['verify'][:5]}"
    assert found["pools"] > 0
