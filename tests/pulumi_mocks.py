"""Pulumi mock runtime for component tests: a capturing monitor, recording mocks and a fixture factory.

Pattern (pulumi SDK ``pulumi/runtime/mocks.py``: ``set_mocks``, ``MockMonitor``, ``test``): build fresh mocks
and a fresh monitor and call ``set_mocks`` in a function-scoped fixture (never at import, since ``set_mocks`` is
process-global), run the program under
``@pulumi.runtime.test`` (typed here as ``runtime_test``), then assert on what the monitor captured.
Registration order is random (RPCs run on a thread pool), so look resources up by type or name. Inputs
arrive under the providers' camelCase wire names and every number arrives as a float.

This is a plain module, not a conftest: each test package's ``conftest.py`` creates its fixture with
``mock_runtime_fixture()``.
"""

from __future__ import annotations

import asyncio
import gc
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, cast

import pulumi
import pytest
from pulumi.runtime import mocks as pulumi_mocks

from gpuready.offline.capture import CaptureMonitor, PlanMocks, RegisteredResource

STACK_TYPE = "pulumi:pulumi:Stack"

runtime_test = cast(Callable[[Callable[[], object]], Callable[[], None]], pulumi.runtime.test)
"""``pulumi.runtime.test`` with a type (the SDK leaves it untyped): decorate a program function with it, call
the result, and it returns once the program and every outstanding registration have finished."""


@contextmanager
def failing_program() -> Iterator[None]:
    """Around a program that is meant to fail: collect what it leaves behind before the test ends.

    A failed Pulumi program leaves futures whose exception nobody retrieved; asyncio logs them when they are
    garbage-collected, and Python 3.11 formats that traceback with ``ast.parse``. Were the collection to run in a
    later test, inside that test's own ``ast.parse`` (test_cloud_seam, the policy-pack wheel's import scan), the
    nested parse would break CPython's AST recursion bookkeeping ("SystemError: AST constructor recursion depth
    mismatch", CPython gh-106905, fixed in 3.11.8) for every parse after it. Collecting here logs them in the test
    that caused them, so no parse anywhere needs to guard against it."""
    try:
        yield
    finally:
        gc.collect()


Registration = RegisteredResource
"""One RegisterResource call as the engine would receive it (the offline engine's record)."""


class rotated:
    """Equal to ``<base>-<6 hex digits>``: the rotated cloud name of a pool (the digits follow the inputs)."""

    def __init__(self, base: str) -> None:
        self.pattern = re.compile(rf"{re.escape(base)}-[0-9a-f]{{6}}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and self.pattern.fullmatch(other) is not None

    def __repr__(self) -> str:
        return f"rotated({self.pattern.pattern!r})"

    __hash__ = None  # type: ignore[assignment]


RecordingMocks = PlanMocks
"""Resources echo their inputs as their state (plus what providers compute), with id ``<name>_id``; cluster
lookups get the offline plan's clearly fake answers: the offline engine's mocks."""


class CapturingMonitor(CaptureMonitor):
    """The offline engine's capture monitor (``gpuready.offline.capture.CaptureMonitor``) with the tests'
    lookups: one implementation records registrations for ``gpuready plan`` and for the tests."""

    @property
    def registrations(self) -> list[Registration]:
        """Every registration (the root stack's excepted), in registration order."""
        return self.registered()

    @property
    def requested_types(self) -> list[str]:
        """The type of every RegisterResource call, the root stack's included."""
        return self.requested()

    @property
    def outputs(self) -> dict[str, dict[str, Any]]:
        """Component URN -> the outputs it registered, decoded."""
        return self.registered_outputs()

    def of_type(self, type_token: str) -> list[Registration]:
        """Every registration of ``type_token``, in no particular order."""
        return [r for r in self.registrations if r.type == type_token]

    def one(self, type_token: str) -> Registration:
        """The single registration of ``type_token``; fails the test when there are none or several."""
        found = self.of_type(type_token)
        assert len(found) == 1, f"expected one {type_token}, got {[r.name for r in found]}"
        return found[0]

    def children_of(self, parent: Registration) -> list[Registration]:
        """The registrations whose parent is ``parent``."""
        return [r for r in self.registrations if r.parent == parent.urn]

    def assert_nothing_registered(self) -> None:
        """Not a single resource (the root stack, when the mock runtime makes one, is not the program's)."""
        assert self.registrations == []
        assert set(self.requested_types) <= {STACK_TYPE}, self.requested_types

    def outputs_of(self, registration: Registration) -> dict[str, Any]:
        """What the component registered with ``register_outputs``."""
        assert registration.urn in self.outputs, f"{registration.name} registered no outputs"
        return self.outputs[registration.urn]


def install_mocks(
    mocks: pulumi_mocks.Mocks | None = None, *, project: str = "gpuready", stack: str = "test", preview: bool = False
) -> CapturingMonitor:
    """Point the Pulumi runtime at fresh mocks (``RecordingMocks`` by default) and a fresh capturing monitor.

    Call it from a function-scoped fixture or at the start of a test, never at import.
    """
    _ensure_event_loop()
    monitor = CapturingMonitor(mocks or RecordingMocks())
    pulumi.runtime.set_mocks(monitor.mocks, project=project, stack=stack, preview=preview, monitor=monitor)
    return monitor


def mock_runtime_fixture(
    *, name: str = "mocked", project: str = "gpuready", stack: str = "test", preview: bool = False
) -> Callable[[], Iterator[CapturingMonitor]]:
    """A function-scoped pytest fixture ``name`` that installs fresh mocks and yields the capturing monitor."""

    @pytest.fixture(name=name)
    def _mock_runtime() -> Iterator[CapturingMonitor]:
        yield install_mocks(project=project, stack=stack, preview=preview)

    return _mock_runtime


def _ensure_event_loop() -> None:
    """``set_mocks`` needs a current event loop; ``asyncio.run`` elsewhere in the session leaves none behind."""
    try:
        asyncio.get_event_loop()
    except RuntimeError:
        asyncio.set_event_loop(asyncio.new_event_loop())
