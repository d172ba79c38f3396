"""lightkube wiring: AttemptTransport with answers the stand-in does not give (bare proxies, odd bodies), the Node."""

from __future__ import annotations

from collections.abc import Callable

import httpx2
import pytest
from lightkube import KubeConfig
from lightkube.config.models import Cluster, User

from gpuready.kube.errors import KubeApiError, KubeConfigError
from gpuready.kube.nodes_api import NodeClient, node_client
from gpuready.kube.retry import RetryPolicy

Handler = Callable[[httpx2.Request], httpx2.Response]
NODE_LIST = b'{"kind":"NodeList","metadata":{"resourceVersion":"7"},"items":[{"metadata":{"name":"n1"}}]}'


def _client(handler: Handler, sleeps: list[float]) -> NodeClient:
    config = KubeConfig.from_one(cluster=Cluster(server="http://mock"), user=User()).get()
    assert config is not None
    http = httpx2.Client(transport=httpx2.MockTransport(handler), timeout=httpx2.Timeout(1.0))
    policy = RetryPolicy(attempts=3, base=0.1, sleep=sleeps.append, rand=lambda: 0.5)
    return node_client(config, http, policy=policy, description="context 'mock'")


def test_a_bare_proxy_502_without_content_type_is_retried_then_reported() -> None:
    sleeps: list[float] = []
    with _client(lambda _: httpx2.Response(502, content=b"<html>bad gateway</html>"), sleeps) as client:
        with pytest.raises(KubeApiError, match=r"list nodes: gave up after 3 attempts on http://mock; .*bad gateway"):
            client.list_nodes()
        assert client.calls["list"] == 3
    assert sleeps == pytest.approx([0.075, 0.15])


def test_a_non_json_error_without_content_type_is_a_clear_api_error() -> None:
    with _client(lambda _: httpx2.Response(404, content=b"no such route"), []) as client:
        with pytest.raises(KubeApiError, match="list nodes: 404 : no such route") as raised:
            client.list_nodes()
        assert raised.value.status == 404
        assert client.calls["list"] == 1


def test_http_date_retry_after_and_then_success() -> None:
    answers = iter([httpx2.Response(429, headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}, json={})])

    def handler(request: httpx2.Request) -> httpx2.Response:
        assert request.url.params["limit"] == "500"
        return next(answers, httpx2.Response(200, content=NODE_LIST, headers={"Content-Type": "application/json"}))

    sleeps: list[float] = []
    with _client(handler, sleeps) as client:
        listing = client.list_nodes()
    assert (listing.resource_version, [n["metadata"]["name"] for n in listing.items]) == ("7", ["n1"])
    assert sleeps == [0.0]  # a date in the past: retry at once


def test_a_failing_credential_plugin_is_not_retried() -> None:
    from lightkube.core.exceptions import ConfigError  # noqa: PLC0415

    def handler(_: httpx2.Request) -> httpx2.Response:
        raise ConfigError("Exec aws returned 255: token expired")

    with _client(handler, []) as client, pytest.raises(KubeConfigError, match="credentials for context 'mock'"):
        client.list_nodes()
    assert client.calls["list"] == 1


def test_the_generic_node_stays_out_of_lightkubes_resource_registry() -> None:
    from lightkube import codecs  # noqa: PLC0415

    from gpuready.kube.node_resource import Node  # noqa: PLC0415

    real = codecs.from_dict({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}})
    assert type(real) is not Node and codecs.resource_registry.get("v1", "Node") is not Node
