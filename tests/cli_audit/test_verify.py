"""``gpuready verify`` end to end: WATCH until the stack's pools (or selected nodes) converge, or time out."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli_audit.conftest import GPU_TAINT, L4_POOL_LABELS, STACK, Cli
from tests.kube_standin import KubeStandin, make_node


def l4_node(name: str, **changes: Any) -> dict[str, Any]:
    labels = {**L4_POOL_LABELS, **changes.pop("labels", {})}
    return make_node(
        name, instance_type="g6.xlarge", labels=labels, taints=changes.pop("taints", [GPU_TAINT]),
        capacity=changes.pop("capacity", {"nvidia.com/gpu": "1"}), **changes,
    )  # fmt: skip


def once_watching(kube: KubeStandin, action: Callable[[], object]) -> threading.Thread:
    """Run ``action`` in a thread as soon as the CLI has opened its watch (so the change arrives as an event)."""

    def run() -> None:
        deadline = time.monotonic() + 10
        while not kube.requests.find("GET", "/api/v1/nodes", watch=True) and time.monotonic() < deadline:
            time.sleep(0.01)
        action()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_stack_converges_when_labels_land_while_watching(
    kube_standin: KubeStandin, gpuready: Cli, project: Path
) -> None:
    kube_standin.store.add(l4_node("l4-a"))
    kube_standin.store.add(l4_node("l4-b", labels={"skypilot.co/accelerator": "L4"}))  # wrong case (skypilot#2652)
    kube_standin.store.add(make_node("cpu-1", instance_type="m5.large"))
    thread = once_watching(
        kube_standin, lambda: kube_standin.store.label("Node", "l4-b", {"skypilot.co/accelerator": "l4"})
    )
    result = gpuready("verify", "--stack", "test", "--project-dir", str(project), "--timeout", "10")
    thread.join()
    assert result.code == 0, result.err
    assert result.err.splitlines() == ["nodes converged 1/2", "nodes converged 2/2"]
    assert result.out.startswith("all 2 nodes converged in ")
    lists = kube_standin.requests.find("GET", "/api/v1/nodes", watch=False)
    watches = kube_standin.requests.find("GET", "/api/v1/nodes", watch=True)
    assert len(lists) == 1 and len(watches) == 1
    assert watches[0].param("labelSelector") == lists[0].param("labelSelector") == "gpuready.io/pool in (l4,spare)"


def test_stack_waits_for_missing_nodes_then_reports_findings(
    kube_standin: KubeStandin, gpuready: Cli, project: Path
) -> None:
    kube_standin.store.add(l4_node("l4-a", taints=[]))
    started = time.monotonic()
    result = gpuready("verify", "--stack", "test", "--project-dir", str(project), "--timeout", "1")
    assert 1 <= time.monotonic() - started < 5
    assert result.code == 1
    assert "pool/l4: error pool-nodes-missing" in result.out
    assert "  pool l4: too few nodes; got 1, expected 2" in result.out
    assert "l4-a: error gpu-taint-missing" in result.out
    assert result.err.splitlines()[0] == "nodes converged 0/2"
    assert result.err.splitlines()[-1] == (
        "error: not converged after 1s: 0 of 2 nodes converged; failing: l4-a, pool/l4 "
        "(gpu-taint-missing, pool-nodes-missing). Reproduce: kubectl get nodes -l 'gpuready.io/pool in (l4,spare)' "
        "-L gpuready.io/pool -L nvidia.com/gpu.present -L gpuready.io/accelerator"
    )


def test_selector_mode_converges_when_gpus_get_advertised(kube_standin: KubeStandin, gpuready: Cli) -> None:
    kube_standin.store.add(l4_node("l4-a", capacity={}))

    def advertise(node: dict[str, Any]) -> None:
        node["status"]["capacity"]["nvidia.com/gpu"] = "1"
        node["status"]["allocatable"]["nvidia.com/gpu"] = "1"

    thread = once_watching(kube_standin, lambda: kube_standin.store.modify("Node", "l4-a", advertise))
    result = gpuready("verify", "-l", "gpuready.io/pool=l4", "--timeout", "10")
    thread.join()
    assert result.code == 0, result.err
    assert result.err.splitlines() == ["nodes converged 0/1", "nodes converged 1/1"]


def test_selector_mode_with_no_matching_node_times_out(kube_standin: KubeStandin, gpuready: Cli) -> None:
    kube_standin.store.add(make_node("cpu-1", instance_type="m5.large"))
    result = gpuready("verify", "-l", "gpuready.io/pool=none", "--timeout", "0.5", "-o", "json")
    assert result.code == 1
    assert '"converged": false' in result.out
    assert "0 of 0 nodes converged" in result.err


@pytest.mark.parametrize(
    ("stack_text", "args", "message"),
    [
        (None, ("--stack", "nope"), "error: stack 'nope' has no config file"),
        (
            STACK.replace("g6e.xlarge", "g6e.huge"),
            ("--stack", "test"),
            "error: invalid gpuready config:\ngpuready:nodePools[1].instanceType: not a GPU instance type gpuready "
            "knows on eks; got 'g6e.huge'",
        ),
        (
            STACK,
            ("--stack", "test", "--timeout", "-1"),
            "error: --timeout: must be more than 0 seconds, e.g. 60; got -1",
        ),
    ],
    ids=["unknown-stack", "invalid-pools", "negative-timeout"],
)
def test_bad_stack_input_exits_2(
    gpuready: Cli, project: Path, stack_text: str | None, args: tuple[str, ...], message: str
) -> None:
    if stack_text is not None:
        (project / "stacks" / "Pulumi.test.yaml").write_text(stack_text)
    result = gpuready("verify", *args, "--project-dir", str(project))
    assert result.code == 2
    assert result.err.startswith(message)


OWN_PROJECT = """\
name: myinfra
runtime:
  name: python
description: a program of one's own, with gpuready pools configured under gpuready:*
config:
  myinfra:owner:
    type: string
    default: platform-team
"""


@pytest.fixture
def own_program(tmp_path: Path) -> Path:
    """Another program's project (not gpuready's Pulumi.yaml) and its stack file ``Pulumi.prod.yaml``."""
    root = tmp_path / "myinfra"
    root.mkdir()
    (root / "Pulumi.yaml").write_text(OWN_PROJECT)
    (root / "Pulumi.prod.yaml").write_text(STACK)
    return root / "Pulumi.prod.yaml"


def test_config_file_of_any_program_is_verified_like_a_stack(
    kube_standin: KubeStandin, gpuready: Cli, own_program: Path
) -> None:
    kube_standin.store.add(l4_node("l4-a"))
    kube_standin.store.add(l4_node("l4-b"))
    result = gpuready("verify", "--config", str(own_program), "--timeout", "10")  # project found beside the file
    assert result.code == 0, result.err
    assert result.out.startswith("all 2 nodes converged in ")
    watches = kube_standin.requests.find("GET", "/api/v1/nodes", watch=True)
    lists = kube_standin.requests.find("GET", "/api/v1/nodes", watch=False)
    assert lists[0].param("labelSelector") == "gpuready.io/pool in (l4,spare)"
    assert not watches  # converged on the first list


def test_config_file_expectations_come_from_its_pools(
    kube_standin: KubeStandin, gpuready: Cli, own_program: Path
) -> None:
    own_program.write_text(STACK.replace("desiredSize: 2", "desiredSize: 3"))
    kube_standin.store.add(l4_node("l4-a", labels={"skypilot.co/accelerator": "L4"}))
    result = gpuready("verify", "--config", str(own_program), "--timeout", "1", "-o", "json")
    assert result.code == 1
    assert '"missingNodes": 2' in result.out and '"accelerator-label-wrong"' in result.out


@pytest.mark.parametrize(
    "case",
    [
        ("Pulumi.gone.yaml", None, "error: --config: file not found; got '"),
        ("Pulumi.yaml", OWN_PROJECT, "is a Pulumi project file (it has 'runtime:'), not a stack config file"),
        ("values.yaml", "driver:\n  enabled: false\n", "is not a Pulumi stack config file: it holds a mapping without"),
        ("Pulumi.list.yaml", "- a\n- b\n", "is not a Pulumi stack config file: it holds a list"),
        ("Pulumi.bad.yaml", "config: [\n", "invalid YAML at line"),
        ("Pulumi.typo.yaml", STACK.replace("gpuready:clusterName", "gpuready:clustername"),
         "gpuready:clustername: unknown key. Allowed: "),
        ("Pulumi.other.yaml", "config:\n  aws:region: us-east-1\n", "has no gpuready:* settings, so no GPU pools"),
    ],
    ids=["missing", "project-file", "not-a-stack-file", "a-list", "bad-yaml", "unknown-key", "no-gpuready-keys"],
)  # fmt: skip
def test_bad_config_file_exits_2_before_any_request(
    kube_standin: KubeStandin, gpuready: Cli, own_program: Path, case: tuple[str, str | None, str]
) -> None:
    name, text, message = case
    path = own_program.parent / name
    if text is not None:
        path.write_text(text)
    result = gpuready("verify", "--config", str(path))
    assert result.code == 2, result.out
    assert result.err.startswith("error: ") and message in result.err
    assert result.out == "" and kube_standin.requests.records == []


def test_config_and_stack_are_exclusive(gpuready: Cli, own_program: Path) -> None:
    with pytest.raises(SystemExit) as exited:
        gpuready("verify", "--config", str(own_program), "--stack", "test")
    assert exited.value.code == 2


def test_bad_input_with_json_output_prints_the_error_object(gpuready: Cli, project: Path) -> None:
    result = gpuready("verify", "--stack", "nope", "--project-dir", str(project), "-o", "json")
    assert result.code == 2
    error = json.loads(result.out)["error"]
    assert error["kind"] == "invalid-input"
    assert error["message"].startswith("stack 'nope' has no config file")
