"""Contract: the real kubectl against the stand-in, for the wire format of what the product uses.

The product (components/gpuready/kube, through lightkube) sends paginated LISTs with a label selector, GETs and merge
PATCHes of node labels; its own tests cover WATCH and the faults over real HTTP. kubectl is an independent client
of the real API: if it reads the stand-in's discovery, pages, objects and merge-patch answers the way it reads a
real apiserver's, the stand-in speaks the real wire format for those verbs.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from .objects import make_node
from .server import KubeStandin

KUBECTL = shutil.which("kubectl")
pytestmark = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed")


def test_kubectl_pages_selects_gets_and_merge_patches_labels(
    kube_standin: KubeStandin, kubeconfig_path: Path, tmp_path: Path
) -> None:
    for name, pool in [("cpu-0", "cpu"), ("gpu-a", "a"), ("gpu-b", "b"), ("gpu-c", "c")]:
        kube_standin.store.add(make_node(name, labels={"pool": pool}))

    def kubectl(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        assert KUBECTL is not None
        cmd = [KUBECTL, "--kubeconfig", str(kubeconfig_path), "--cache-dir", str(tmp_path / "cache"), *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)
        assert (done.returncode == 0) is ok, done.stderr
        return done

    # LIST in pages of two: kubectl follows the continue token and merges the pages.
    kube_standin.requests.clear()
    listed = json.loads(kubectl("get", "nodes", "--chunk-size=2", "-o", "json").stdout)
    assert [n["metadata"]["name"] for n in listed["items"]] == ["cpu-0", "gpu-a", "gpu-b", "gpu-c"]
    pages = kube_standin.requests.find("GET", "/api/v1/nodes")
    assert [(p.param("limit"), p.param("continue") is not None) for p in pages] == [("2", False), ("2", True)]

    # A set-based label selector, as the product sends it, passes through and filters server-side.
    selected = kubectl("get", "nodes", "-l", "pool in (a,b)", "-o", "jsonpath={.items[*].metadata.name}")
    assert selected.stdout.split() == ["gpu-a", "gpu-b"]
    assert kube_standin.requests.find("GET", "/api/v1/nodes")[-1].param("labelSelector") == "pool in (a,b)"

    # Merge PATCH of labels (kubectl label sends application/merge-patch+json; null removes a label).
    out = kubectl("label", "nodes", "-l", "pool in (a,b)", "gpuready/validated=true")
    assert out.stdout.split("\n")[:2] == ["node/gpu-a labeled", "node/gpu-b labeled"]
    kubectl("label", "node", "gpu-a", "gpuready/validated-")
    patch = kube_standin.requests.find("PATCH", "/api/v1/nodes/gpu-a")[-1]
    assert patch.content_type == "application/merge-patch+json"
    assert patch.json() == {"metadata": {"labels": {"gpuready/validated": None}}}

    # GET one node reads back what the patches stored; a missing one is the apiserver's NotFound.
    got = json.loads(kubectl("get", "node", "gpu-b", "-o", "json").stdout)
    assert (got["metadata"]["labels"]["pool"], got["metadata"]["labels"]["gpuready/validated"]) == ("b", "true")
    unlabelled = json.loads(kubectl("get", "node", "gpu-a", "-o", "jsonpath={.metadata.labels}").stdout)
    assert unlabelled["pool"] == "a" and "gpuready/validated" not in unlabelled
    missing = kubectl("get", "node", "nope", ok=False)
    assert 'nodes "nope" not found' in missing.stderr
