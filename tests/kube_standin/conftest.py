"""Fixtures: a started stand-in per test, and a kubeconfig file pointing at it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .server import KubeStandin

TEST_TOKEN = "test-token"


@pytest.fixture
def kube_standin() -> Iterator[KubeStandin]:
    """A running stand-in with only the default namespaces; add objects with `.store.add(make_node(...))`."""
    kube = KubeStandin.start()
    try:
        yield kube
    finally:
        kube.stop()
    assert kube.internal_errors == [], "the stand-in answered 500 for its own bug"


@pytest.fixture
def kubeconfig_path(kube_standin: KubeStandin, tmp_path: Path) -> Path:
    """A kubeconfig (context "standin", token user "test-token") for the `kube_standin` server."""
    return kube_standin.write_kubeconfig(tmp_path / "kubeconfig", token=TEST_TOKEN)
