"""Fixture: every monitor ``run_program`` makes during a test, kept even when the program raises."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.offline import runner
from tests.stacks.program_runs import RecordingMonitor


@pytest.fixture
def monitors(monkeypatch: pytest.MonkeyPatch) -> list[RecordingMonitor]:
    made: list[RecordingMonitor] = []

    class Kept(RecordingMonitor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(runner, "CaptureMonitor", Kept)
    return made
