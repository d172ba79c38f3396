"""Fixtures: the Kubernetes API stand-in over real HTTP, and a fast retry policy that records its sleeps."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuready.kube.nodes_api import NodeClient, connect
from gpuready.kube.retry import RetryPolicy
from tests.kube_standin.conftest import kube_standin, kubeconfig_path

__all__ = ["kube_standin", "kubeconfig_path"]


class Sleeps(list[float]):
    """A RetryPolicy ``sleep`` that records each delay and sleeps a hundredth of it."""

    def __call__(self, seconds: float) -> None:
        import time  # noqa: PLC0415

        self.append(seconds)
        time.sleep(seconds / 100)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def client(kubeconfig_path: Path, sleeps: Sleeps) -> Iterator[NodeClient]:
    """A NodeClient for the stand-in: 5 attempts, 0.1 s base backoff (slept at 1/100), 1 s request timeout."""
    policy = RetryPolicy(attempts=5, base=0.1, sleep=sleeps, rand=lambda: 0.5)
    with connect(str(kubeconfig_path), policy=policy, timeout=1.0, env={}) as node_client:
        yield node_client
