"""The stand-in's fault injection: bounds and request predicates, and the fault bodies seen raw over HTTP."""

from __future__ import annotations

import json
import re

import httpx2
import pytest

from .faults import HTML_ERROR_PAGE, TRUNCATED_NODE_LIST, Fault, Faults, RequestInfo
from .objects import make_node
from .server import KubeStandin


def test_a_truncated_body_is_served_with_a_json_content_type_and_then_the_real_answer(
    kube_standin: KubeStandin,
) -> None:
    kube_standin.store.add(make_node("n1"))
    kube_standin.faults.malformed(1, method="GET")
    with httpx2.Client(base_url=kube_standin.url) as http:
        broken = http.get("/api/v1/nodes")
        fine = http.get("/api/v1/nodes")
    assert broken.status_code == 200 and broken.headers["content-type"] == "application/json"
    assert broken.content == TRUNCATED_NODE_LIST
    with pytest.raises(json.JSONDecodeError):
        json.loads(broken.content)
    assert [n["metadata"]["name"] for n in fine.json()["items"]] == ["n1"]
    assert [r.fault for r in kube_standin.requests] == ["body 200", None]


def test_an_html_page_can_stand_for_a_load_balancer_error(kube_standin: KubeStandin) -> None:
    kube_standin.faults.html_page(1, status=502)
    with httpx2.Client(base_url=kube_standin.url) as http:
        page = http.get("/api/v1/nodes")
    assert (page.status_code, page.headers["content-type"], page.content) == (502, "text/html", HTML_ERROR_PAGE)


@pytest.mark.parametrize(("code", "reason"), [(410, "Expired"), (500, "InternalError")])
def test_a_watch_error_is_one_in_band_event_after_a_200(kube_standin: KubeStandin, code: int, reason: str) -> None:
    kube_standin.faults.watch_error(code, 1)
    with httpx2.Client(base_url=kube_standin.url) as http:
        listed = http.get("/api/v1/nodes")  # not a watch: untouched
        watched = http.get("/api/v1/nodes", params={"watch": "true", "resourceVersion": "1"})
    assert listed.status_code == 200 and listed.json()["kind"] == "NodeList"
    assert watched.status_code == 200
    events = [json.loads(line) for line in watched.text.splitlines()]
    assert [(e["type"], e["object"]["code"], e["object"]["reason"]) for e in events] == [("ERROR", code, reason)]


def test_peak_rate_and_per_path_counts(kube_standin: KubeStandin) -> None:
    kube_standin.store.add(make_node("n1"))
    with httpx2.Client(base_url=kube_standin.url) as http:
        for _ in range(3):
            http.get("/api/v1/nodes")
        http.patch(
            "/api/v1/nodes/n1",
            content=b'{"metadata":{"labels":{"a":"b"}}}',
            headers={"Content-Type": "application/merge-patch+json"},
        )
    assert kube_standin.requests.peak_rate(60.0) == 4
    assert kube_standin.requests.peak_rate(60.0, method="GET") == 3
    assert kube_standin.requests.per_path("PATCH", "/api/v1/nodes/") == {"n1": 1}


def _info(
    method: str = "GET", path: str = "/api/v1/nodes/n1", query: dict[str, list[str]] | None = None
) -> RequestInfo:
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
