"""SIGTERM and SIGINT against the real console-script entry (a child process) talking to the stand-in: the PATCH in
flight finishes and is reported, the run stops with its summary, and the exit code is 143 or 130, never a silent
-15 or a traceback."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli_audit.conftest import ROOT, STACK, seed_mixed_cluster
from tests.kube_standin import KubeStandin

ENTRY = "from gpuready.cli.main import entry; entry()"


def start(kubeconfig: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", ENTRY, *args, "--kubeconfig", str(kubeconfig)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def wait_for(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the child never got there"
        time.sleep(0.02)


def labelled(kube: KubeStandin) -> list[str]:
    nodes = kube.store.objects("Node")
    return sorted(n["metadata"]["name"] for n in nodes if "gpuready.io/accelerator" in n["metadata"]["labels"])


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_mid_patch_lets_it_land_reports_it_and_stops_with_the_summary(
    kube_standin: KubeStandin, kubeconfig_path: Path, signum: int, code: int
) -> None:
    seed_mixed_cluster(kube_standin)
    kube_standin.faults.delay(1.5, 1, method="PATCH")  # the first PATCH is in flight for 1.5 s
    child = start(kubeconfig_path, "label", "--yes")
    wait_for(lambda: kube_standin.requests.count("PATCH") >= 1)
    child.send_signal(signum)
    out, err = child.communicate(timeout=60)
    assert child.returncode == code, err  # was -15 (SIGTERM: killed silently)
    assert "Traceback" not in err
    applied = labelled(kube_standin)
    assert applied == ["eks-p5"]  # only the PATCH in flight landed
    assert "node/eks-p5 labeled" in out  # ... and it is reported (was: 4 applied, 3 reported)
    assert out.rstrip().endswith("labeled 1 of 3; not done: gfd-a100, gke-l4")
    assert f"interrupted by {signal.Signals(signum).name}; stopped after 1 of 3 nodes" in err
    assert kube_standin.requests.count("PATCH") == 1


def test_sigterm_while_verify_waits_prints_the_findings_so_far(
    kube_standin: KubeStandin, kubeconfig_path: Path, tmp_path: Path
) -> None:
    (tmp_path / "stacks").mkdir()
    (tmp_path / "Pulumi.yaml").write_text((ROOT / "Pulumi.yaml").read_text())
    (tmp_path / "stacks" / "Pulumi.test.yaml").write_text(STACK)
    child = start(kubeconfig_path, "verify", "--stack", "test", "--project-dir", str(tmp_path), "--timeout", "60")
    wait_for(lambda: len(kube_standin.requests.find("GET", "/api/v1/nodes", watch=True)) >= 1)
    child.send_signal(signal.SIGTERM)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 143, err
    assert "Traceback" not in err
    assert "pool l4: too few nodes; got 0, expected 2" in out  # the findings so far, as at the deadline
    assert "interrupted by SIGTERM before convergence (0 of 2 nodes converged)" in err
