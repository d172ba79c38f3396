"""``gpuready check`` end to end against the stand-in."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_audit.conftest import GPU_TAINT, L4_POOL_LABELS, Cli, seed_mixed_cluster
from tests.kube_standin import KubeStandin, make_node

ROOT = Path(__file__).resolve().parents[2]


def test_check_lists_every_gpu_node_with_findings_and_fixes(kube_standin: KubeStandin, gpuready: Cli) -> None:
    seed_mixed_cluster(kube_standin)
    result = gpuready("check")
    assert result.code == 0, result.err
    rows = {line.split()[0]: line.split() for line in result.out.split("\n\n")[0].splitlines()[1:]}
    assert sorted(rows) == ["eks-p5", "gfd-a100", "gke-l4", "nfd-only"]  # unlabeled ones included, CPU excluded
    assert rows["eks-p5"][2] == "h100" and rows["gfd-a100"][2] == "a100-80gb" and rows["gke-l4"][2] == "l4"
    assert rows["nfd-only"][2] == "?"
    assert "eks-p5: warning gpu-taint-missing" in result.out
    assert "fix:   declare the taint on the node pool so new nodes get it; for this node now: " \
        "kubectl taint node eks-p5 nvidia.com/gpu=present:NoSchedule" in result.out  # fmt: skip
    assert "gke-l4: error gpus-not-advertised" in result.out
    assert result.out.rstrip().endswith(
        "4 GPU nodes (0 ok, 3 with warnings, 1 with errors), 2 other nodes; 13 findings (1 error, 12 warnings)"
    )
    assert kube_standin.requests.count("GET", "/api/v1/nodes") == 1
    assert kube_standin.requests.count("PATCH") == 0


def test_strict_exits_1_on_findings_and_0_when_clean(kube_standin: KubeStandin, gpuready: Cli) -> None:
    kube_standin.store.add(make_node("clean", instance_type="g6.xlarge", labels=L4_POOL_LABELS, taints=[GPU_TAINT],
                                     capacity={"nvidia.com/gpu": "1"}))  # fmt: skip
    assert gpuready("check", "--strict").code == 0
    kube_standin.store.add(make_node("untainted", instance_type="g6.xlarge", capacity={"nvidia.com/gpu": "1"}))
    assert gpuready("check").code == 0
    assert gpuready("check", "--strict").code == 1
    assert gpuready("check", "--strict", "-l", "kubernetes.io/hostname=clean").code == 0


def test_json_output_and_selector(kube_standin: KubeStandin, gpuready: Cli) -> None:
    seed_mixed_cluster(kube_standin)
    result = gpuready("check", "-o", "json", "-l", "nvidia.com/gpu.present=true")
    assert result.code == 0
    data = json.loads(result.out)
    assert [n["name"] for n in data["nodes"]] == ["gfd-a100"]
    assert data["nodes"][0]["acceleratorSource"] == "gfd-product"
    assert {f["code"] for f in data["findings"]} == {"accelerator-label-missing"}
    assert kube_standin.requests.records[-1].param("labelSelector") == "nvidia.com/gpu.present=true"


def test_no_gpu_nodes(kube_standin: KubeStandin, gpuready: Cli) -> None:
    kube_standin.store.add(make_node("cpu-1", instance_type="m5.large"))
    result = gpuready("check", "--strict")
    assert (result.code, result.out.strip()) == (0, "no GPU nodes among 1 nodes")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("check", "-l", "pool in (gpu"), "error: list nodes: 400 BadRequest"),
        (("check", "--context", "elsewhere"), "error: --context: unknown context; got 'elsewhere'. Known: standin"),
    ],
    ids=["bad-selector", "unknown-context"],
)
def test_bad_input_exits_2(gpuready: Cli, args: tuple[str, ...], message: str) -> None:
    result = gpuready(*args)
    assert result.code == 2
    assert result.err.startswith(message)


def test_missing_kubeconfig_and_unreachable_cluster_exit_2(gpuready: Cli, tmp_path: Path) -> None:
    missing = gpuready("check", "--kubeconfig", str(tmp_path / "none"), kubeconfig=False)
    assert (missing.code, missing.err.strip()) == (2, f"error: --kubeconfig: file not found; got '{tmp_path / 'none'}'")
    with KubeStandin.start() as gone:
        config = gone.write_kubeconfig(tmp_path / "gone")
    unreachable = gpuready("check", "--kubeconfig", str(config), kubeconfig=False)
    assert unreachable.code == 2
    assert unreachable.err.startswith("error: cannot connect to http://127.0.0.1:")
    assert f"Next: run kubectl cluster-info --kubeconfig {config} (same kubeconfig and context); is the address" in (
        unreachable.err
    )
    assert "VPN or bastion" in unreachable.err and "gcloud container clusters get-credentials" in unreachable.err


def test_forbidden_exits_2_pointing_at_rbac(kube_standin: KubeStandin, gpuready: Cli) -> None:
    kube_standin.faults.fail(403, 3, message='nodes is forbidden: User "dev" cannot list resource "nodes"')
    result = gpuready("check")
    assert result.code == 2
    assert "'list' on 'nodes'" in result.err and "deploy/rbac/check.yaml" in result.err
    assert result.err.rstrip().endswith("kubectl auth can-i list nodes")


@pytest.mark.parametrize(("case", "kind"), [("missing-kubeconfig", "invalid-input"), ("forbidden", "cluster-error")])
def test_json_output_reports_errors_as_the_contracts_error_object(
    case: str, kind: str, kube_standin: KubeStandin, gpuready: Cli, tmp_path: Path
) -> None:
    if case == "missing-kubeconfig":
        result = gpuready("check", "-o", "json", "--kubeconfig", str(tmp_path / "none"), kubeconfig=False)
    else:
        kube_standin.faults.fail(403, 3, message='nodes is forbidden: User "dev" cannot list resource "nodes"')
        result = gpuready("check", "-o", "json")
    assert result.code == 2
    error = json.loads(result.out)["error"]  # stdout holds the error object and nothing else
    assert error["kind"] == kind
    assert error["message"] and result.err.startswith("error: ")
    assert isinstance(error["problems"], list)


def test_cluster_commands_start_without_pulumi() -> None:
    code = (
        "import sys; import gpuready.plugins; "
        "from gpuready.cli import main, check_command, label_command, verify_command; "
        "main.build_parser(); "
        "print(sorted(m for m in sys.modules if m == 'pulumi' or m.startswith(('pulumi.', 'pulumi_'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def _seed_sharing_nodes(kube: KubeStandin) -> None:
    """A time-slicing pool of another stack (one node applied its config, one did not), and a plain node."""
    shared = {**L4_POOL_LABELS, "gpuready.io/pool": "ts", "gpuready.io/sharing": "time-slicing",
              "nvidia.com/device-plugin.config": "time-slicing-x4"}  # fmt: skip
    kube.store.add(make_node("ts-applied", instance_type="g6.xlarge", labels=shared, taints=[GPU_TAINT],
                             capacity={"nvidia.com/gpu": "4"}))  # fmt: skip
    kube.store.add(make_node("ts-unapplied", instance_type="g6.xlarge", labels=shared, taints=[GPU_TAINT],
                             capacity={"nvidia.com/gpu": "1"}))  # fmt: skip
    kube.store.add(make_node("untainted", instance_type="g6.xlarge", labels=L4_POOL_LABELS,
                             capacity={"nvidia.com/gpu": "1"}))  # fmt: skip


def test_check_without_a_stack_reads_the_nodes_own_sharing_labels(kube_standin: KubeStandin, gpuready: Cli) -> None:
    _seed_sharing_nodes(kube_standin)
    result = gpuready("check")
    assert result.code == 0, result.err
    rows = {line.split()[0]: line.split() for line in result.out.split("\n\n")[0].splitlines()[1:]}
    # the POOL column shows each node's gpuready.io/pool label; the unapplied config is an error, not "ok"
    assert rows["ts-applied"] == ["ts-applied", "ts", "l4", "yes", "4/4", "ok"]
    assert rows["ts-unapplied"] == ["ts-unapplied", "ts", "l4", "yes", "1/4", "1", "error"]
    assert rows["untainted"] == ["untainted", "l4", "l4", "yes", "1/1", "1", "warning"]
    assert "ts-unapplied: error sharing-not-applied" in result.out
    assert "the node's labels ask for it (nvidia.com/device-plugin.config=time-slicing-x4, " in result.out
    assert result.out.rstrip().endswith(
        "3 GPU nodes (1 ok, 1 with warnings, 1 with errors), 0 other nodes; 2 findings (1 error, 1 warning)"
    )
    assert gpuready("check", "--strict").code == 1


def test_check_json_counts_nodes_with_warnings_apart(kube_standin: KubeStandin, gpuready: Cli) -> None:
    _seed_sharing_nodes(kube_standin)
    data = json.loads(gpuready("check", "-o", "json").out)
    summary = data["summary"]
    assert (summary["ok"], summary["withWarnings"], summary["withErrors"]) == (1, 1, 1)
    assert summary["converged"] == 2  # warnings never block convergence
    nodes = {n["name"]: (n["pool"], n["status"], n["expected"]) for n in data["nodes"]}
    assert nodes == {
        "ts-applied": ("ts", "ok", {"nvidia.com/gpu": 4}),
        "ts-unapplied": ("ts", "errors", {"nvidia.com/gpu": 4}),
        "untainted": ("l4", "warnings", {"nvidia.com/gpu": 1}),
    }
    (finding,) = [x for x in data["findings"] if x["node"] == "ts-unapplied"]
    assert finding["code"] == "sharing-not-applied"


def test_check_explains_a_mislabeled_accelerator(kube_standin: KubeStandin, gpuready: Cli) -> None:
    kube_standin.store.add(make_node(
        "gke-edited", instance_type="g2-standard-8", taints=[GPU_TAINT], capacity={"nvidia.com/gpu": "1"},
        labels={"cloud.google.com/gke-accelerator": "nvidia-tesla-t4", "gpuready.io/accelerator": "t4"},
    ))  # fmt: skip
    result = gpuready("check")
    assert result.code == 0, result.err
    assert "gke-edited: warning accelerator-label-conflict" in result.out
    assert "got 'nvidia-tesla-t4' (T4), instance type g2-standard-8 has L4" in result.out
    assert "fix:   kubectl label node gke-edited cloud.google.com/gke-accelerator=nvidia-l4 --overwrite" in result.out
    assert (
        "cause: mislabeled: gpuready.io/accelerator=t4 names T4, but instance type g2-standard-8 has L4" in result.out
    )
    assert "nobody labeled" not in result.out.split("gke-edited: warning accelerator-label-wrong")[1].split("\n\n")[0]
