"""Every registered advertiser has its node checks, and an expectation picks them by its advertiser."""

from __future__ import annotations

import pytest

from gpuready.core.advertisers.registry import ADVERTISERS
from gpuready.verify import advertised
from gpuready.verify.expectations import Expectation
from gpuready.verify.findings import Finding
from gpuready.verify.nodes import NodeView


def test_every_registered_advertiser_has_node_checks() -> None:
    assert sorted(advertised.NODE_CHECKS) == sorted(a.key for a in ADVERTISERS)


def test_the_expectations_advertiser_picks_the_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def fake(view: NodeView, expectation: Expectation) -> list[Finding]:
        seen.append(f"{view.name}:{expectation.advertiser}")
        return []

    monkeypatch.setattr(advertised, "NODE_CHECKS", {"other": fake})
    view = NodeView(name="n1")
    expectation = Expectation(pool="p", accelerator=None, gpus_per_node=None, advertiser="other")
    assert advertised.check_advertised(view, expectation) == []
    assert seen == ["n1:other"]
