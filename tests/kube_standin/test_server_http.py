"""The stand-in's HTTP behaviour at the wire level: status bodies, lists, merge patches, watches, standalone mode."""

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
from .objects import make_node
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
    assert nodes["verbs"] == ["get", "list", "patch", "watch"]
    assert {r["name"] for r in core["resources"]} == {
        "nodes", "nodes/status", "namespaces", "namespaces/status", "pods", "pods/status", "services",
        "services/status",
    }  # fmt: skip
    # DRA's ResourceSlices, listed by verification; Jobs, created by the GPU smoke test
    groups = {g["name"]: g["preferredVersion"]["groupVersion"] for g in call(kube_standin, "GET", "/apis")[2]["groups"]}
    assert groups == {"resource.k8s.io": "resource.k8s.io/v1", "batch": "batch/v1"}
    _, _, dra = call(kube_standin, "GET", "/apis/resource.k8s.io/v1")
    assert [(r["name"], r["kind"], r["namespaced"]) for r in dra["resources"]] == [
        ("resourceslices", "ResourceSlice", False)
    ]
    assert_status(call(kube_standin, "GET", "/apis/apps/v1/daemonsets"), 404, "NotFound")
    assert call(kube_standin, "GET", "/api")[2]["versions"] == ["v1"]
    assert call(kube_standin, "GET", "/version")[2]["minor"] == "32"
    assert_status(call(kube_standin, "GET", "/apis/apps/v1/deployments"), 404, "NotFound")


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
        latest = int(kube.store.resource_version)
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


def test_only_merge_patch_and_the_read_verbs_are_served(kube_standin: KubeStandin) -> None:
    kube_standin.store.add(make_node("n1", labels={"a": "1"}))
    for patch_type in ("application/strategic-merge-patch+json", "application/json-patch+json"):
        refused = call(kube_standin, "PATCH", "/api/v1/nodes/n1", {"metadata": {}}, content_type=patch_type)
        assert_status(refused, 415, "UnsupportedMediaType")
    not_object = call(kube_standin, "PATCH", "/api/v1/nodes/n1", [1], content_type="application/merge-patch+json")
    assert_status(not_object, 400, "BadRequest")
    for method in ("POST", "PUT", "DELETE"):
        assert_status(call(kube_standin, method, "/api/v1/nodes/n1", {}), 405, "MethodNotAllowed")
    node = kube_standin.store.get("nodes", "n1")
    assert node is not None and node["metadata"]["labels"]["a"] == "1"
    assert_status(call(kube_standin, "GET", "/api/v1/nodes/missing"), 404, "NotFound")


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


def test_jobs_and_pods_are_created_read_deleted_and_a_pod_has_a_log(kube_standin: KubeStandin) -> None:
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "smoke"}, "spec": {}}
    status, _, created = call(kube_standin, "POST", "/apis/batch/v1/namespaces/default/jobs", job)
    assert status == 201 and created["metadata"]["namespace"] == "default"
    assert_status(call(kube_standin, "POST", "/apis/batch/v1/namespaces/default/jobs", job), 409, "AlreadyExists")
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "smoke-1", "namespace": "default"}, "spec": {}}
    kube_standin.store.add(pod)
    kube_standin.store.logs[("default", "smoke-1")] = "GPU 0: NVIDIA L4\n"
    status, headers, body = call(kube_standin, "GET", "/api/v1/namespaces/default/pods/smoke-1/log")
    assert (status, headers["content-type"], body) == (200, "text/plain", b"GPU 0: NVIDIA L4\n")
    assert call(kube_standin, "GET", "/apis/batch/v1/namespaces/default/jobs/smoke")[0] == 200
    for path in ("/apis/batch/v1/namespaces/default/jobs/smoke", "/api/v1/namespaces/default/pods/smoke-1"):
        assert call(kube_standin, "DELETE", path)[0] == 200
    assert kube_standin.store.objects("jobs") == [] and kube_standin.store.objects("pods") == []
    assert_status(call(kube_standin, "DELETE", "/apis/batch/v1/namespaces/default/jobs/smoke"), 404, "NotFound")
