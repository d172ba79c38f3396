"""Faults against the real-HTTP stand-in: deadlines that hold, watches that back off, malformed bodies retried.

These clients sleep for real (the default ``RetryPolicy``), so wall times are what a user would see; deadlines
are a few seconds and the bounds generous (CI has 2 busy cores).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from gpuready.kube.convergence import MAX_REQUESTS_PER_MINUTE, _Pacer, wait_for_nodes
from gpuready.kube.deadline import Deadline
from gpuready.kube.errors import DeadlineError, KubeApiError, KubeUnreachableError, MalformedResponseError
from gpuready.kube.nodes_api import NodeClient, connect
from gpuready.kube.retry import RetryPolicy
from tests.kube.watching import when_watching
from tests.kube_standin import KubeStandin, make_node
from tests.kube_standin.faults import HTML_ERROR_PAGE

SLACK = 2.0
"""Seconds a wait may overrun its deadline on a busy machine (the old code overran by 38-117 s)."""


@pytest.fixture
def real(kubeconfig_path: Path) -> Iterator[NodeClient]:
    """A client that sleeps for real: 5 attempts, 0.1 s base backoff."""
    with connect(str(kubeconfig_path), policy=RetryPolicy(base=0.1), timeout=5.0, env={}) as client:
        yield client


def count(nodes: Mapping[str, object]) -> int:
    return len(nodes)


def test_a_retry_after_beyond_the_deadline_is_not_waited(kube_standin: KubeStandin, real: NodeClient) -> None:
    kube_standin.faults.unavailable(10, retry_after=3600, method="GET")
    real.deadline = Deadline(2)
    start = time.monotonic()
    with pytest.raises(DeadlineError, match="retry after 3600s, beyond the 2s deadline") as raised:
        real.list_nodes()
    assert time.monotonic() - start < 2 + SLACK
    assert "503" in raised.value.last
    assert kube_standin.requests.count("GET") == 1  # nothing is retried past the deadline


def test_backoff_stops_at_the_deadline_and_reports_progress(kube_standin: KubeStandin, kubeconfig_path: Path) -> None:
    kube_standin.faults.unavailable(100, retry_after=1, method="GET")
    heard: list[str] = []
    policy = RetryPolicy(attempts=100)
    with connect(str(kubeconfig_path), policy=policy, env={}, deadline=Deadline(2.5), progress=heard.append) as c:
        start = time.monotonic()
        with pytest.raises(DeadlineError, match=r"beyond the 2\.5s deadline"):
            c.list_nodes()
    assert time.monotonic() - start < 2.5 + SLACK
    assert 2 <= kube_standin.requests.count("GET") <= 6
    assert heard and heard[0].startswith("retrying list nodes in ") and "s left" in heard[0] and "503" in heard[0]


def test_a_hanging_server_is_cut_at_the_deadline(kube_standin: KubeStandin, real: NodeClient) -> None:
    kube_standin.faults.delay(20, 3, method="GET")
    real.deadline = Deadline(1.5)
    start = time.monotonic()
    with pytest.raises(DeadlineError):
        real.list_nodes()
    assert time.monotonic() - start < 1.5 + SLACK


@pytest.mark.parametrize(
    ("fault", "why"),
    [
        ({}, "truncated"),
        ({"body": b'{"kind":"NodeList","items":[]} trailing'}, "malformed"),
        ({"body": HTML_ERROR_PAGE, "content_type": "text/html"}, "content type 'text/html', not JSON"),
        ({"body": b"[]", "content_type": "application/octet-stream"}, "content type"),
    ],
    ids=["truncated-json", "trailing-garbage", "html-page", "wrong-content-type"],
)
def test_malformed_success_bodies_are_retried_then_reported(
    kube_standin: KubeStandin, real: NodeClient, fault: dict[str, object], why: str
) -> None:
    kube_standin.store.add(make_node("gpu-a"))
    kube_standin.faults.malformed(2, method="GET", **fault)  # type: ignore[arg-type]
    assert [n["metadata"]["name"] for n in real.list_nodes().items] == ["gpu-a"]
    assert real.calls["list"] == 3
    kube_standin.faults.malformed(5, method="GET", **fault)  # type: ignore[arg-type]
    with pytest.raises(MalformedResponseError, match=why) as raised:
        real.list_nodes()
    assert raised.value.transient and "gave up after 5 attempts" in str(raised.value)


def test_an_in_band_410_storm_relists_with_backoff_not_in_a_hot_loop(
    kube_standin: KubeStandin, real: NodeClient
) -> None:
    kube_standin.store.add(make_node("gpu-a"))
    kube_standin.faults.watch_error(410, 10_000)
    heard: list[str] = []
    start = time.monotonic()
    outcome = wait_for_nodes(real, "", count, lambda n: n == 2, timeout=4, on_retry=heard.append)
    elapsed = time.monotonic() - start
    assert not outcome.converged and outcome.state == 1
    assert elapsed < 4 + SLACK
    lists = kube_standin.requests.find("GET", "/api/v1/nodes", watch=False)
    watches = kube_standin.requests.find("GET", "/api/v1/nodes", watch=True)
    assert 2 <= len(watches) <= 10
    assert len(watches) <= len(lists) <= len(watches) + 1  # a fresh LIST after every 410
    assert kube_standin.requests.peak_rate(1.0) <= 6  # was 1,000 LISTs and 1,000 WATCHes in 9 s
    assert "410" in outcome.problem and any("listing again" in line for line in heard)


def test_the_per_minute_bound_holds_even_when_every_round_fails_fast() -> None:
    now = [0.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    pacer = _Pacer(sleep, Deadline(600, lambda: now[0]), lambda: now[0], None)
    for _ in range(MAX_REQUESTS_PER_MINUTE * 3):
        pacer.request()
        now[0] += 0.01  # the server fails at once
    assert now[0] >= 2 * 60  # three minutes' worth of requests took at least two minutes
    opened = MAX_REQUESTS_PER_MINUTE * 3
    assert opened / now[0] <= MAX_REQUESTS_PER_MINUTE / 60 * 1.5


def test_an_in_band_500_is_retried_like_its_http_twin(kube_standin: KubeStandin, real: NodeClient) -> None:
    kube_standin.store.add(make_node("gpu-a"))
    kube_standin.faults.watch_error(500, 2)
    added = when_watching(kube_standin, lambda: _add_later(kube_standin))
    outcome = wait_for_nodes(real, "", count, lambda n: n == 2, timeout=10)
    added.join()
    assert outcome.converged and outcome.state == 2
    assert len(kube_standin.requests.find("GET", "/api/v1/nodes", watch=True)) >= 3


def _add_later(kube: KubeStandin) -> None:
    deadline = time.monotonic() + 10
    while len(kube.requests.find("GET", "/api/v1/nodes", watch=True)) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.1)
    kube.store.add(make_node("gpu-b"))


def test_a_failing_list_ends_at_the_deadline_with_the_state_so_far(kube_standin: KubeStandin, real: NodeClient) -> None:
    kube_standin.faults.unavailable(1000, retry_after=10, method="GET")
    start = time.monotonic()
    outcome = wait_for_nodes(real, "", count, lambda n: n == 1, timeout=3)
    assert time.monotonic() - start < 3 + SLACK
    assert not outcome.converged and outcome.state == 0
    assert "503" in outcome.problem


def test_errors_that_waiting_cannot_fix_end_the_wait_at_once(kube_standin: KubeStandin, real: NodeClient) -> None:
    kube_standin.faults.fail(400, 1, method="GET", message="unable to parse requirement")
    start = time.monotonic()
    with pytest.raises(KubeApiError, match="400") as raised:
        wait_for_nodes(real, "a b", count, lambda n: n == 1, timeout=10)
    assert not raised.value.transient
    assert time.monotonic() - start < SLACK


def test_a_watch_answered_with_an_html_page_is_retried_with_backoff(
    kube_standin: KubeStandin, real: NodeClient
) -> None:
    kube_standin.store.add(make_node("gpu-a"))
    kube_standin.faults.malformed(2, body=HTML_ERROR_PAGE, content_type="text/html", where=lambda info: info.is_watch)
    heard: list[str] = []
    added = when_watching(kube_standin, lambda: _add_later(kube_standin))
    outcome = wait_for_nodes(real, "", count, lambda n: n == 2, timeout=10, on_retry=heard.append)
    added.join()
    assert outcome.converged
    assert sum("watch nodes: malformed response" in line for line in heard) == 2


def test_a_refused_first_list_ends_the_wait_at_once(kubeconfig_path: Path, kube_standin: KubeStandin) -> None:
    kube_standin.stop()  # nothing listens on the kubeconfig's port any more
    with connect(str(kubeconfig_path), policy=RetryPolicy(base=0.1), env={}) as client:
        start = time.monotonic()
        with pytest.raises(KubeUnreachableError, match="cannot connect") as raised:
            wait_for_nodes(client, "", count, lambda n: n == 1, timeout=30)
    assert raised.value.refused
    assert time.monotonic() - start < SLACK


def test_a_trickled_body_is_cut_at_the_deadline(kube_standin: KubeStandin, real: NodeClient) -> None:
    for index in range(20):
        kube_standin.store.add(make_node(f"gpu-{index}"))
    kube_standin.faults.trickle(64, 0.2, 10, method="GET")
    real.deadline = Deadline(1.5)
    start = time.monotonic()
    with pytest.raises(DeadlineError, match="still arriving"):
        real.list_nodes()
    assert time.monotonic() - start < 1.5 + SLACK
    assert kube_standin.requests.count("GET") == 1  # not retried: the deadline is spent
