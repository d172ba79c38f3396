"""NodeClient WATCH and PATCH through lightkube's Client, against the stand-in over real HTTP."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from gpuready.kube.errors import ExpiredError, KubeApiError, KubeAuthError
from gpuready.kube.nodes_api import NodeClient, connect
from tests.kube.conftest import Sleeps
from tests.kube.watching import when_watching
from tests.kube_standin import KubeStandin, make_node


def test_list_items_are_plain_dicts(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.store.add(make_node("gpu-a"))
    (node,) = client.list_nodes().items
    assert type(node) is dict
    assert type(node["metadata"]) is dict


def test_watch_is_one_request_with_the_callers_parameters(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.store.add(make_node("gpu-a", labels={"pool": "gpu"}))
    version = client.list_nodes().resource_version
    thread = when_watching(kube_standin, lambda: kube_standin.store.label("Node", "gpu-a", {"ready": "yes"}))
    started = time.monotonic()
    events = list(client.watch_nodes("pool in (gpu),!ready-for-cpus", version, 1.0))
    thread.join()
    assert time.monotonic() - started < 2.5  # lightkube's own reconnect after the server's close is not taken
    assert [e.type for e in events] == ["MODIFIED"]
    assert type(events[0].object) is dict and events[0].object["metadata"]["labels"]["ready"] == "yes"
    assert events[0].resource_version == kube_standin.store.resource_version
    (watch,) = kube_standin.requests.find("GET", "/api/v1/nodes", watch=True)
    assert watch.param("labelSelector") == "pool in (gpu),!ready-for-cpus"
    assert watch.param("resourceVersion") == version
    assert watch.param("timeoutSeconds") == "1"
    assert watch.param("allowWatchBookmarks") == "true"
    assert client.calls["watch"] == 1


def test_an_idle_stream_stops_at_the_callers_deadline(kube_standin: KubeStandin, client: NodeClient) -> None:
    version = client.list_nodes().resource_version
    started = time.monotonic()
    assert list(client.watch_nodes("", version, 0.1)) == []  # the server would close after 1 s (rounded up)
    assert time.monotonic() - started < 0.95  # the read timeout (0.1 s + 0.5 s) ended it first
    assert client.calls["watch"] == 1


def test_stopping_a_watch_early_leaves_the_client_usable(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.store.add(make_node("gpu-a"))
    version = client.list_nodes().resource_version
    thread = when_watching(kube_standin, lambda: kube_standin.store.label("Node", "gpu-a", {"a": "1"}))
    for event in client.watch_nodes("", version, 10):
        assert event.type == "MODIFIED"
        break
    thread.join()
    assert len(client.list_nodes().items) == 1
    assert client.calls == {"list": 2, "watch": 1}


def test_watch_429_is_retried_honouring_retry_after(
    kube_standin: KubeStandin, client: NodeClient, sleeps: Sleeps
) -> None:
    version = client.list_nodes().resource_version
    kube_standin.faults.throttle(1, retry_after=2, where=lambda info: info.is_watch)
    assert list(client.watch_nodes("", version, 1)) == []
    assert sleeps == [2.0]
    assert client.calls["watch"] == 2
    assert [r.status for r in kube_standin.requests.find("GET", "/api/v1/nodes", watch=True)] == [429, 200]


def test_watch_retries_are_bounded(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.faults.unavailable(10, where=lambda info: info.is_watch)
    with pytest.raises(KubeApiError, match="watch nodes: gave up after 5 attempts") as raised:
        list(client.watch_nodes("", "1", 1))
    assert raised.value.status == 503
    assert client.calls["watch"] == 5


def test_watch_403_fails_fast_naming_the_verb(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.faults.fail(403, 5, where=lambda info: info.is_watch)
    with pytest.raises(KubeAuthError, match="'watch' on 'nodes'") as raised:
        list(client.watch_nodes("", "1", 1))
    assert raised.value.status == 403
    assert client.calls["watch"] == 1


def test_watch_http_410_is_expired(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.faults.fail(410, 1, where=lambda info: info.is_watch)
    with pytest.raises(ExpiredError):
        list(client.watch_nodes("", "1", 1))
    assert client.calls["watch"] == 1


def test_in_band_410_from_a_compacted_version_is_expired(tmp_path: Path) -> None:
    with KubeStandin.start(seed=[make_node("gpu-a")], history=2) as kube:
        with connect(str(kube.write_kubeconfig(tmp_path / "kubeconfig")), env={}) as short:
            version = short.list_nodes().resource_version
            for value in ("1", "2", "3"):
                kube.store.label("Node", "gpu-a", {"step": value})
            with pytest.raises(ExpiredError, match="too old resource version"):
                list(short.watch_nodes("", version, 5))
        (watch,) = kube.requests.find("GET", "/api/v1/nodes", watch=True)
        assert watch.status == 200  # 200, then an ERROR event, as a real apiserver answers


def test_patch_is_one_merge_patch_and_none_removes_a_label(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.store.add(make_node("gpu-1", labels={"old": "x", "keep": "y"}))
    node = client.patch_node_labels("gpu-1", {"new": "z", "old": None})
    assert type(node) is dict
    labels = node["metadata"]["labels"]
    assert (labels["keep"], labels["new"], "old" in labels) == ("y", "z", False)
    (patch,) = kube_standin.requests.find("PATCH", "/api/v1/nodes/gpu-1")
    assert patch.content_type == "application/merge-patch+json"
    assert patch.json() == {"metadata": {"labels": {"new": "z", "old": None}}}
    assert client.calls == {"patch": 1}


def test_patching_a_missing_node_is_a_404_without_retries(kube_standin: KubeStandin, client: NodeClient) -> None:
    with pytest.raises(KubeApiError, match="patch nodes: 404 NotFound") as raised:
        client.patch_node_labels("gone", {"a": "b"})
    assert raised.value.status == 404
    assert client.calls["patch"] == 1


def test_a_400_carries_the_servers_message(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.faults.fail(400, 1, method="GET", message="plain words")
    with pytest.raises(KubeApiError) as raised:
        client.list_nodes()
    assert raised.value.status == 400
    assert "plain words" in str(raised.value)
