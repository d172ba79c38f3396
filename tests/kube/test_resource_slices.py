"""Listing ResourceSlices over real HTTP: paginated, retried like nodes, and None when resource.k8s.io is absent."""

from __future__ import annotations

import pytest

from gpuready.kube.errors import KubeApiError
from gpuready.kube.nodes_api import NodeClient
from gpuready.kube.resource_slices import list_resource_slices
from tests.kube_standin import KubeStandin, make_resource_slice

SLICES = "/apis/resource.k8s.io/v1/resourceslices"


def test_every_slice_is_listed_across_pages(kube_standin: KubeStandin, client: NodeClient) -> None:
    for index in range(5):
        kube_standin.store.add(make_resource_slice(f"n{index}", index + 1))
    client.page_size = 2
    listed = list_resource_slices(client)
    assert listed is not None
    assert sorted((s["spec"]["nodeName"], len(s["spec"]["devices"])) for s in listed) == [
        (f"n{i}", i + 1) for i in range(5)
    ]
    assert kube_standin.requests.count("GET", SLICES) == 3


def test_a_cluster_without_the_api_has_no_slices(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.faults.fail(404, path=SLICES)
    assert list_resource_slices(client) is None


def test_overload_is_retried_then_reported(kube_standin: KubeStandin, client: NodeClient) -> None:
    kube_standin.store.add(make_resource_slice("n1", 1))
    kube_standin.faults.fail(503, times=2, path=SLICES)
    assert len(list_resource_slices(client) or []) == 1
    kube_standin.faults.fail(500, times=10, path=SLICES)
    with pytest.raises(KubeApiError) as caught:
        list_resource_slices(client)
    assert caught.value.status == 500
