"""Pulumi mock runtime for the scheduler component tests (fixture ``mocked``; see ``tests/pulumi_mocks.py``).

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

from tests.pulumi_mocks import CapturingMonitor, RecordingMocks


class ProviderRecordingMonitor(CapturingMonitor):
    """A ``CapturingMonitor`` that also records ``resource name -> provider reference``."""

    def __init__(self, mocks: pulumi_mocks.Mocks) -> None:
        super().__init__(mocks)
        self._providers_lock = threading.Lock()
        self.providers: dict[str, str] = {}

    def RegisterResource(self, request: Any) -> Any:
        response = super().RegisterResource(request)
        with self._providers_lock:
            self.providers[request.name] = request.provider
        return response


@pytest.fixture
def mocked() -> Iterator[ProviderRecordingMonitor]:
    """Fresh mocks and a fresh monitor for every test (``set_mocks`` is process-global)."""
    monitor = ProviderRecordingMonitor(RecordingMocks())
    pulumi.runtime.set_mocks(monitor.mocks, project="gpuready", stack="test", preview=False, monitor=monitor)
    yield monitor
