"""Run ``gpuready`` in-process against the Kubernetes API stand-in, and seed realistic GPU and CPU nodes."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

import pytest

from gpuready.cli.main import main
from tests.kube_standin import KubeStandin, make_node
from tests.kube_standin.conftest import kube_standin, kubeconfig_path

__all__ = ["kube_standin", "kubeconfig_path"]

GPU_TAINT = "nvidia.com/gpu=present:NoSchedule"
L4_POOL_LABELS = {
    "gpuready.io/pool": "l4",
    "gpuready.io/gpu-pool": "true",
    "nvidia.com/gpu.present": "true",
    "gpuready.io/accelerator": "l4",
    "skypilot.co/accelerator": "l4",
    "gpuready.io/sharing": "none",
}
"""What a node of the test stack's ``l4`` pool (g6.xlarge, no sharing) carries."""


ROOT = Path(__file__).resolve().parents[2]
STACK_HEADER = """\
config:
  aws:region: us-east-1
  gpuready:cloud: eks
  gpuready:clusterName: test
  gpuready:eksNodeRoleArn: arn:aws:iam::123456789012:role/test-gpu-nodes
  gpuready:eksSubnetIds:
    - subnet-0a1b2c3d4e5f60718
  gpuready:gpuStack: external
  gpuready:nodePools: |
"""
"""The EKS test stack's settings up to its pools (each test stack appends its pool list, indented 4)."""


def eks_stack(pools: str) -> str:
    """A test stack file on EKS with ``pools`` (YAML list lines, indented 4) as its ``gpuready:nodePools``."""
    return STACK_HEADER + pools


STACK = eks_stack("""\
    - name: l4
      instanceType: g6.xlarge
      minSize: 0
      maxSize: 3
      desiredSize: 2
    - name: spare
      instanceType: g6e.xlarge
      minSize: 0
      maxSize: 2
""")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A Pulumi project dir with the real Pulumi.yaml and a test stack (pools ``l4``: 2 nodes, ``spare``: 0)."""
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    (tmp_path / "stacks" / "Pulumi.test.yaml").write_text(STACK)
    return tmp_path


@dataclass
class Result:
    code: int
    out: str
    err: str


Cli = Callable[..., Result]


@pytest.fixture
def gpuready(kubeconfig_path: Path) -> Cli:
    """``gpuready(*args)`` runs the CLI with ``--kubeconfig`` pointing at the stand-in."""

    def run(*args: str, kubeconfig: bool = True) -> Result:
        out, err = StringIO(), StringIO()
        argv = [*args, "--kubeconfig", str(kubeconfig_path)] if kubeconfig else list(args)
        with redirect_stdout(out), redirect_stderr(err):
            code = main(argv)
        return Result(code, out.getvalue(), err.getvalue())

    return run


def seed_mixed_cluster(kube: KubeStandin) -> None:
    """Two CPU nodes and four GPU nodes that gpuready did not create, labeled by four different sources."""
    kube.store.add(make_node("cpu-1", instance_type="m5.xlarge"))
    kube.store.add(make_node("cpu-2", instance_type="m5.xlarge", labels={"skypilot.co/accelerator": ""}))
    kube.store.add(make_node(
        "eks-p5", instance_type="p5.48xlarge", capacity={"nvidia.com/gpu": "8"},
        labels={"eks.amazonaws.com/nodegroup": "h100"},
    ))  # fmt: skip
    kube.store.add(make_node(
        "gfd-a100", capacity={"nvidia.com/gpu": "8"}, taints=[GPU_TAINT],
        labels={"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB", "nvidia.com/gpu.present": "true"},
    ))  # fmt: skip
    kube.store.add(make_node(
        "gke-l4", instance_type="g2-standard-8", taints=[GPU_TAINT],
        labels={"cloud.google.com/gke-accelerator": "nvidia-l4"},
    ))  # fmt: skip
    kube.store.add(make_node(
        "nfd-only", capacity={"nvidia.com/gpu": "1"},
        labels={"feature.node.kubernetes.io/pci-10de.present": "true"},
    ))  # fmt: skip
