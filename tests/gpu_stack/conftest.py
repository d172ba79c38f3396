"""Pulumi mock runtime for the GPU stack component tests (fixture ``mocked``; see ``tests/pulumi_mocks.py``)."""

from __future__ import annotations

from tests.pulumi_mocks import mock_runtime_fixture

NAMESPACE = "kubernetes:core/v1:Namespace"
CONFIG_MAP = "kubernetes:core/v1:ConfigMap"
RESOURCE_QUOTA = "kubernetes:core/v1:ResourceQuota"
RELEASE = "kubernetes:helm.sh/v3:Release"
K8S_PROVIDER = "pulumi:providers:kubernetes"

mocked = mock_runtime_fixture()
