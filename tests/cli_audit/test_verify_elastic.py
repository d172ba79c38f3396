"""``gpuready verify`` of a stack with an elastic (Karpenter) pool, against the API stand-in: no nodes yet is its own
state (exit 0, said in the table and in JSON); nodes that appear with the pool's label are checked as any pool's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli_audit.conftest import GPU_TAINT, L4_POOL_LABELS, STACK, Cli
from tests.kube_standin import KubeStandin, make_node

ELASTIC_STACK = STACK.split("  gpuready:nodePools: |")[0] + (
    "  gpuready:nodePools: |\n"
    "    - name: l4\n      instanceType: g6.xlarge\n      minSize: 0\n      maxSize: 3\n"
    "    - name: burst\n      provisioner: karpenter\n      instanceType: g6.xlarge\n"
    "      minSize: 0\n      maxSize: 2\n"
)
KARPENTER_LABELS = {"karpenter.sh/nodepool": "burst", "karpenter.k8s.aws/instance-gpu-name": "l4"}


@pytest.fixture
def elastic_project(project: Path) -> Path:
    (project / "stacks" / "Pulumi.test.yaml").write_text(ELASTIC_STACK)
    return project


def burst_node(name: str, **changes: Any) -> dict[str, Any]:
    labels = {**L4_POOL_LABELS, "gpuready.io/pool": "burst", **KARPENTER_LABELS, **changes.pop("labels", {})}
    return make_node(
        name, instance_type="g6.xlarge", labels=labels, taints=changes.pop("taints", [GPU_TAINT]),
        capacity={"nvidia.com/gpu": "1"}, **changes,
    )  # fmt: skip


def test_an_elastic_pool_without_nodes_is_reported_as_such(
    kube_standin: KubeStandin, gpuready: Cli, elastic_project: Path
) -> None:
    kube_standin.store.add(make_node("cpu-1", instance_type="m5.large"))
    args = ("verify", "--stack", "test", "--project-dir", str(elastic_project), "--timeout", "5")
    result = gpuready(*args)
    assert result.code == 0, result.err
    assert result.out.startswith("all 0 nodes converged in ")
    assert result.out.splitlines()[1] == (
        "pool burst: no nodes yet (elastic, karpenter: nodes are made when GPU pods are pending); nothing to check "
        "until one joins"
    )
    as_json = gpuready(*args, "-o", "json")
    assert as_json.code == 0
    report = json.loads(as_json.out)
    assert report["converged"] is True and report["findings"] == []
    idle = {"pool": "burst", "provisioner": "karpenter", "nodes": 0, "status": "no-nodes-yet"}
    assert report["elasticPools"] == [idle]


def test_nodes_that_appear_in_an_elastic_pool_are_checked(
    kube_standin: KubeStandin, gpuready: Cli, elastic_project: Path
) -> None:
    kube_standin.store.add(burst_node("burst-a"))
    kube_standin.store.add(burst_node("burst-b", taints=[]))  # a hand-edited NodePool lost the GPU taint
    args = ("verify", "--stack", "test", "--project-dir", str(elastic_project), "--timeout", "1")
    result = gpuready(*args, "-o", "json")
    assert result.code == 1
    report = json.loads(result.out)
    assert report["elasticPools"] == [{"pool": "burst", "provisioner": "karpenter", "nodes": 2, "status": "has-nodes"}]
    assert [(f["node"], f["code"]) for f in report["findings"]] == [("burst-b", "gpu-taint-missing")]
    assert {n["name"]: n["status"] for n in report["nodes"]} == {"burst-a": "ok", "burst-b": "errors"}
    table = gpuready(*args)
    assert "burst-b: error gpu-taint-missing" in table.out and "no nodes yet" not in table.out
