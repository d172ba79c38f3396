"""Pulumi mock runtime for this package's component tests (fixture ``mocked``; see ``tests/pulumi_mocks.py``)."""

from tests.pulumi_mocks import mock_runtime_fixture

mocked = mock_runtime_fixture()
