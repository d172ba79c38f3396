"""Under the mock runtime, an EKS pool whose ``aws:region`` does not offer its instance type warns on the pool
component (``pulumi.log.warn`` with the component as resource: ``pulumi preview`` shows it under the pool) and still
registers its node group."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pulumi
import pytest
from pulumi.runtime import config as runtime_config

from gpuready.core.specs import GpuPoolSpec
from gpuready.eks.node_pool import EksGpuNodePool
from tests.eks.test_node_pool import NODE_GROUP, build
from tests.pulumi_mocks import CapturingMonitor


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, Any]]:
    messages: list[tuple[str, str, Any]] = []
    for level in ("warn", "info"):
        monkeypatch.setattr(
            pulumi.log, level, lambda msg, resource=None, level=level, **_: messages.append((level, msg, resource))
        )
    return messages


@pytest.fixture
def region() -> Iterator[Any]:
    def set_region(value: str) -> None:
        runtime_config.set_all_config({"aws:region": value})

    yield set_region
    runtime_config.set_all_config({})


@pytest.mark.parametrize(
    "case",
    [("eu-west-1", "g6.xlarge", True), ("us-east-1", "g6.xlarge", False), ("eu-west-1", "g5.xlarge", False)],
)
def test_pool_warns_on_itself_when_its_region_does_not_offer_the_type(
    mocked: CapturingMonitor, said: list[tuple[str, str, Any]], region: Any, case: tuple[str, str, bool]
) -> None:
    where, instance_type, warned = case
    region(where)
    build(GpuPoolSpec(cloud="eks", name="gpu", instance_type=instance_type, min_size=0, max_size=1))
    assert len(mocked.of_type(NODE_GROUP)) == 1
    warnings = [(msg, resource) for level, msg, resource in said if level == "warn"]
    if not warned:
        assert warnings == []
        return
    ((message, resource),) = warnings
    assert message.startswith(f"pool gpu: EKS region '{where}' does not offer {instance_type}")
    assert isinstance(resource, EksGpuNodePool)
