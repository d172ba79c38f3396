"""Contract: the official `kubernetes` client against the stand-in."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kubernetes import client
from kubernetes.client.exceptions import ApiException

from .clients import header, new_watch, official_api_client, status_body
from .objects import make_node
from .server import KubeStandin

SMP = "application/strategic-merge-patch+json"


@pytest.fixture
def core(kube_standin: KubeStandin, kubeconfig_path: Path) -> Iterator[Any]:
    for i, pool in enumerate(["a", "a", "b", "b", "c"]):
        kube_standin.store.add(
            make_node(f"gpu-{i}", labels={"pool": pool}, taints=["nvidia.com/gpu=present:NoSchedule"])
        )
    api = official_api_client(kubeconfig_path)
    try:
        yield client.CoreV1Api(api)
    finally:
        api.close()


def test_list_node_with_label_and_field_selectors(core: Any, kube_standin: KubeStandin) -> None:
    by_label = core.list_node(label_selector="pool=a")
    assert by_label.kind == "NodeList"
    assert [n.metadata.name for n in by_label.items] == ["gpu-0", "gpu-1"]
    assert int(by_label.metadata.resource_version) >= int(kube_standin.store.resource_version)

    assert [n.metadata.name for n in core.list_node(label_selector="pool in (b,c),pool!=c").items] == ["gpu-2", "gpu-3"]
    assert [n.metadata.name for n in core.list_node(label_selector="!pool").items] == []
    assert [n.metadata.name for n in core.list_node(field_selector="metadata.name=gpu-4").items] == ["gpu-4"]
    both = core.list_node(label_selector="pool=b", field_selector="metadata.name!=gpu-2")
    assert [n.metadata.name for n in both.items] == ["gpu-3"]

    with pytest.raises(ApiException) as bad:
        core.list_node(label_selector="pool in (a")
    assert bad.value.status == 400
    assert status_body(bad.value)["reason"] == "BadRequest"
    sent = kube_standin.requests.find("GET", "/api/v1/nodes")
    assert [r.param("labelSelector") for r in sent][:2] == ["pool=a", "pool in (b,c),pool!=c"]


def test_limit_continue_pagination_loop(core: Any, kube_standin: KubeStandin) -> None:
    kube_standin.requests.clear()
    names: list[str] = []
    remaining: list[int | None] = []
    token: str | None = None
    while True:
        page = core.list_node(limit=2, _continue=token)
        names += [n.metadata.name for n in page.items]
        remaining.append(page.metadata.remaining_item_count)
        token = page.metadata._continue
        if not token:
            break
    assert names == [f"gpu-{i}" for i in range(5)]
    assert remaining == [3, 1, None]
    requests = kube_standin.requests.find("GET", "/api/v1/nodes")
    assert [r.param("limit") for r in requests] == ["2", "2", "2"]
    assert [r.param("continue") is not None for r in requests] == [False, True, True]


def test_patch_node_strategic_merge(core: Any, kube_standin: KubeStandin) -> None:
    added = core.patch_node("gpu-0", {"metadata": {"labels": {"gpuready/validated": "true"}}})
    assert added.metadata.labels["gpuready/validated"] == "true"
    assert added.metadata.labels["pool"] == "a"  # maps merge

    removed = core.patch_node("gpu-0", {"metadata": {"labels": {"gpuready/validated": None}}})
    assert "gpuready/validated" not in removed.metadata.labels
    assert int(removed.metadata.resource_version) > int(added.metadata.resource_version)

    # Node.spec.taints is an atomic list (no patch merge key) on a real apiserver: a strategic merge patch
    # replaces it, so adding a taint means sending the current ones too.
    current = [t.to_dict() for t in core.read_node("gpu-0").spec.taints]
    wanted = [{"key": t["key"], "value": t["value"], "effect": t["effect"]} for t in current]
    wanted.append({"key": "gpuready/quarantine", "value": "true", "effect": "NoExecute"})
    merged = core.patch_node("gpu-0", {"spec": {"taints": wanted}})
    assert {(t.key, t.effect) for t in merged.spec.taints} == {
        ("nvidia.com/gpu", "NoSchedule"),
        ("gpuready/quarantine", "NoExecute"),
    }
    replaced = core.patch_node("gpu-1", {"spec": {"taints": [{"key": "only", "effect": "NoSchedule"}]}})
    assert [(t.key, t.effect) for t in replaced.spec.taints] == [("only", "NoSchedule")]

    patches = kube_standin.requests.find("PATCH", "/api/v1/nodes/*")
    assert {r.content_type for r in patches} == {SMP}
    assert patches[1].json() == {"metadata": {"labels": {"gpuready/validated": None}}}
    assert merged.metadata.uid == added.metadata.uid
    assert merged.metadata.creation_timestamp == added.metadata.creation_timestamp


def test_node_status_patch_goes_through_the_status_subresource(core: Any) -> None:
    condition = {"type": "GPUHealthy", "status": "False", "reason": "XidError", "message": "Xid 79"}
    ignored = core.patch_node("gpu-0", {"status": {"conditions": [condition]}})
    assert "GPUHealthy" not in [c.type for c in ignored.status.conditions]  # main resource ignores status
    patched = core.patch_node_status("gpu-0", {"status": {"conditions": [condition]}})
    types = [c.type for c in patched.status.conditions]
    assert types[-1] == "GPUHealthy" and "Ready" in types  # conditions merge on type


def test_replace_node_with_stale_resource_version_is_a_conflict(core: Any) -> None:
    stale = core.read_node("gpu-2")
    core.patch_node("gpu-2", {"metadata": {"labels": {"touched": "yes"}}})
    stale.metadata.labels["mine"] = "1"
    with pytest.raises(ApiException) as conflict:
        core.replace_node("gpu-2", stale)
    assert conflict.value.status == 409
    status = status_body(conflict.value)
    assert status["reason"] == "Conflict"
    assert status["message"] == (
        'Operation cannot be fulfilled on nodes "gpu-2": the object has been modified; '
        "please apply your changes to the latest version and try again"
    )
    fresh = core.read_node("gpu-2")
    fresh.metadata.labels["mine"] = "1"
    replaced = core.replace_node("gpu-2", fresh)
    assert replaced.metadata.labels["mine"] == "1"
    assert replaced.metadata.labels["touched"] == "yes"


def test_missing_node_is_an_api_exception_404(core: Any) -> None:
    with pytest.raises(ApiException) as missing:
        core.read_node("no-such-node")
    assert missing.value.status == 404
    assert header(missing.value, "Content-Type") == "application/json"
    body = status_body(missing.value)
    assert (body["kind"], body["status"], body["reason"], body["code"]) == ("Status", "Failure", "NotFound", 404)
    assert body["message"] == 'nodes "no-such-node" not found'


def test_watch_stream_sees_modified_after_a_patch_from_another_thread(
    core: Any, kube_standin: KubeStandin, kubeconfig_path: Path
) -> None:
    listed = core.list_node(label_selector="pool=a")
    start_rv = listed.metadata.resource_version

    def patch_later() -> None:
        other = official_api_client(kubeconfig_path)
        try:
            time.sleep(0.1)
            api = client.CoreV1Api(other)
            api.patch_node("gpu-3", {"metadata": {"labels": {"seen": "no"}}})  # pool=b: filtered out
            api.patch_node("gpu-1", {"metadata": {"labels": {"seen": "yes"}}})
        finally:
            other.close()

    patcher = threading.Thread(target=patch_later)
    patcher.start()
    events: list[tuple[str, str, str | None]] = []
    w = new_watch()
    started = time.monotonic()
    for event in w.stream(core.list_node, label_selector="pool=a", resource_version=start_rv, timeout_seconds=5):
        obj = event["object"]
        events.append((event["type"], obj.metadata.name, obj.metadata.labels.get("seen")))
        if event["type"] == "MODIFIED":
            w.stop()
    patcher.join()
    assert events == [("MODIFIED", "gpu-1", "yes")]
    assert time.monotonic() - started < 3
    watch_request = kube_standin.requests.find("GET", "/api/v1/nodes", watch=True)[0]
    assert watch_request.param("resourceVersion") == start_rv
    assert watch_request.param("timeoutSeconds") == "5"
