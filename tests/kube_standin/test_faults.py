"""Fault injection, and what the raw clients do under each fault (no retry layer of ours on top yet).

Findings pinned here:
- official client (urllib3's default Retry(3) in its pool): a GET answered 429 or 503 *with* Retry-After is
  retried after sleeping Retry-After seconds, up to 3 retries; a dropped connection or a read timeout on a GET
  is retried too. 500, 503 without Retry-After, and every fault on PATCH raise at once.
- lightkube (httpx2, no retries): every fault surfaces at once: ApiError for Status bodies,
  httpx2.RemoteProtocolError for a dropped connection, httpx2.ReadTimeout for a slow one.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import urllib3
from kubernetes import client
from kubernetes.client.exceptions import ApiException, ConflictException, ServiceException
from lightkube import ApiError, Client, KubeConfig
from lightkube.resources.core_v1 import Node

from .clients import header, official_api_client, status_body
from .faults import Fault, Faults, RequestInfo
from .objects import make_node
from .server import KubeStandin

NODE_PATH = "/api/v1/nodes/n1"
LABEL_PATCH = {"metadata": {"labels": {"patched": "yes"}}}


@pytest.fixture
def kube(kube_standin: KubeStandin) -> KubeStandin:
    kube_standin.store.add(make_node("n1"))
    return kube_standin


@pytest.fixture
def official(kubeconfig_path: Path) -> Iterator[Any]:
    api = official_api_client(kubeconfig_path)
    try:
        yield client.CoreV1Api(api)
    finally:
        api.close()


@pytest.fixture
def lk(kubeconfig_path: Path) -> Iterator[Client]:
    with Client(config=KubeConfig.from_file(kubeconfig_path), trust_env=False) as lk_client:
        yield lk_client


def _statuses(kube: KubeStandin) -> list[tuple[str, int | None, str | None]]:
    return [(r.method, r.status, r.fault) for r in kube.requests.records]


# ------------------------------------------------------------------ 429 Too Many Requests


def test_429_with_retry_after_lightkube_raises(kube: KubeStandin, lk: Client) -> None:
    kube.faults.throttle(1, retry_after=2, method="GET", path=NODE_PATH)
    with pytest.raises(ApiError) as throttled:
        lk.get(Node, "n1")
    assert throttled.value.status.code == 429
    assert throttled.value.status.reason == "TooManyRequests"
    assert throttled.value.response.headers["Retry-After"] == "2"
    assert throttled.value.response.headers["Content-Type"] == "application/json"
    assert throttled.value.status.details is not None and throttled.value.status.details.retryAfterSeconds == 2
    assert _statuses(kube) == [("GET", 429, "status 429")]
    assert lk.get(Node, "n1").metadata is not None  # bounded: the next call goes through
    assert kube.faults.pending == []


def test_429_with_retry_after_official_client_get_sleeps_and_retries(kube: KubeStandin, official: Any) -> None:
    kube.faults.throttle(1, retry_after=1, method="GET", path=NODE_PATH)
    started = time.monotonic()
    node = official.read_node("n1")
    elapsed = time.monotonic() - started
    assert node.metadata.name == "n1"
    assert 0.9 <= elapsed < 3  # urllib3 honoured Retry-After: 1
    assert _statuses(kube) == [("GET", 429, "status 429"), ("GET", 200, None)]


def test_429_official_client_gives_up_after_three_retries_and_never_retries_patch(
    kube: KubeStandin, official: Any
) -> None:
    kube.faults.throttle(5, retry_after=0, method="GET")
    with pytest.raises(ApiException) as throttled:
        official.read_node("n1")
    assert throttled.value.status == 429
    assert header(throttled.value, "Retry-After") == "0"
    assert status_body(throttled.value)["reason"] == "TooManyRequests"
    assert _statuses(kube) == [("GET", 429, "status 429")] * 4
    assert kube.faults.pending[0].remaining == 1

    kube.faults.clear()
    kube.requests.clear()
    kube.faults.throttle(1, retry_after=0, method="PATCH")
    with pytest.raises(ApiException) as patch_throttled:
        official.patch_node("n1", LABEL_PATCH)
    assert patch_throttled.value.status == 429
    assert _statuses(kube) == [("PATCH", 429, "status 429")]


# ------------------------------------------------------------------ 500 / 503


@pytest.mark.parametrize("code", [500, 503])
def test_5xx_without_retry_after_raises_in_both_clients(
    kube: KubeStandin, official: Any, lk: Client, code: int
) -> None:
    kube.faults.fail(code, 2, method="GET", path=NODE_PATH)
    with pytest.raises(ServiceException) as official_error:
        official.read_node("n1")
    with pytest.raises(ApiError) as lightkube_error:
        lk.get(Node, "n1")
    assert official_error.value.status == code
    assert lightkube_error.value.status.code == code
    reason = {500: "InternalError", 503: "ServiceUnavailable"}[code]
    assert status_body(official_error.value)["reason"] == reason
    assert lightkube_error.value.status.reason == reason
    assert _statuses(kube) == [("GET", code, f"status {code}")] * 2
    assert official.read_node("n1").metadata.name == "n1"


def test_503_with_retry_after_is_retried_by_official_client_only(kube: KubeStandin, official: Any, lk: Client) -> None:
    kube.faults.unavailable(1, retry_after=0, method="GET")
    assert official.read_node("n1").metadata.name == "n1"
    assert _statuses(kube) == [("GET", 503, "status 503"), ("GET", 200, None)]
    kube.faults.unavailable(1, retry_after=0, method="GET")
    with pytest.raises(ApiError) as unavailable:
        lk.get(Node, "n1")
    assert unavailable.value.response.headers["Retry-After"] == "0"


# ------------------------------------------------------------------ 409 on PATCH


def test_conflict_on_next_patch(kube: KubeStandin, official: Any, lk: Client) -> None:
    rv_before = kube.store.resource_version
    kube.faults.conflict(2)
    with pytest.raises(ConflictException) as official_conflict:
        official.patch_node("n1", LABEL_PATCH)
    with pytest.raises(ApiError) as lightkube_conflict:
        lk.patch(Node, "n1", LABEL_PATCH)
    message = (
        'Operation cannot be fulfilled on nodes "n1": the object has been modified; '
        "please apply your changes to the latest version and try again"
    )
    assert official_conflict.value.status == 409
    assert status_body(official_conflict.value)["message"] == message
    assert (lightkube_conflict.value.status.code, lightkube_conflict.value.status.reason) == (409, "Conflict")
    assert lightkube_conflict.value.status.message == message
    assert kube.store.resource_version == rv_before  # nothing was written
    patched = lk.patch(Node, "n1", LABEL_PATCH)
    assert patched.metadata and patched.metadata.labels and patched.metadata.labels["patched"] == "yes"
    assert [s for _, s, _ in _statuses(kube)] == [409, 409, 200]


# ------------------------------------------------------------------ dropped connections


def test_dropped_connection(kube: KubeStandin, official: Any, lk: Client) -> None:
    kube.faults.drop(1, method="GET")
    with pytest.raises(httpx2.RemoteProtocolError):
        lk.get(Node, "n1")
    assert _statuses(kube) == [("GET", None, "drop")]

    kube.requests.clear()
    kube.faults.drop(1, method="GET")
    assert official.read_node("n1").metadata.name == "n1"  # urllib3 retries an idempotent GET
    assert _statuses(kube) == [("GET", None, "drop"), ("GET", 200, None)]

    kube.requests.clear()
    kube.faults.drop(1, method="PATCH")
    with pytest.raises(urllib3.exceptions.ProtocolError):
        official.patch_node("n1", LABEL_PATCH)  # PATCH is not retried, and not wrapped in ApiException
    assert _statuses(kube) == [("PATCH", None, "drop")]
    node = kube.store.get("nodes", "n1")
    assert node is not None and "patched" not in node["metadata"]["labels"]

    kube.requests.clear()
    kube.faults.drop(4, method="GET")
    with pytest.raises(urllib3.exceptions.MaxRetryError):
        official.read_node("n1")
    assert _statuses(kube) == [("GET", None, "drop")] * 4


# ------------------------------------------------------------------ slow responses


def test_slow_response_within_and_beyond_client_timeouts(
    kube: KubeStandin, official: Any, kubeconfig_path: Path
) -> None:
    kube.faults.delay(0.3, 2, method="GET", path=NODE_PATH)
    started = time.monotonic()
    assert official.read_node("n1").metadata.name == "n1"
    assert time.monotonic() - started >= 0.3
    with Client(config=KubeConfig.from_file(kubeconfig_path), trust_env=False) as patient:
        started = time.monotonic()
        assert patient.get(Node, "n1").metadata is not None
        assert time.monotonic() - started >= 0.3
    assert _statuses(kube) == [("GET", 200, "delay 0.3s")] * 2

    kube.requests.clear()
    kube.faults.delay(0.6, 1, method="GET", path=NODE_PATH)
    with (
        Client(config=KubeConfig.from_file(kubeconfig_path), trust_env=False, timeout=httpx2.Timeout(0.2)) as hasty,
        pytest.raises(httpx2.ReadTimeout),
    ):
        hasty.get(Node, "n1")
    kube.faults.delay(0.6, 1, method="GET", path=NODE_PATH)
    started = time.monotonic()
    assert official.read_node("n1", _request_timeout=0.2).metadata.name == "n1"  # read timeout on GET: retried
    assert time.monotonic() - started < 0.6
    assert [r.fault for r in kube.requests.records] == ["delay 0.6s", "delay 0.6s", None]


# ------------------------------------------------------------------ kubectl (client-go)

KUBECTL = shutil.which("kubectl")


@pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed")
def test_kubectl_retries_429_with_retry_after_and_reports_500(
    kube: KubeStandin, kubeconfig_path: Path, tmp_path: Path
) -> None:
    assert KUBECTL is not None
    cmd = [
        KUBECTL,
        "--kubeconfig",
        str(kubeconfig_path),
        "--cache-dir",
        str(tmp_path),
        "get",
        "node",
        "n1",
        "-o",
        "name",
    ]
    kube.faults.throttle(1, retry_after=0, method="GET", path=NODE_PATH)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "node/n1")
    assert [r.status for r in kube.requests.find("GET", NODE_PATH)] == [429, 200]

    kube.faults.fail(500, 1, method="GET", path=NODE_PATH)
    failed = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)
    assert failed.returncode == 1
    assert "Error from server (InternalError): Internal error occurred: injected fault" in failed.stderr


# ------------------------------------------------------------------ the Faults API itself


def _info(method: str = "GET", path: str = NODE_PATH, query: dict[str, list[str]] | None = None) -> RequestInfo:
    return RequestInfo(method, path, query or {}, None, {})


def test_faults_are_bounded_and_predicates_combine() -> None:
    faults = Faults()
    with pytest.raises(ValueError, match="at least one request"):
        faults.fail(500, 0)
    with pytest.raises(ValueError, match="delay"):
        faults.delay(0)
    with pytest.raises(ValueError, match="4xx or 5xx"):
        faults.fail(200)

    by_glob = faults.fail(500, 1, method=["GET", "put"], path="/api/v1/nodes*")
    by_regex = faults.drop(1, path=re.compile(r"/nodes/n\d$"))
    watches = faults.fail(410, 1, where=lambda info: info.is_watch)
    slow = faults.delay(0.01, 2, method="GET")

    assert faults.take(_info("PATCH", "/api/v1/namespaces")) == (0.0, [], None)
    delay, delays, answer = faults.take(_info("GET", "/api/v1/nodes/n1"))
    assert (delay, delays, answer) == (0.01, [slow], by_glob)
    assert faults.take(_info("DELETE", "/api/v1/nodes/n7"))[2] is by_regex
    assert faults.take(_info("GET", "/api/v1/pods", {"watch": ["true"]}))[2] is watches
    assert faults.take(_info("GET", "/api/v1/nodes/n1")) == (0.0, [], None)
    assert [f.hits for f in (by_glob, by_regex, watches, slow)] == [1, 1, 1, 2]
    assert faults.pending == []
    assert len(faults.all) == 4

    custom = faults.add(Fault("status", 3, status=504))
    assert custom.remaining == 3 and custom.label() == "status 504"
    faults.clear()
    assert faults.all == []


def test_injected_status_bodies_have_the_exact_content_type(kube: KubeStandin, lk: Client) -> None:
    kube.faults.fail(504, 1, message="slow etcd")
    with pytest.raises(ApiError) as timeout:
        lk.get(Node, "n1")
    assert timeout.value.response.headers["Content-Type"] == "application/json"
    assert (timeout.value.status.code, timeout.value.status.reason, timeout.value.status.message) == (
        504,
        "Timeout",
        "slow etcd",
    )
