"""What an EKS plan loads of the AWS SDK: ``pulumi_aws.ec2`` (183 modules, about 0.3 s) only for a pool that makes a
launch template, placement group or security group (Capacity Blocks, reservations, EFA).

The Pulumi SDK evaluates a component class's annotations when the component registers its outputs
(``pulumi/_types.py`` ``resource_types``), so an ``aws.ec2`` type named on a component class loads the whole package
for every plan; the components declare those attributes on the instance instead."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import contextlib, io, sys\n"
    "from gpuready.cli.main import main\n"
    "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
    "    code = main(['plan', '--stack', sys.argv[1], '--project-dir', '.'])\n"
    "print(code, 'pulumi_aws.ec2.launch_template' in sys.modules)\n"
)


@pytest.mark.parametrize(
    ("stack", "loads_ec2"),
    [("eks-dev", False), ("eks-karpenter", False), ("eks-efa", True), ("eks-capacity", True)],
)
def test_an_eks_plan_loads_the_ec2_sdk_only_for_pools_that_use_it(stack: str, loads_ec2: bool) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, stack], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", str(loads_ec2)]
