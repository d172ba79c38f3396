"""Contract: kubectl 1.32 (a subprocess per command) against the stand-in."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from .objects import make_node
from .server import KubeStandin

KUBECTL = shutil.which("kubectl")
pytestmark = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed")

Kubectl = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def kubectl(kube_standin: KubeStandin, kubeconfig_path: Path, tmp_path: Path) -> Kubectl:
    for name, pool, role in [
        ("cpu-0", "cpu", "control-plane"),
        ("gpu-a", "a", ""),
        ("gpu-b", "b", ""),
        ("gpu-c", "c", ""),
    ]:
        labels = {"pool": pool}
        if role:
            labels[f"node-role.kubernetes.io/{role}"] = ""
        kube_standin.store.add(make_node(name, labels=labels, ready=name != "gpu-c", kubelet_version="v1.32.3"))

    def run(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        assert KUBECTL is not None
        cmd = [KUBECTL, "--kubeconfig", str(kubeconfig_path), "--cache-dir", str(tmp_path / "cache"), *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)
        if ok:
            assert done.returncode == 0, done.stderr
        return done

    return run


def _table(text: str) -> list[list[str]]:
    return [line.split() for line in text.strip().splitlines()]


def test_get_nodes_prints_the_server_side_table(kubectl: Kubectl, kube_standin: KubeStandin) -> None:
    rows = _table(kubectl("get", "nodes").stdout)
    assert rows[0] == ["NAME", "STATUS", "ROLES", "AGE", "VERSION"]
    assert [r[0] for r in rows[1:]] == ["cpu-0", "gpu-a", "gpu-b", "gpu-c"]
    assert rows[1][1:3] == ["Ready", "control-plane"]
    assert rows[4][1:3] == ["NotReady", "<none>"]
    assert {r[4] for r in rows[1:]} == {"v1.32.3"}
    table_request = kube_standin.requests.find("GET", "/api/v1/nodes")[-1]
    assert "as=Table" in (table_request.accept or "")

    selected = _table(kubectl("get", "nodes", "-l", "pool=b").stdout)[1:]
    assert [[name, status, roles, version] for name, status, roles, _age, version in selected] == [
        ["gpu-b", "Ready", "<none>", "v1.32.3"]
    ]
    assert re.fullmatch(r"\d+s", selected[0][3])
    assert kube_standin.requests.find("GET", "/api/v1/nodes")[-1].param("labelSelector") == "pool=b"


def test_get_chunk_size_and_jsonpath(kubectl: Kubectl, kube_standin: KubeStandin) -> None:
    kube_standin.requests.clear()
    rows = _table(kubectl("get", "nodes", "--chunk-size=2", "--no-headers").stdout)
    assert [r[0] for r in rows] == ["cpu-0", "gpu-a", "gpu-b", "gpu-c"]
    pages = kube_standin.requests.find("GET", "/api/v1/nodes")
    assert [(p.param("limit"), p.param("continue") is not None) for p in pages] == [("2", False), ("2", True)]

    out = kubectl("get", "nodes", "-o", "jsonpath={range .items[*]}{.metadata.name}={.metadata.labels.pool} {end}")
    assert out.stdout.split() == ["cpu-0=cpu", "gpu-a=a", "gpu-b=b", "gpu-c=c"]


def test_label_selector_overwrite_and_removal(kubectl: Kubectl, kube_standin: KubeStandin) -> None:
    out = kubectl("label", "nodes", "-l", "pool in (a,b)", "gpuready/validated=true")
    assert out.stdout.split("\n")[:2] == ["node/gpu-a labeled", "node/gpu-b labeled"]
    labelled = {
        n["metadata"]["name"]
        for n in kube_standin.store.objects("nodes")
        if "gpuready/validated" in n["metadata"]["labels"]
    }
    assert labelled == {"gpu-a", "gpu-b"}

    refused = kubectl("label", "node", "gpu-a", "pool=z", ok=False)
    assert refused.returncode != 0
    assert "'pool' already has a value (a), and --overwrite is false" in refused.stderr
    node = kube_standin.store.get("nodes", "gpu-a")
    assert node is not None and node["metadata"]["labels"]["pool"] == "a"

    kubectl("label", "node", "gpu-a", "pool=z", "--overwrite")
    kubectl("label", "node", "gpu-a", "gpuready/validated-")
    node = kube_standin.store.get("nodes", "gpu-a")
    assert node is not None
    assert node["metadata"]["labels"]["pool"] == "z" and "gpuready/validated" not in node["metadata"]["labels"]
    patches = kube_standin.requests.find("PATCH", "/api/v1/nodes/gpu-a")
    assert patches[-1].json() == {"metadata": {"labels": {"gpuready/validated": None}}}


def test_taint_node(kubectl: Kubectl, kube_standin: KubeStandin) -> None:
    kubectl("taint", "node", "gpu-a", "nvidia.com/gpu=present:NoSchedule")
    kubectl("taint", "node", "gpu-a", "gpuready/quarantine=true:NoExecute")
    taints = json.loads(kubectl("get", "node", "gpu-a", "-o", "jsonpath={.spec.taints}").stdout)
    assert {(t["key"], t.get("value"), t["effect"]) for t in taints} == {
        ("nvidia.com/gpu", "present", "NoSchedule"),
        ("gpuready/quarantine", "true", "NoExecute"),
    }
    patch = kube_standin.requests.find("PATCH", "/api/v1/nodes/gpu-a")[-1]
    assert patch.content_type == "application/strategic-merge-patch+json"
    assert len(patch.json()["spec"]["taints"]) == 2  # kubectl sends the whole (atomic) list

    refused = kubectl("taint", "node", "gpu-a", "nvidia.com/gpu=other:NoSchedule", ok=False)
    assert "already has nvidia.com/gpu taint(s) with same effect(s) and --overwrite is false" in refused.stderr
