"""Pulumi mock runtime for the scheduler component tests (fixture ``mocked``; see ``tests/pulumi_mocks.py``)."""

from __future__ import annotations

from tests.pulumi_mocks import mock_runtime_fixture

mocked = mock_runtime_fixture()
