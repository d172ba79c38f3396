"""``gpuready label`` end to end: plan, --dry-run, --yes (one merge PATCH per GPU node), idempotence, kubectl."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.cli_audit.conftest import Cli, seed_mixed_cluster
from tests.kube_standin import KubeStandin

KUBECTL = shutil.which("kubectl")
EXPECTED = {
    "eks-p5": {"gpuready.io/accelerator": "h100", "skypilot.co/accelerator": "h100", "nvidia.com/gpu.present": "true"},
    "gfd-a100": {"gpuready.io/accelerator": "a100-80gb", "skypilot.co/accelerator": "a100-80gb"},
    "gke-l4": {"gpuready.io/accelerator": "l4", "skypilot.co/accelerator": "l4", "nvidia.com/gpu.present": "true"},
}


def test_without_yes_prints_the_plan_changes_nothing_and_exits_0(kube_standin: KubeStandin, gpuready: Cli) -> None:
    seed_mixed_cluster(kube_standin)
    result = gpuready("label")
    assert result.code == 0  # the plan was shown (README exit codes; exit_table)
    assert result.err.strip() == (
        "hint: nothing was changed; re-run with --yes to apply these 3 patches (or --dry-run to only show them)"
    )
    assert "eks-p5     skypilot.co/accelerator   <none>   h100" in result.out
    assert "GPU model unknown (no GFD product, cloud accelerator or catalog instance type): nfd-only" in result.out
    assert kube_standin.requests.count("PATCH") == 0


def test_dry_run_exits_0_and_changes_nothing(kube_standin: KubeStandin, gpuready: Cli) -> None:
    seed_mixed_cluster(kube_standin)
    result = gpuready("label", "--dry-run")
    assert result.code == 0
    assert result.out.rstrip().endswith("3 nodes to patch (8 labels); 1 GPU node with an unknown model")
    assert kube_standin.requests.count("PATCH") == 0


def test_yes_patches_each_gpu_node_once_and_a_rerun_patches_nothing(kube_standin: KubeStandin, gpuready: Cli) -> None:
    seed_mixed_cluster(kube_standin)
    applied = gpuready("label", "--yes")
    assert applied.code == 0, applied.err
    assert applied.out.rstrip().endswith("labeled 3 of 3")
    patches = kube_standin.requests.find("PATCH")
    assert sorted(p.path for p in patches) == ["/api/v1/nodes/eks-p5", "/api/v1/nodes/gfd-a100", "/api/v1/nodes/gke-l4"]
    assert {p.content_type for p in patches} == {"application/merge-patch+json"}
    for name, labels in EXPECTED.items():
        node = kube_standin.store.get("Node", name)
        assert node is not None
        assert {k: node["metadata"]["labels"].get(k) for k in labels} == labels
    for untouched in ("cpu-1", "cpu-2", "nfd-only"):
        node = kube_standin.store.get("Node", untouched)
        assert node is not None and "gpuready.io/accelerator" not in node["metadata"]["labels"]
    assert all(p.json()["metadata"]["resourceVersion"] for p in patches)  # conditioned on what was read
    # Only node reads and node patches: no pods, jobs or other objects.
    assert {(r.method, r.path.rsplit("/", 1)[0] if r.method == "PATCH" else r.path) for r in kube_standin.requests} == {
        ("GET", "/api/v1/nodes"),
        ("PATCH", "/api/v1/nodes"),
    }

    kube_standin.requests.clear()
    rerun = gpuready("label", "--yes")
    assert rerun.code == 0
    assert "nothing to label" in rerun.out
    assert kube_standin.requests.count("PATCH") == 0


def test_selector_limits_the_nodes(kube_standin: KubeStandin, gpuready: Cli) -> None:
    seed_mixed_cluster(kube_standin)
    result = gpuready("label", "--yes", "-l", "kubernetes.io/hostname=gke-l4")
    assert result.code == 0
    assert [p.path for p in kube_standin.requests.find("PATCH")] == ["/api/v1/nodes/gke-l4"]


def test_patch_conflicts_are_retried_and_forbidden_stops_with_exit_2(kube_standin: KubeStandin, gpuready: Cli) -> None:
    seed_mixed_cluster(kube_standin)
    kube_standin.faults.conflict(1)
    assert gpuready("label", "--yes", "-l", "kubernetes.io/hostname=eks-p5").code == 0
    kube_standin.faults.fail(403, 1, method="PATCH", message='nodes "gfd-a100" is forbidden')
    denied = gpuready("label", "--yes")
    assert denied.code == 2
    assert denied.out.rstrip().endswith("labeled 0 of 2; not done: gfd-a100, gke-l4")
    assert "stopped after 0 of 2 nodes" in denied.err
    assert "deploy/rbac/label.yaml" in denied.err


@pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed")
def test_kubectl_sees_the_labels_written_by_gpuready(
    kube_standin: KubeStandin, gpuready: Cli, kubeconfig_path: Path, tmp_path: Path
) -> None:
    seed_mixed_cluster(kube_standin)
    assert gpuready("label", "--yes").code == 0
    assert KUBECTL is not None
    done = subprocess.run(
        [KUBECTL, "--kubeconfig", str(kubeconfig_path), "--cache-dir", str(tmp_path / "cache"),
         "get", "nodes", "-L", "skypilot.co/accelerator"],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.strip().splitlines()]
    assert rows[0] == ["NAME", "STATUS", "ROLES", "AGE", "VERSION", "ACCELERATOR"]
    # Six columns where the label is set; kubectl leaves the cell empty (five fields) where it is not.
    assert {row[0]: row[5] if len(row) == 6 else None for row in rows[1:]} == {
        "cpu-1": None,
        "cpu-2": None,  # its empty skypilot label stays empty: CPU nodes are never touched
        "eks-p5": "h100",
        "gfd-a100": "a100-80gb",
        "gke-l4": "l4",
        "nfd-only": None,
    }
