"""kubectl habits against the API stand-in: ``-o yaml`` is the JSON document, ``-o wide`` adds columns,
``--no-headers`` drops the header row, ``verify --config`` finds the project as ``plan --config`` does, and
``verify`` says what it waits for while it waits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.cli_audit.conftest import STACK, Cli, seed_mixed_cluster
from tests.cli_audit.test_verify import OWN_PROJECT, l4_node
from tests.kube_standin import KubeStandin


def test_yaml_is_the_json_document(kube_standin: KubeStandin, gpuready: Cli) -> None:
    seed_mixed_cluster(kube_standin)
    as_json, as_yaml = gpuready("check", "-o", "json"), gpuready("check", "-o", "yaml")
    assert as_json.code == as_yaml.code == 0
    assert yaml.safe_load(as_yaml.out) == json.loads(as_json.out)


def test_wide_adds_instance_type_zone_and_product(kube_standin: KubeStandin, gpuready: Cli) -> None:
    seed_mixed_cluster(kube_standin)
    narrow, wide = gpuready("check"), gpuready("check", "-o", "wide")
    assert narrow.out.splitlines()[0].split() == ["NODE", "POOL", "GPU", "READY", "GPUS", "FINDINGS"]
    header = wide.out.splitlines()[0].split()
    assert header[-3:] == ["INSTANCE-TYPE", "ZONE", "PRODUCT"]
    row = next(line for line in wide.out.splitlines() if line.startswith("gfd-a100"))
    assert row.split()[-1] == "NVIDIA-A100-SXM4-80GB"
    eks = next(line for line in wide.out.splitlines() if line.startswith("eks-p5"))
    assert "p5.48xlarge" in eks.split()


@pytest.mark.parametrize("output", [[], ["-o", "wide"]])
def test_no_headers_drops_only_the_header_row(kube_standin: KubeStandin, gpuready: Cli, output: list[str]) -> None:
    seed_mixed_cluster(kube_standin)
    full, bare = gpuready("check", *output), gpuready("check", *output, "--no-headers")
    assert bare.out.splitlines() == full.out.splitlines()[1:]
    assert not bare.out.startswith("NODE")


def test_verify_config_outside_any_project_uses_the_working_directorys(
    kube_standin: KubeStandin, gpuready: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "myinfra"
    project.mkdir()
    (project / "Pulumi.yaml").write_text(OWN_PROJECT)
    elsewhere = tmp_path / "configs"
    elsewhere.mkdir()
    (elsewhere / "Pulumi.prod.yaml").write_text(STACK)
    kube_standin.store.add(l4_node("l4-a"))
    kube_standin.store.add(l4_node("l4-b"))
    monkeypatch.chdir(project)
    result = gpuready("verify", "--config", str(elsewhere / "Pulumi.prod.yaml"), "--timeout", "10")
    assert result.code == 0, result.err
    monkeypatch.chdir(tmp_path)
    lost = gpuready("verify", "--config", str(elsewhere / "Pulumi.prod.yaml"), "--timeout", "10")
    assert lost.code == 2
    assert "no Pulumi.yaml in" in lost.err and "--project-dir" in lost.err


def test_verify_heartbeat_names_the_pools_and_the_time_left(
    kube_standin: KubeStandin, gpuready: Cli, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("gpuready.cli.heartbeat.HEARTBEAT_SECONDS", 0.2)
    monkeypatch.setattr("gpuready.cli.heartbeat.Heartbeat.__init__.__defaults__", (0.2,))
    kube_standin.store.add(l4_node("l4-a"))  # one of the two l4 nodes: never converges
    result = gpuready("verify", "--stack", "test", "--project-dir", str(project), "--timeout", "1.1")
    assert result.code == 1
    beats = [line for line in result.err.splitlines() if line.startswith("gpuready: waiting: ")]
    assert 1 <= len(beats) <= 6  # at most one per 0.2 s over 1.1 s
    assert "pool l4 1/2, pool spare 0/0 converged (1/2 nodes); " in beats[0]
    assert beats[0].endswith("s left")


def test_label_wide_adds_the_nodes_columns_and_no_headers_drops_the_header(
    kube_standin: KubeStandin, gpuready: Cli
) -> None:
    seed_mixed_cluster(kube_standin)
    narrow, wide = gpuready("label"), gpuready("label", "-o", "wide")
    bare = gpuready("label", "-o", "wide", "--no-headers")
    assert narrow.code == wide.code == bare.code == 0
    assert narrow.out.splitlines()[0].split() == ["NODE", "LABEL", "FROM", "TO", "SOURCE"]
    assert wide.out.splitlines()[0].split()[-3:] == ["INSTANCE-TYPE", "ZONE", "PRODUCT"]
    eks = next(line for line in wide.out.splitlines() if line.startswith("eks-p5"))
    assert "p5.48xlarge" in eks.split()
    assert bare.out.splitlines() == wide.out.splitlines()[1:]
