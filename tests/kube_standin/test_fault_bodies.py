"""The fault kinds added for issue #11, seen raw over HTTP: malformed success bodies, HTML pages, in-band ERRORs."""

from __future__ import annotations

import json

import httpx2
import pytest

from .faults import HTML_ERROR_PAGE, TRUNCATED_NODE_LIST
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
