"""Pulumi mock runtime for the cluster provider tests: fixture ``mocked`` and the invokes it answered."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from pulumi.runtime import mocks as pulumi_mocks

from tests.pulumi_mocks import CapturingMonitor, RecordingMocks, install_mocks


class InvokeRecordingMocks(RecordingMocks):
    """``RecordingMocks`` that also keep every invoke's token and arguments."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self.invokes: list[tuple[str, dict[str, Any]]] = []

    def call(self, args: pulumi_mocks.MockCallArgs) -> tuple[dict[str, Any], list[tuple[str, str]] | None]:
        with self._lock:
            self.invokes.append((args.token, dict(args.args)))
        return super().call(args)


@dataclass
class MockedRun:
    monitor: CapturingMonitor
    mocks: InvokeRecordingMocks = field(repr=False)


@pytest.fixture
def mocked() -> Iterator[MockedRun]:
    mocks = InvokeRecordingMocks()
    yield MockedRun(install_mocks(mocks), mocks)
