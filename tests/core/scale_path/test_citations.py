"""Every rule of the scale-path model cites its upstream source by repository, revision, file and lines (issue #24:
the kube-scheduler's resource fit and the CEL selector rule were cited by name only)."""

from __future__ import annotations

import re

import pytest

from gpuready.core.scale_path import cluster_autoscaler, karpenter, karpenter_limits, scheduler_fit

CITATIONS = {
    "scheduler taints": scheduler_fit.TAINTS,
    "scheduler node selector": scheduler_fit.SELECTOR,
    "scheduler resource fit": scheduler_fit.RESOURCES,
    "scheduler DRA selectors": scheduler_fit.DEVICES,
    "karpenter DRA": karpenter.DRA_CITE,
    "karpenter fit": karpenter.FIT_CITE,
    "karpenter overlay": karpenter.OVERLAY_CITE,
    "karpenter limits": karpenter_limits.LIMITS_CITE,
    "cluster-autoscaler DRA": cluster_autoscaler.DRA_DOC,
}
CITED = re.compile(r"^[\w.-]+/[\w.-]+(@[0-9a-f]{7,}| v\d+\.\d+(\.\d+)?) \S+\.(go|md) L\d+(-\d+)?")
"""``owner/repo`` at a tag or commit, a file, and its lines."""


@pytest.mark.parametrize("citation", list(CITATIONS.values()), ids=list(CITATIONS))
def test_every_rule_cites_repository_revision_file_and_lines(citation: str) -> None:
    assert CITED.match(citation), citation


def test_the_resource_fit_and_the_cel_rule_are_cited_by_line() -> None:
    assert "noderesources/fit.go L564-660" in scheduler_fit.RESOURCES
    assert "kubernetes/api v0.34.10 resource/v1/types.go L1087-1143" in scheduler_fit.DEVICES
