"""Contract: lightkube against the stand-in."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from lightkube import ApiError, Client, KubeConfig
from lightkube.config.models import Cluster, User
from lightkube.models.meta_v1 import ObjectMeta
from lightkube.resources.core_v1 import ConfigMap, Node
from lightkube.types import PatchType

from .objects import make_node
from .server import KubeStandin

TOKEN = "lightkube-token"


@pytest.fixture
def kube() -> Iterator[KubeStandin]:
    """A stand-in that insists on the bearer token, so the kubeconfig's token user is exercised."""
    nodes = [make_node(f"n{i}", labels={"pool": "gpu" if i % 2 else "cpu"}) for i in range(7)]
    standin = KubeStandin.start(seed=nodes, token=TOKEN)
    try:
        yield standin
    finally:
        standin.stop()
    assert standin.internal_errors == []


@pytest.fixture
def lk(kube: KubeStandin, tmp_path: Path) -> Iterator[Client]:
    config = KubeConfig.from_file(kube.write_kubeconfig(tmp_path / "kubeconfig", token=TOKEN))
    with Client(config=config, trust_env=False) as lk_client:
        yield lk_client


def test_kubeconfig_token_user_is_sent_and_required(kube: KubeStandin, lk: Client) -> None:
    assert lk.get(Node, "n0").metadata is not None
    assert kube.requests.records[-1].headers["authorization"] == f"Bearer {TOKEN}"
    # KubeConfig.from_server() has no user and lightkube refuses it ("Missing user"); from_one with a User works.
    wrong = KubeConfig.from_one(cluster=Cluster(server=kube.url), user=User(token="wrong"))
    with Client(config=wrong, trust_env=False) as other, pytest.raises(ApiError) as denied:
        other.get(Node, "n0")
    assert denied.value.status.code == 401
    assert denied.value.status.reason == "Unauthorized"


def test_list_with_labels_and_chunk_size(kube: KubeStandin, lk: Client) -> None:
    gpu = [n.metadata.name for n in lk.list(Node, labels={"pool": "gpu"}) if n.metadata]
    assert gpu == ["n1", "n3", "n5"]
    not_cpu = [n.metadata.name for n in lk.list(Node, labels={"pool": ("gpu", "tpu")}) if n.metadata]
    assert not_cpu == ["n1", "n3", "n5"]
    assert kube.requests.records[-1].param("labelSelector") == "pool in (gpu,tpu)"

    kube.requests.clear()
    listing = lk.list(Node, chunk_size=2)
    names = [n.metadata.name for n in listing if n.metadata]
    assert names == [f"n{i}" for i in range(7)]
    pages = kube.requests.find("GET", "/api/v1/nodes")
    assert len(pages) == 4  # 7 nodes in pages of 2
    assert [p.param("limit") for p in pages] == ["2"] * 4
    assert pages[0].param("continue") is None and all(p.param("continue") for p in pages[1:])
    assert listing.resourceVersion == kube.store.resource_version


def test_patch_types_send_their_content_types(kube: KubeStandin, lk: Client) -> None:
    kube.requests.clear()
    merged = lk.patch(Node, "n0", {"metadata": {"labels": {"a": "1"}}}, patch_type=PatchType.MERGE)
    strategic = lk.patch(Node, "n0", {"metadata": {"labels": {"b": "2", "a": None}}}, patch_type=PatchType.STRATEGIC)
    json_patched = lk.patch(
        Node,
        "n0",
        [{"op": "add", "path": "/metadata/labels/c", "value": "3"}, {"op": "remove", "path": "/metadata/labels/b"}],
        patch_type=PatchType.JSON,
    )
    assert merged.metadata and merged.metadata.labels and merged.metadata.labels["a"] == "1"
    assert strategic.metadata and strategic.metadata.labels
    assert strategic.metadata.labels["b"] == "2" and "a" not in strategic.metadata.labels
    assert json_patched.metadata and json_patched.metadata.labels
    assert json_patched.metadata.labels["c"] == "3" and "b" not in json_patched.metadata.labels
    assert [r.content_type for r in kube.requests.find("PATCH")] == [
        "application/merge-patch+json",
        "application/strategic-merge-patch+json",
        "application/json-patch+json",
    ]
    with pytest.raises(ApiError) as failed:
        lk.patch(Node, "n0", [{"op": "test", "path": "/metadata/labels/c", "value": "nope"}], patch_type=PatchType.JSON)
    assert failed.value.status.code == 422


def test_missing_object_is_api_error_404(kube: KubeStandin, lk: Client) -> None:
    with pytest.raises(ApiError) as missing:
        lk.get(Node, "ghost")
    assert missing.value.status.code == 404
    assert missing.value.status.reason == "NotFound"
    assert missing.value.response.headers["content-type"] == "application/json"

    created = lk.create(ConfigMap(metadata=ObjectMeta(name="cfg", namespace="default"), data={"k": "v"}))
    assert created.metadata and created.metadata.uid and created.metadata.resourceVersion
    with pytest.raises(ApiError) as duplicate:
        lk.create(ConfigMap(metadata=ObjectMeta(name="cfg", namespace="default")))
    assert (duplicate.value.status.code, duplicate.value.status.reason) == (409, "AlreadyExists")
    assert lk.get(ConfigMap, "cfg", namespace="default").data == {"k": "v"}


def test_watch_with_labels_and_resource_version(kube: KubeStandin, lk: Client) -> None:
    listing = lk.list(Node, labels={"pool": "gpu"})
    assert len(list(listing)) == 3
    start_rv = listing.resourceVersion

    def later() -> None:
        time.sleep(0.1)
        kube.store.label("Node", "n2", {"seen": "no"})  # pool=cpu: filtered out
        kube.store.label("Node", "n3", {"seen": "yes"})
        kube.store.label("Node", "n3", {"pool": "cpu"})  # leaves the selector: DELETED for this watch

    thread = threading.Thread(target=later)
    thread.start()
    seen: list[tuple[str, str | None, str | None]] = []
    for kind, node in lk.watch(Node, labels={"pool": "gpu"}, resource_version=start_rv):
        labels = node.metadata.labels if node.metadata and node.metadata.labels else {}
        seen.append((kind, node.metadata.name if node.metadata else None, labels.get("seen")))
        if kind == "DELETED":
            break
    thread.join()
    assert seen == [("MODIFIED", "n3", "yes"), ("DELETED", "n3", "yes")]
    request = kube.requests.find("GET", "/api/v1/nodes", watch=True)[0]
    assert (request.param("resourceVersion"), request.param("labelSelector")) == (start_rv, "pool=gpu")
