"""Pulumi mock runtime for the GPU stack component tests (fixture ``mocked``; see ``tests/pulumi_mocks.py``).

The monitor also keeps the provider reference each resource was registered with, to check that the children
use the Kubernetes provider given to the component.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pulumi
import pytest
from pulumi.runtime import mocks as pulumi_mocks

from tests.pulumi_mocks import STACK_TYPE, CapturingMonitor, RecordingMocks, Registration

NAMESPACE = "kubernetes:core/v1:Namespace"
CONFIG_MAP = "kubernetes:core/v1:ConfigMap"
RESOURCE_QUOTA = "kubernetes:core/v1:ResourceQuota"
RELEASE = "kubernetes:helm.sh/v3:Release"
K8S_PROVIDER = "pulumi:providers:kubernetes"


class ProviderRecordingMonitor(CapturingMonitor):
    """A ``CapturingMonitor`` that also records ``resource URN -> provider reference`` (``<urn>::<id>``) and the
    type of every registration, the root stack's included."""

    def __init__(self, mocks: pulumi_mocks.Mocks) -> None:
        super().__init__(mocks)
        self._providers_lock = threading.Lock()
        self.providers: dict[str, str] = {}
        self.requested_types: list[str] = []

    def RegisterResource(self, request: Any) -> Any:
        response = super().RegisterResource(request)
        with self._providers_lock:
            self.providers[response.urn] = request.provider
            self.requested_types.append(request.type)
        return response

    def children_of(self, parent: Registration) -> list[Registration]:
        return [r for r in self.registrations if r.parent == parent.urn]

    def assert_nothing_registered(self) -> None:
        """Not a single resource (the root stack, when the mock runtime makes one, is not the program's)."""
        assert self.registrations == []
        assert set(self.requested_types) <= {STACK_TYPE}, self.requested_types


@pytest.fixture
def mocked() -> Iterator[ProviderRecordingMonitor]:
    """Fresh mocks and a fresh monitor for every test (``set_mocks`` is process-global)."""
    monitor = ProviderRecordingMonitor(RecordingMocks())
    pulumi.runtime.set_mocks(monitor.mocks, project="gpuready", stack="test", preview=False, monitor=monitor)
    yield monitor
