"""``check`` over a fleet: ``--context`` repeated or ``--all-contexts``, concurrently under one deadline; each
cluster's report under its context, the fleet summary, the context on every finding, and an unreachable cluster
as a finding of its own."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.cli_audit.conftest import GPU_TAINT, L4_POOL_LABELS, Cli, seed_mixed_cluster
from tests.kube_standin import KubeStandin, make_node


@pytest.fixture
def fleet(tmp_path: Path) -> Iterator[Path]:
    """A kubeconfig with three contexts: ``prod`` (mixed nodes), ``dev`` (one clean L4 node), ``gone`` (stopped)."""
    with KubeStandin.start() as prod, KubeStandin.start() as dev:
        seed_mixed_cluster(prod)
        dev.store.add(make_node("clean", instance_type="g6.xlarge", labels=L4_POOL_LABELS, taints=[GPU_TAINT],
                                capacity={"nvidia.com/gpu": "1"}))  # fmt: skip
        with KubeStandin.start() as gone:
            gone_config = gone.kubeconfig("gone")
        merged: dict[str, Any] = {"apiVersion": "v1", "kind": "Config", "clusters": [], "users": [], "contexts": [],
                                  "current-context": "prod"}  # fmt: skip
        for config in (prod.kubeconfig("prod"), dev.kubeconfig("dev"), gone_config):
            for section in ("clusters", "users", "contexts"):
                merged[section].extend(config[section])
        path = tmp_path / "fleet-kubeconfig"
        path.write_text(yaml.safe_dump(merged))
        yield path


def test_all_contexts_json_has_every_cluster_and_the_context_on_every_finding(gpuready: Cli, fleet: Path) -> None:
    result = gpuready("check", "--kubeconfig", str(fleet), "--all-contexts", "-o", "json", kubeconfig=False)
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert [c["context"] for c in data["clusters"]] == ["prod", "dev", "gone"]
    assert data["summary"] == {"clusters": 3, "audited": 2, "unreachable": 1, "gpuNodes": 5,
                               "findings": len(data["findings"])}  # fmt: skip
    assert all("context" in f for f in data["findings"])
    (unreachable,) = [f for f in data["findings"] if f["code"] == "cluster-unreachable"]
    assert unreachable["context"] == "gone" and "kubectl cluster-info" in unreachable["message"]
    assert {f["context"] for f in data["findings"]} == {"prod", "gone"}  # dev is clean


def test_repeated_context_table_and_strict(gpuready: Cli, fleet: Path) -> None:
    result = gpuready("check", "--kubeconfig", str(fleet), "--context", "dev", "--context", "gone", kubeconfig=False)
    assert result.code == 0, result.err
    assert result.out.startswith("== context dev\nNODE")
    assert "== context gone: error cluster-unreachable\ncannot connect to" in result.out
    assert result.out.rstrip().endswith("fleet: 2 clusters (1 audited, 1 unreachable); 1 GPU nodes; 1 findings")
    strict = gpuready("check", "--kubeconfig", str(fleet), "--context", "dev", "--context", "gone", "--strict",
                      kubeconfig=False)  # fmt: skip
    assert strict.code == 1


def test_a_fleet_of_unreachable_clusters_exits_2(gpuready: Cli, fleet: Path) -> None:
    result = gpuready("check", "--kubeconfig", str(fleet), "--context", "gone", "--context", "gone", kubeconfig=False)
    assert result.code == 2  # one context named twice: a single (unreachable) cluster


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["label", "--context", "a", "--context", "b"], "--context: given 2 times; label works on one cluster"),
        (["check", "--all-contexts", "--context", "a"], "--all-contexts: cannot be combined with --context"),
    ],
)
def test_one_cluster_commands_refuse_several_contexts(
    gpuready: Cli, fleet: Path, args: list[str], message: str
) -> None:
    result = gpuready(*args, "--kubeconfig", str(fleet), kubeconfig=False)
    assert result.code == 2
    assert message in result.err


def test_verify_watches_every_context_at_once(gpuready: Cli, fleet: Path) -> None:
    args = ["verify", "-l", "gpuready.io/pool=l4", "--kubeconfig", str(fleet), "--timeout", "2"]
    result = gpuready(*args, "--context", "dev", "--context", "gone", kubeconfig=False)
    assert result.code == 1  # gone never converges
    assert result.out.startswith("context dev: converged\ncontext gone: error cluster-unreachable: cannot connect")
    assert "context dev: nodes converged 1/1" in result.err
    both = json.loads(gpuready(*args, "--all-contexts", "-o", "json", kubeconfig=False).out)
    assert [(c["context"], c["converged"]) for c in both["clusters"]] == [
        ("prod", False), ("dev", True), ("gone", False),
    ]  # fmt: skip
    assert both["summary"]["converged"] == 1
    clean = gpuready(*args, "--context", "dev", "--context", "dev", kubeconfig=False)
    assert clean.code == 0
