"""The stand-in's HTTP behaviour at the wire level: status bodies, writes, tables, watches, standalone mode."""

from __future__ import annotations

import http.client
import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import yaml

from .handler import StandinHandler
from .objects import make_configmap, make_node
from .server import KubeStandin

Response = tuple[int, dict[str, str], Any]


def call(
    kube: KubeStandin,
    method: str,
    path: str,
    body: Any = None,
    *,
    content_type: str | None = None,
    accept: str | None = None,
    timeout: float = 5,
) -> Response:
    conn = http.client.HTTPConnection("127.0.0.1", kube.port, timeout=timeout)
    try:
        headers: dict[str, str] = {}
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            headers["Content-Type"] = content_type or "application/json"
        if accept:
            headers["Accept"] = accept
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        raw = resp.read()
        ctype = resp.getheader("Content-Type") or ""
        payload = json.loads(raw) if ctype == "application/json" else raw
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, payload
    finally:
        conn.close()


def assert_status(resp: Response, code: int, reason: str) -> dict[str, Any]:
    status, headers, body = resp
    assert status == code
    assert headers["content-type"] == "application/json"
    assert (body["kind"], body["apiVersion"], body["status"], body["code"], body["reason"]) == (
        "Status",
        "v1",
        "Failure",
        code,
        reason,
    )
    assert isinstance(body["message"], str) and body["message"]
    result: dict[str, Any] = body
    return result


def test_discovery_documents(kube_standin: KubeStandin) -> None:
    _, _, core = call(kube_standin, "GET", "/api/v1")
    assert core["groupVersion"] == "v1"
    nodes = next(r for r in core["resources"] if r["name"] == "nodes")
    assert (nodes["kind"], nodes["namespaced"], nodes["singularName"], nodes["shortNames"]) == (
        "Node",
        False,
        "node",
        ["no"],
    )
    assert {"get", "list", "watch", "patch", "update", "create", "delete"} <= set(nodes["verbs"])
    names = {r["name"] for r in core["resources"]}
    assert {"nodes/status", "pods", "pods/status", "configmaps", "namespaces"} <= names
    assert "configmaps/status" not in names
    _, _, apps = call(kube_standin, "GET", "/apis/apps/v1")
    assert apps["groupVersion"] == "apps/v1"
    assert [r["name"] for r in apps["resources"]] == ["daemonsets", "daemonsets/status"]
    assert call(kube_standin, "GET", "/apis")[2]["groups"][0]["name"] == "apps"
    assert call(kube_standin, "GET", "/apis/apps")[2]["preferredVersion"]["groupVersion"] == "apps/v1"
    assert call(kube_standin, "GET", "/api")[2]["versions"] == ["v1"]
    assert call(kube_standin, "GET", "/version")[2]["minor"] == "32"
    assert_status(call(kube_standin, "GET", "/apis/batch/v1/jobs"), 404, "NotFound")


def test_create_rules(kube_standin: KubeStandin) -> None:
    created = call(kube_standin, "POST", "/api/v1/nodes", make_node("gpu-1"))
    assert created[0] == 201
    meta = created[2]["metadata"]
    assert meta["uid"] and meta["creationTimestamp"] and int(meta["resourceVersion"]) > 0
    assert_status(call(kube_standin, "POST", "/api/v1/nodes", make_node("gpu-1")), 409, "AlreadyExists")
    nameless = assert_status(
        call(kube_standin, "POST", "/api/v1/nodes", {"kind": "Node", "metadata": {}}), 422, "Invalid"
    )
    assert nameless["details"]["causes"][0]["field"] == "metadata.name"
    generated = call(
        kube_standin, "POST", "/api/v1/namespaces/default/configmaps", {"metadata": {"generateName": "cfg-"}}
    )
    assert generated[0] == 201 and generated[2]["metadata"]["name"].startswith("cfg-")
    assert len(generated[2]["metadata"]["name"]) == len("cfg-") + 5
    assert_status(
        call(kube_standin, "POST", "/api/v1/namespaces/nope/configmaps", make_configmap("c", "nope")), 404, "NotFound"
    )
    assert_status(call(kube_standin, "POST", "/api/v1/nodes", make_node("Bad_Name")), 422, "Invalid")
    bad_label = make_node("gpu-2", labels={"pool": "not a valid value"})
    assert_status(call(kube_standin, "POST", "/api/v1/nodes", bad_label), 422, "Invalid")
    bad_taint = make_node("gpu-3", taints=[{"key": "k", "effect": "Sometimes"}])
    invalid = assert_status(call(kube_standin, "POST", "/api/v1/nodes", bad_taint), 422, "Invalid")
    assert invalid["details"]["causes"][0]["field"] == "spec.taints[0].effect"
    stale = dict(make_node("gpu-4"), metadata={"name": "gpu-4", "resourceVersion": "5"})
    assert call(kube_standin, "POST", "/api/v1/nodes", stale)[0] == 500
    dry = call(kube_standin, "POST", "/api/v1/nodes?dryRun=All", make_node("gpu-5"))
    assert dry[0] == 201 and kube_standin.store.get("nodes", "gpu-5") is None
    assert call(kube_standin, "POST", "/api/v1/nodes", b"{oops", content_type="application/json")[0] == 400
    assert (
        call(kube_standin, "POST", "/api/v1/nodes", b"x", content_type="application/vnd.kubernetes.protobuf")[0] == 415
    )


def test_writes_keep_identity_and_bump_resource_version(kube_standin: KubeStandin) -> None:
    node = kube_standin.store.add(make_node("gpu-1"))
    meta = node["metadata"]
    patch = {"metadata": {"uid": "forged", "creationTimestamp": "2000-01-01T00:00:00Z", "labels": {"x": "1"}}}
    status, _, patched = call(
        kube_standin, "PATCH", "/api/v1/nodes/gpu-1", patch, content_type="application/merge-patch+json"
    )
    assert status == 200
    assert (patched["metadata"]["uid"], patched["metadata"]["creationTimestamp"]) == (
        meta["uid"],
        meta["creationTimestamp"],
    )
    assert int(patched["metadata"]["resourceVersion"]) > int(meta["resourceVersion"])
    # a no-op write keeps the resourceVersion and emits no event, like the apiserver
    events = len(kube_standin.store.history("nodes"))
    _, _, again = call(kube_standin, "PATCH", "/api/v1/nodes/gpu-1", patch, content_type="application/merge-patch+json")
    assert again["metadata"]["resourceVersion"] == patched["metadata"]["resourceVersion"]
    assert len(kube_standin.store.history("nodes")) == events
    # a resourceVersion inside a patch is a precondition
    stale_patch = {"metadata": {"resourceVersion": meta["resourceVersion"], "labels": {"y": "2"}}}
    assert_status(
        call(kube_standin, "PATCH", "/api/v1/nodes/gpu-1", stale_patch, content_type="application/merge-patch+json"),
        409,
        "Conflict",
    )
    unsupported = call(kube_standin, "PATCH", "/api/v1/nodes/gpu-1", {}, content_type="application/json")
    assert_status(unsupported, 415, "UnsupportedMediaType")
    # PUT without a resourceVersion is unconditional; PUT on a missing object is 404
    body = dict(patched)
    body["metadata"] = {k: v for k, v in patched["metadata"].items() if k != "resourceVersion"}
    assert call(kube_standin, "PUT", "/api/v1/nodes/gpu-1", body)[0] == 200
    assert_status(
        call(kube_standin, "PUT", "/api/v1/nodes/ghost", dict(body, metadata={"name": "ghost"})), 404, "NotFound"
    )
    assert_status(
        call(kube_standin, "PUT", "/api/v1/nodes/gpu-1", dict(body, metadata={"name": "other"})), 400, "BadRequest"
    )


def test_status_subresource_and_spec_are_separate(kube_standin: KubeStandin) -> None:
    kube_standin.store.add(make_node("gpu-1"))
    cordon_and_status = {"spec": {"unschedulable": True}, "status": {"capacity": {"nvidia.com/gpu": "8"}}}
    _, _, main = call(
        kube_standin,
        "PATCH",
        "/api/v1/nodes/gpu-1",
        cordon_and_status,
        content_type="application/strategic-merge-patch+json",
    )
    assert main["spec"]["unschedulable"] is True and "nvidia.com/gpu" not in main["status"]["capacity"]
    uncordon_and_status = {"spec": {"unschedulable": False}, "status": {"capacity": {"nvidia.com/gpu": "8"}}}
    _, _, sub = call(
        kube_standin,
        "PATCH",
        "/api/v1/nodes/gpu-1/status",
        uncordon_and_status,
        content_type="application/merge-patch+json",
    )
    assert sub["spec"]["unschedulable"] is True and sub["status"]["capacity"]["nvidia.com/gpu"] == "8"
    assert call(kube_standin, "GET", "/api/v1/nodes/gpu-1/status")[2]["status"]["capacity"]["nvidia.com/gpu"] == "8"
    assert (
        call(
            kube_standin,
            "PATCH",
            "/api/v1/namespaces/default/configmaps/x/status",
            {},
            content_type="application/merge-patch+json",
        )[0]
        == 404
    )


def test_delete_semantics(kube_standin: KubeStandin) -> None:
    node = kube_standin.store.add(make_node("gpu-1"))
    stale = {"preconditions": {"resourceVersion": str(int(node["metadata"]["resourceVersion"]) - 1)}}
    refused = assert_status(call(kube_standin, "DELETE", "/api/v1/nodes/gpu-1", stale), 409, "Conflict")
    assert "Precondition failed: ResourceVersion in precondition" in refused["message"]
    status, _, body = call(kube_standin, "DELETE", "/api/v1/nodes/gpu-1")
    assert (status, body["kind"], body["status"], body["details"]["name"]) == (200, "Status", "Success", "gpu-1")
    assert_status(call(kube_standin, "DELETE", "/api/v1/nodes/gpu-1"), 404, "NotFound")
    held = make_configmap("held")
    held["metadata"]["finalizers"] = ["example.com/hold"]
    kube_standin.store.add(held)
    status, _, pending = call(kube_standin, "DELETE", "/api/v1/namespaces/default/configmaps/held")
    assert status == 202 and pending["metadata"]["deletionTimestamp"]
    release = {"metadata": {"finalizers": None}}
    call(
        kube_standin,
        "PATCH",
        "/api/v1/namespaces/default/configmaps/held",
        release,
        content_type="application/merge-patch+json",
    )
    assert kube_standin.store.get("configmaps", "held", "default") is None
    assert [e.type for e in kube_standin.store.history("configmaps")] == ["ADDED", "MODIFIED", "DELETED"]


def test_table_rows_carry_partial_object_metadata(kube_standin: KubeStandin) -> None:
    kube_standin.store.add(
        make_node("cp", labels={"node-role.kubernetes.io/control-plane": ""}, kubelet_version="v1.32.2")
    )
    kube_standin.store.add(make_node("gpu-1", ready=False, unschedulable=True))
    accept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"
    _, _, listed = call(kube_standin, "GET", "/api/v1/nodes?limit=1", accept=accept)
    assert (listed["kind"], listed["apiVersion"]) == ("Table", "meta.k8s.io/v1")
    assert [c["name"] for c in listed["columnDefinitions"] if c["priority"] == 0] == [
        "Name",
        "Status",
        "Roles",
        "Age",
        "Version",
    ]
    row = listed["rows"][0]
    assert row["cells"][:5] == ["cp", "Ready", "control-plane", "0s", "v1.32.2"]
    assert row["object"]["kind"] == "PartialObjectMetadata" and row["object"]["metadata"]["name"] == "cp"
    assert listed["metadata"]["remainingItemCount"] == 1 and listed["metadata"]["continue"]
    token = quote(listed["metadata"]["continue"])
    _, _, rest = call(kube_standin, "GET", f"/api/v1/nodes?limit=1&continue={token}", accept=accept)
    assert rest["rows"][0]["cells"][1:3] == ["NotReady,SchedulingDisabled", "<none>"]
    assert "continue" not in rest["metadata"]
    _, _, single = call(kube_standin, "GET", "/api/v1/nodes/gpu-1", accept=accept)
    assert len(single["rows"]) == 1


def test_lists_are_typed_and_paginate_over_a_snapshot(kube_standin: KubeStandin) -> None:
    for i in range(4):
        kube_standin.store.add(make_node(f"n{i}", labels={"even": str(i % 2 == 0).lower()}))
    _, _, first = call(kube_standin, "GET", "/api/v1/nodes?limit=2")
    assert (first["kind"], first["apiVersion"], first["metadata"]["remainingItemCount"]) == ("NodeList", "v1", 2)
    assert "kind" not in first["items"][0]  # list items carry no kind, as on a real apiserver
    kube_standin.store.add(make_node("n0a"))  # written after the first page: not in this list
    token = quote(first["metadata"]["continue"])
    _, _, second = call(kube_standin, "GET", f"/api/v1/nodes?limit=2&continue={token}")
    assert [n["metadata"]["name"] for n in second["items"]] == ["n2", "n3"]
    assert second["metadata"]["resourceVersion"] == first["metadata"]["resourceVersion"]
    _, _, filtered = call(kube_standin, "GET", "/api/v1/nodes?limit=1&labelSelector=even%3Dtrue")
    assert "remainingItemCount" not in filtered["metadata"]  # not computed under selectors
    assert_status(call(kube_standin, "GET", "/api/v1/nodes?continue=garbage"), 400, "BadRequest")
    assert_status(call(kube_standin, "GET", "/api/v1/nodes?labelSelector=a%20in%20(b"), 400, "BadRequest")
    assert_status(call(kube_standin, "GET", "/api/v1/nodes?fieldSelector=spec.x%3D1"), 400, "BadRequest")
    kube_standin.store.add(make_configmap("c1", "kube-system"))
    kube_standin.store.add(make_configmap("c2", "default"))
    _, _, everywhere = call(kube_standin, "GET", "/api/v1/configmaps")
    assert [(c["metadata"]["namespace"], c["metadata"]["name"]) for c in everywhere["items"]] == [
        ("default", "c2"),
        ("kube-system", "c1"),
    ]
    _, _, one_ns = call(kube_standin, "GET", "/api/v1/namespaces/kube-system/configmaps")
    assert [c["metadata"]["name"] for c in one_ns["items"]] == ["c1"]


def _watch_lines(kube: KubeStandin, query: str, count: int | None = None) -> tuple[list[dict[str, Any]], float]:
    """Watch events until the server ends the stream, or until `count` events arrived."""
    started = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", kube.port, timeout=10)
    events: list[dict[str, Any]] = []
    try:
        conn.request("GET", f"/api/v1/nodes?watch=true&{query}")
        resp = conn.getresponse()
        assert resp.status == 200 and resp.getheader("Transfer-Encoding") == "chunked"
        while count is None or len(events) < count:
            line = resp.readline()
            if not line:
                break
            events.append(json.loads(line))
    finally:
        conn.close()
    return events, time.monotonic() - started


def test_watch_from_zero_lists_first_and_ends_after_timeout(kube_standin: KubeStandin) -> None:
    kube_standin.store.add(make_node("a", labels={"gpu": "yes"}))
    kube_standin.store.add(make_node("b", labels={"gpu": "no"}))
    events, elapsed = _watch_lines(kube_standin, "resourceVersion=0&timeoutSeconds=1&labelSelector=gpu%3Dyes")
    assert [(e["type"], e["object"]["metadata"]["name"]) for e in events] == [("ADDED", "a")]
    assert 0.9 <= elapsed < 3

    rv = kube_standin.store.resource_version
    kube_standin.store.label("nodes", "b", {"gpu": "yes"})  # enters the selector: ADDED
    kube_standin.store.label("nodes", "a", {"gpu": None})  # leaves it: DELETED
    kube_standin.store.delete("nodes", "b")
    events, _ = _watch_lines(kube_standin, f"resourceVersion={rv}&labelSelector=gpu%3Dyes", count=3)
    assert [(e["type"], e["object"]["metadata"]["name"]) for e in events] == [
        ("ADDED", "b"),
        ("DELETED", "a"),
        ("DELETED", "b"),
    ]
    assert int(events[-1]["object"]["metadata"]["resourceVersion"]) == int(kube_standin.store.resource_version)


def test_watch_from_a_compacted_resource_version_is_gone() -> None:
    with KubeStandin.start(namespaces=(), history=2) as kube:
        first = kube.store.add(make_node("n"))["metadata"]["resourceVersion"]
        for value in ("1", "2", "3"):
            kube.store.label("nodes", "n", {"v": value})
        events, _ = _watch_lines(kube, f"resourceVersion={first}", count=1)
        assert events[0]["type"] == "ERROR"
        assert (events[0]["object"]["code"], events[0]["object"]["reason"]) == (410, "Expired")
        latest = kube.store.history("nodes")[-1].rv
        events, _ = _watch_lines(kube, f"resourceVersion={latest - 1}", count=1)
        assert (events[0]["type"], events[0]["object"]["metadata"]["labels"]["v"]) == ("MODIFIED", "3")


def test_keep_alive_without_nagle_delays(kube_standin: KubeStandin) -> None:
    assert StandinHandler.disable_nagle_algorithm is True
    kube_standin.store.add(make_node("n"))
    conn = http.client.HTTPConnection("127.0.0.1", kube_standin.port, timeout=5)
    timings: list[float] = []
    try:
        for _ in range(30):
            started = time.perf_counter()
            conn.request(
                "PATCH",
                "/api/v1/nodes/n",
                b'{"metadata":{"labels":{"k":"v"}}}',
                {"Content-Type": "application/merge-patch+json"},
            )
            resp = conn.getresponse()
            resp.read()
            timings.append(time.perf_counter() - started)
            assert resp.status == 200
    finally:
        conn.close()
    assert statistics.median(timings) < 0.02  # Nagle + delayed ACK would make it ~44 ms


def test_concurrent_writers_lose_no_updates(kube_standin: KubeStandin) -> None:
    kube_standin.store.add(make_node("shared"))
    start_rv = int(kube_standin.store.resource_version)

    def writer(worker: int) -> list[int]:
        codes = []
        for i in range(20):
            patch = {"metadata": {"labels": {f"w{worker}-{i}": "x"}}}
            path = "/api/v1/nodes/shared"
            codes.append(call(kube_standin, "PATCH", path, patch, content_type="application/merge-patch+json")[0])
        return codes

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(writer, range(8)))
    assert {code for codes in results for code in codes} == {200}
    node = kube_standin.store.get("nodes", "shared")
    assert node is not None
    assert sum(1 for key in node["metadata"]["labels"] if key.startswith("w")) == 160
    assert int(kube_standin.store.resource_version) == start_rv + 160


def test_token_is_enforced_when_configured() -> None:
    with KubeStandin.start(token="s3cret", namespaces=()) as kube:
        denied = assert_status(call(kube, "GET", "/api/v1/nodes"), 401, "Unauthorized")
        assert denied["message"] == "Unauthorized"
        assert kube.store.objects("namespaces") == []


def test_standalone_module_serves_seed_and_writes_kubeconfig(tmp_path: Path) -> None:
    seed = tmp_path / "nodes.json"
    seed.write_text(json.dumps({"kind": "List", "apiVersion": "v1", "items": [make_node("seeded")]}))
    kubeconfig = tmp_path / "out.yaml"
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    cmd = [
        sys.executable,
        "-m",
        "tests.kube_standin.server",
        "--port",
        "0",
        "--seed",
        str(seed),
        "--kubeconfig",
        str(kubeconfig),
    ]
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        banner = proc.stdout.readline() + proc.stdout.readline()
        assert "serving on http://127.0.0.1:" in banner
        config = yaml.safe_load(kubeconfig.read_text())
        assert config["users"][0]["user"]["token"] == "test-token"
        assert config["current-context"] == "standin"
        port = int(config["clusters"][0]["cluster"]["server"].rsplit(":", 1)[1])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/api/v1/nodes/seeded")
        assert conn.getresponse().status == 200
        conn.close()
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert "RuntimeWarning" not in err


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_health_endpoints(kube_standin: KubeStandin, path: str) -> None:
    status, headers, body = call(kube_standin, "GET", path)
    assert (status, body) == (200, b"ok")
    assert headers["content-type"].startswith("text/plain")
