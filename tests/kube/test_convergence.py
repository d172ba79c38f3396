"""wait_for_nodes: one LIST, then WATCH from its resourceVersion until the nodes converge or time runs out."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from gpuready.kube.convergence import wait_for_nodes
from gpuready.kube.nodes_api import NodeClient
from tests.kube.watching import when_watching
from tests.kube_standin import KubeStandin, make_node

Nodes = Mapping[str, Mapping[str, Any]]


def labeled(nodes: Nodes) -> int:
    return sum(1 for n in nodes.values() if n["metadata"]["labels"].get("ready-for-gpus") == "yes")


def test_converges_when_labels_land_from_another_thread(kube_standin: KubeStandin, client: NodeClient) -> None:
    for name in ("gpu-a", "gpu-b"):
        kube_standin.store.add(make_node(name, labels={"pool": "gpu"}))
    kube_standin.store.add(make_node("cpu-a", labels={"pool": "cpu"}))
    listed_at = kube_standin.store.resource_version
    seen: list[int] = []

    def land() -> None:
        kube_standin.store.label("Node", "cpu-a", {"ready-for-gpus": "yes"})  # filtered out by the selector
        kube_standin.store.label("Node", "gpu-a", {"ready-for-gpus": "yes"})
        time.sleep(0.1)
        kube_standin.store.label("Node", "gpu-b", {"ready-for-gpus": "yes"})

    thread = when_watching(kube_standin, land)
    outcome = wait_for_nodes(client, "pool=gpu", labeled, lambda n: n == 2, timeout=10, on_change=seen.append)
    thread.join()
    assert outcome.converged and outcome.state == 2
    assert outcome.waited < 5
    assert seen == [0, 1, 2]
    lists = kube_standin.requests.find("GET", "/api/v1/nodes", watch=False)
    watches = kube_standin.requests.find("GET", "/api/v1/nodes", watch=True)
    assert len(lists) == 1 and len(watches) == 1  # no polling
    assert watches[0].param("resourceVersion") == listed_at  # the list's version: no event is missed
    assert watches[0].param("labelSelector") == "pool=gpu"
    assert int(watches[0].param("timeoutSeconds") or 0) == 10


def test_already_converged_needs_no_watch(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.store.add(make_node("gpu-a", labels={"ready-for-gpus": "yes"}))
    outcome = wait_for_nodes(client, "", labeled, lambda n: n == 1, timeout=5)
    assert outcome.converged
    assert kube_standin.requests.find("GET", "/api/v1/nodes", watch=True) == []


def test_times_out_when_nodes_never_converge(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.store.add(make_node("gpu-a"))
    outcome = wait_for_nodes(client, "", labeled, lambda n: n == 1, timeout=1.2)
    assert not outcome.converged and outcome.state == 0
    assert 1.2 <= outcome.waited < 4
    assert client.calls["list"] == 1


def test_new_nodes_joining_are_seen(kube_standin: KubeStandin, client: NodeClient) -> None:
    thread = when_watching(
        kube_standin, lambda: kube_standin.store.add(make_node("late", labels={"ready-for-gpus": "yes"}))
    )
    outcome = wait_for_nodes(client, "", labeled, lambda n: n == 1, timeout=5)
    thread.join()
    assert outcome.converged


def test_watch_resumes_after_a_dropped_stream_from_the_last_version(
    kube_standin: KubeStandin, client: NodeClient
) -> None:
    kube_standin.store.add(make_node("gpu-a"))
    kube_standin.faults.drop(1, where=lambda info: info.is_watch)
    thread = when_watching(kube_standin, lambda: kube_standin.store.label("Node", "gpu-a", {"ready-for-gpus": "yes"}))
    outcome = wait_for_nodes(client, "", labeled, lambda n: n == 1, timeout=5)
    thread.join()
    assert outcome.converged
    watches = kube_standin.requests.find("GET", "/api/v1/nodes", watch=True)
    assert len(watches) >= 2
    assert watches[0].param("resourceVersion") == watches[1].param("resourceVersion")


def test_expired_watch_lists_again(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.store.add(make_node("gpu-a"))
    kube_standin.faults.fail(410, 1, where=lambda info: info.is_watch)
    thread = when_watching(kube_standin, lambda: kube_standin.store.label("Node", "gpu-a", {"ready-for-gpus": "yes"}))
    outcome = wait_for_nodes(client, "", labeled, lambda n: n == 1, timeout=5)
    thread.join()
    assert outcome.converged
    assert client.calls["list"] >= 2
