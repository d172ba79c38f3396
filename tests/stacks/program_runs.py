"""Running the REAL stack program offline for tests: config bags of the example stacks, runs, recorded monitors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gpuready.errors import ConfigError
from gpuready.offline import runner
from gpuready.offline.capture import STACK_TYPE, CapturedRun, CaptureMonitor
from gpuready.offline.project import Project, load_project
from gpuready.offline.pulumi_config import load_stack_config

ROOT = Path(__file__).resolve().parents[2]
PROJECT: Project = load_project(ROOT)


class RecordingMonitor(CaptureMonitor):
    """A CaptureMonitor that also remembers every RegisterResource type (the stack's too) and every
    RegisterResourceOutputs URN. Takes whatever arguments ``run_program`` passes to CaptureMonitor."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.requested_types: list[str] = []
        self.output_urns: list[str] = []

    def RegisterResource(self, request: Any) -> Any:
        self.requested_types.append(request.type)
        return super().RegisterResource(request)

    def RegisterResourceOutputs(self, request: Any) -> Any:
        self.output_urns.append(request.urn)
        return super().RegisterResourceOutputs(request)


def config_bag(stack: str, overrides: Sequence[str] = ()) -> dict[str, str]:
    """The engine's config bag of an example stack, with ``key=value`` overrides."""
    return dict(load_stack_config(PROJECT, stack, overrides=list(overrides)).values)


def run_stack(stack: str, config: Mapping[str, str]) -> CapturedRun:
    """The stack program run offline with ``config``."""
    return runner.run_program(
        PROJECT.program_dir, project=PROJECT.name, stack=stack, config=config, secret_keys=(), root_directory=ROOT
    )


def config_error_of(error: BaseException) -> ConfigError | None:
    """The ConfigError behind ``error`` (the SDK wraps the program's exception), if any."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, ConfigError):
            return seen
        seen = seen.__cause__
    return None


def assert_nothing_registered(monitors: Sequence[RecordingMonitor], stack: str) -> None:
    """The run made one monitor and registered nothing but (at most) its root stack."""
    assert len(monitors) == 1
    monitor = monitors[0]
    assert set(monitor.requested_types) <= {STACK_TYPE}, monitor.requested_types
    assert all(":pulumi:pulumi:Stack::" in urn for urn in monitor.output_urns), monitor.output_urns
    assert monitor.captured(project=PROJECT.name, stack=stack, preview=False).resources == ()
