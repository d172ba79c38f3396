"""The chart facts the policy rules encode match the released charts' ``values.yaml``.

Sources (read from ``../shared/reference/upstream/``, provenance in its ``SOURCES.md``): NVIDIA/gpu-operator v26.7.0
``deployments/gpu-operator/values.yaml`` and NVIDIA/k8s-device-plugin v0.20.0
``deployments/helm/nvidia-device-plugin/values.yaml``.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from gpuready.policy.rules import charts
from tests.upstream import upstream_text

VALUES: dict[str, Any] = {
    charts.OPERATOR: yaml.safe_load(upstream_text("gpu-operator/values.v26.7.0.source.yaml")),
    charts.DEVICE_PLUGIN: yaml.safe_load(upstream_text("k8s-device-plugin/values.v0.20.0.source.yaml")),
}


def _at(chart: str, path: str) -> Any:
    node: Any = VALUES[chart]
    for part in path.split("."):
        assert isinstance(node, dict) and part in node, f"{chart}: no values key {path!r}"
        node = node[part]
    return node


@pytest.mark.parametrize(("chart", "path"), sorted(charts._DEFAULT_TOLERATIONS))
def test_encoded_default_tolerations_are_the_charts(chart: str, path: str) -> None:
    assert [dict(t) for t in charts._DEFAULT_TOLERATIONS[(chart, path)]] == _at(chart, path)


@pytest.mark.parametrize(
    ("chart", "path", "default"),
    [
        (charts.OPERATOR, "nfd.enabled", True),
        (charts.OPERATOR, "driver.enabled", True),
        (charts.OPERATOR, "toolkit.enabled", True),
        (charts.OPERATOR, "devicePlugin.enabled", True),
        (charts.OPERATOR, "migManager.enabled", True),
        (charts.DEVICE_PLUGIN, "devicePlugin.enabled", True),
        (charts.DEVICE_PLUGIN, "gfd.enabled", False),
    ],
)
def test_defaults_the_rules_assume_are_the_charts(chart: str, path: str, default: bool) -> None:
    assert _at(chart, path) is default


@pytest.mark.parametrize("chart", [charts.OPERATOR, charts.DEVICE_PLUGIN])
def test_nfd_values_key_of_each_chart(chart: str) -> None:
    """The NFD subchart is configured under ``node-feature-discovery`` (operator) and ``nfd`` (plugin)."""
    assert isinstance(_at(chart, f"{charts.NFD_KEY[chart]}.worker"), dict)


def test_the_other_nfd_key_is_not_read_by_either_chart() -> None:
    assert "worker" not in VALUES[charts.OPERATOR]["nfd"]  # the operator's `nfd` only has enabled/nodefeaturerules
    assert "node-feature-discovery" not in VALUES[charts.DEVICE_PLUGIN]


def test_the_device_plugin_chart_has_no_nfd_enabled_default() -> None:
    """NFD follows ``gfd.enabled`` in the plugin chart (``condition: nfd.enabled,gfd.enabled``)."""
    assert "enabled" not in VALUES[charts.DEVICE_PLUGIN]["nfd"]
