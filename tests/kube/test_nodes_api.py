"""NodeClient against the stand-in over real HTTP: pagination, selectors, retries, fail-fast auth errors."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from gpuready.kube.errors import ConflictError, KubeApiError, KubeAuthError, KubeUnreachableError
from gpuready.kube.nodes_api import NodeClient, connect
from gpuready.kube.retry import RetryPolicy
from tests.kube.conftest import Sleeps
from tests.kube_standin import KubeStandin, make_node


def _seed(kube: KubeStandin, count: int, gpu_every: int = 2) -> None:
    for i in range(count):
        labels = {"pool": "gpu" if i % gpu_every == 0 else "cpu", "zone": f"z{i % 3}"}
        kube.store.add(make_node(f"node-{i:05d}", labels=labels))


@pytest.mark.parametrize(("count", "pages"), [(0, 1), (499, 1), (500, 1), (501, 2), (1203, 3)])
def test_list_paginates_at_500(kube_standin: KubeStandin, client: NodeClient, count: int, pages: int) -> None:
    _seed(kube_standin, count)
    kube_standin.requests.clear()
    listing = client.list_nodes()
    assert len(listing.items) == count
    assert len({n["metadata"]["name"] for n in listing.items}) == count
    assert client.calls["list"] == pages
    requests = kube_standin.requests.find("GET", "/api/v1/nodes")
    assert len(requests) == pages
    assert [r.param("limit") for r in requests] == ["500"] * pages
    assert requests[0].param("continue") is None and all(r.param("continue") for r in requests[1:])
    assert listing.resource_version == kube_standin.store.resource_version


def test_label_selector_is_passed_verbatim(kube_standin: KubeStandin, client: NodeClient) -> None:
    _seed(kube_standin, 12)  # pool=gpu on even nodes, zone z0/z1/z2 round robin
    selector = "pool in (gpu),zone!=z1"
    listing = client.list_nodes(selector)
    names = sorted(n["metadata"]["name"] for n in listing.items)
    assert names == ["node-00000", "node-00002", "node-00006", "node-00008"]
    assert kube_standin.requests.records[-1].param("labelSelector") == selector


def test_bad_selector_is_a_clear_api_error_without_retries(kube_standin: KubeStandin, client: NodeClient) -> None:
    with pytest.raises(KubeApiError) as raised:
        client.list_nodes("pool in (gpu")
    assert raised.value.status == 400
    assert client.calls["list"] == 1


def test_429_is_retried_honouring_retry_after(kube_standin: KubeStandin, client: NodeClient, sleeps: Sleeps) -> None:
    _seed(kube_standin, 3)
    kube_standin.faults.throttle(2, retry_after=3, method="GET")
    assert len(client.list_nodes().items) == 3
    assert client.calls["list"] == 3
    assert sleeps == [3.0, 3.0]  # Retry-After, not the (much shorter) backoff
    assert [r.status for r in kube_standin.requests.find("GET", "/api/v1/nodes")] == [429, 429, 200]


def test_429_retry_after_is_really_waited(kubeconfig_path: Path, kube_standin: KubeStandin) -> None:
    kube_standin.faults.throttle(1, retry_after=1, method="GET")
    with connect(str(kubeconfig_path), env={}) as real_client:
        started = time.monotonic()
        real_client.list_nodes()
        assert time.monotonic() - started >= 1.0
        assert real_client.calls["list"] == 2


def test_5xx_is_retried_with_growing_jittered_backoff(
    kube_standin: KubeStandin, client: NodeClient, sleeps: Sleeps
) -> None:
    kube_standin.faults.fail(500, 1, method="GET")
    kube_standin.faults.unavailable(1, method="GET")
    kube_standin.faults.fail(504, 1, method="GET")
    client.list_nodes()
    assert client.calls["list"] == 4
    assert sleeps == pytest.approx([0.075, 0.15, 0.3])  # base 0.1 * 2**n, equal jitter at rand=0.5


def test_backoff_stays_within_bounds() -> None:
    policy = RetryPolicy(base=0.25, cap=8.0)
    for retry in range(10):
        ceiling = min(8.0, 0.25 * 2**retry)
        assert ceiling / 2 <= policy.delay(retry) <= ceiling
    assert policy.delay(0, retry_after=120) == 30.0


def test_dropped_connection_is_retried_mid_pagination(kube_standin: KubeStandin, client: NodeClient) -> None:
    _seed(kube_standin, 1100)
    kube_standin.faults.drop(1, where=lambda info: "continue" in info.query)
    listing = client.list_nodes()
    assert len(listing.items) == 1100
    assert client.calls["list"] == 4  # 3 pages + the dropped retry of page 2 (same continue token)
    second, retried = kube_standin.requests.find("GET", "/api/v1/nodes")[1:3]
    assert second.param("continue") == retried.param("continue")


def test_slow_response_times_out_and_is_retried(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.faults.delay(2.0, 1, method="GET")  # the client's read timeout is 1 s
    started = time.monotonic()
    client.list_nodes()
    assert client.calls["list"] == 2
    assert time.monotonic() - started < 1.9


def test_retries_are_bounded(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.faults.unavailable(10, method="GET")
    with pytest.raises(KubeApiError, match="gave up after 5 attempts") as raised:
        client.list_nodes()
    assert raised.value.status == 503
    assert client.calls["list"] == 5


def test_a_patch_is_conditioned_and_a_conflict_is_handed_back_not_retried(
    kube_standin: KubeStandin, client: NodeClient
) -> None:
    node = kube_standin.store.add(make_node("gpu-1"))
    read_at = node["metadata"]["resourceVersion"]
    kube_standin.store.label("Node", "gpu-1", {"nvidia.com/gpu.present": "false"})  # another writer
    with pytest.raises(ConflictError, match="the node changed since it was read"):
        client.patch_node_labels("gpu-1", {"skypilot.co/accelerator": "h100"}, read_at)
    patches = kube_standin.requests.find("PATCH", "/api/v1/nodes/gpu-1")
    assert [p.status for p in patches] == [409]  # sending the same conditioned body again cannot succeed
    assert patches[0].json() == {
        "metadata": {"labels": {"skypilot.co/accelerator": "h100"}, "resourceVersion": read_at}
    }
    now = client.get_node("gpu-1")
    updated = client.patch_node_labels("gpu-1", {"skypilot.co/accelerator": "h100"}, now["metadata"]["resourceVersion"])
    assert updated["metadata"]["labels"]["skypilot.co/accelerator"] == "h100"
    assert updated["metadata"]["labels"]["nvidia.com/gpu.present"] == "false"
    assert {p.content_type for p in kube_standin.requests.find("PATCH")} == {"application/merge-patch+json"}


def test_conflict_on_a_read_is_not_retried(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.faults.fail(409, 1, method="GET")
    with pytest.raises(KubeApiError):
        client.list_nodes()
    assert client.calls["list"] == 1


def test_401_fails_fast_naming_who_we_are(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.faults.fail(401, 5, method="GET")
    with pytest.raises(KubeAuthError) as raised:
        client.list_nodes()
    assert client.calls["list"] == 1
    message = str(raised.value)
    assert "401 Unauthorized" in message
    assert "context 'standin', user 'standin' (bearer token) at http://127.0.0.1:" in message
    assert message.endswith("then: kubectl get nodes")


def test_403_fails_fast_naming_the_missing_permission_and_the_rbac_manifests(
    kube_standin: KubeStandin, client: NodeClient
) -> None:
    kube_standin.store.add(make_node("gpu-1"))
    forbidden = 'nodes "gpu-1" is forbidden: User "system:serviceaccount:ops:gpuready" cannot patch resource "nodes"'
    kube_standin.faults.fail(403, 5, method="PATCH", message=forbidden)
    with pytest.raises(KubeAuthError) as raised:
        client.patch_node_labels("gpu-1", {"a": "b"})
    assert client.calls["patch"] == 1
    message = str(raised.value)
    assert forbidden in message
    assert "'patch' on 'nodes'" in message
    assert "deploy/rbac/label.yaml" in message
    assert message.endswith("kubectl auth can-i patch nodes")


def test_wrong_token_is_rejected_by_a_strict_server(tmp_path: Path) -> None:
    with KubeStandin.start(token="right") as strict:
        config = strict.write_kubeconfig(tmp_path / "kubeconfig", token="wrong")
        with connect(str(config), env={}) as wrong, pytest.raises(KubeAuthError) as raised:
            wrong.list_nodes()
        assert raised.value.status == 401


def test_refused_connection_fails_fast(tmp_path: Path) -> None:
    with KubeStandin.start() as gone:
        config = gone.write_kubeconfig(tmp_path / "kubeconfig")
    started = time.monotonic()
    with connect(str(config), env={}) as orphan, pytest.raises(KubeUnreachableError, match="cannot connect"):
        orphan.list_nodes()
    assert time.monotonic() - started < 2
    assert orphan.calls["list"] == 1


def test_expired_continue_token_restarts_the_list(kube_standin: KubeStandin, client: NodeClient) -> None:
    _seed(kube_standin, 600)
    kube_standin.faults.fail(410, 1, where=lambda info: "continue" in info.query)
    assert len(client.list_nodes().items) == 600
    assert client.calls["list"] == 4  # page 1, expired page 2, then pages 1 and 2 again
