"""The Karpenter controller defaults the scale-path model relies on (issue #24), read from the chart values of
aws/karpenter-provider-aws v1.14.1 (``../shared/reference/upstream/karpenter-aws/chart-values.v1.14.1.yaml``):

- ``settings.ignoreDRARequests: true`` (L216-217): Karpenter ignores pods with ResourceClaims, so gpuready refuses
  DRA pools on Karpenter-based provisioners (``scale_path.karpenter``).
- ``settings.featureGates`` (L230-249) holds the gates ``scale_path.model.KARPENTER_GATES`` names, with
  ``nodeOverlay: false``: a NodeOverlay does nothing until the cluster turns it on, so gpuready emits one only when
  the stack declares ``gpuready:karpenterFeatureGates: [NodeOverlay]``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.core.scale_path.model import KARPENTER_GATES, NODE_OVERLAY_GATE

VALUES = (
    Path(__file__).resolve().parents[2].parent / "shared/reference/upstream/karpenter-aws/chart-values.v1.14.1.yaml"
)


@pytest.fixture(scope="module")
def values() -> tuple[dict[str, Any], list[str]]:
    if not VALUES.is_file():
        pytest.skip(f"{VALUES} is absent (aws/karpenter-provider-aws v1.14.1 charts/karpenter/values.yaml)")
    text = VALUES.read_text("utf-8")
    return yaml.safe_load(text), text.splitlines()


def test_dra_requests_are_ignored_by_default(values: tuple[dict[str, Any], list[str]]) -> None:
    data, lines = values
    assert data["settings"]["ignoreDRARequests"] is True
    assert lines[216].strip() == "ignoreDRARequests: true"  # L217, the line the model cites


def test_the_feature_gates_are_karpenter_s_and_node_overlay_is_off(values: tuple[dict[str, Any], list[str]]) -> None:
    data, lines = values
    gates = data["settings"]["featureGates"]
    assert {name[0].upper() + name[1:] for name in gates} == set(KARPENTER_GATES)
    assert gates[NODE_OVERLAY_GATE[0].lower() + NODE_OVERLAY_GATE[1:]] is False
    assert lines[229].strip() == "featureGates:"  # L230
