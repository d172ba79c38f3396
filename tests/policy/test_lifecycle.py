"""Lifecycle policies on raw pools with resource options, through the engine's Analyzer protocol."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.policy.builders import AKS, EKS, GKE, aks, eks, gke
from tests.policy.harness import evaluate, resource

COUNT = "gpu-node-pool-count-owned-by-autoscaler"
DELETE_FIRST = "gpu-node-pool-never-deleted-first"
GKE_AUTOSCALED = {"initialNodeCount": 1, "autoscaling": {"totalMinNodeCount": 0, "totalMaxNodeCount": 4}}


def found(policy: str, type_: str, props: dict[str, Any], options: dict[str, Any]) -> list[str]:
    violations = evaluate(replace(resource(type_, "pool", props), options=options))
    return [v.message for v in violations if v.policy == policy]


@pytest.mark.parametrize(
    ("type_", "props", "options", "expected"),
    [
        (EKS, eks(), {}, "scalingConfig.desiredSize: the autoscaler owns this count"),
        (EKS, eks(), {"ignoreChanges": ["scalingConfig.desiredSize"]}, None),
        (EKS, eks(), {"ignoreChanges": ["scalingConfig"]}, None),  # a parent path covers it
        (EKS, eks(scalingConfig={"minSize": 2, "maxSize": 2, "desiredSize": 2}), {}, None),  # fixed size
        (EKS, eks(instanceTypes=["m5.large"], amiType="AL2023_x86_64_STANDARD"), {}, None),  # not a GPU pool
        (AKS, aks(enableAutoScaling=True, minCount=0, maxCount=3), {}, "count: the autoscaler owns this count"),
        (AKS, aks(enableAutoScaling=True, minCount=0, maxCount=3), {"ignoreChanges": ["count"]}, None),
        (AKS, aks(), {}, None),  # no autoscaling: the count is the program's
        (GKE, {**gke(), **GKE_AUTOSCALED}, {}, "the next refresh then replaces the whole pool"),
        (GKE, {**gke(), **GKE_AUTOSCALED}, {"ignoreChanges": ["initialNodeCount"]}, None),
    ],
)
def test_autoscaled_gpu_pools_leave_their_count_to_the_autoscaler(
    type_: str, props: dict[str, Any], options: dict[str, Any], expected: str | None
) -> None:
    messages = found(COUNT, type_, props, options)
    if expected is None:
        assert messages == []
    else:
        (message,) = messages
        assert expected in message and "ignoreChanges" in message


@pytest.mark.parametrize(
    ("options", "flagged"),
    [({"deleteBeforeReplace": True}, True), ({"deleteBeforeReplace": False}, False), ({}, False)],
)
def test_gpu_pools_replaced_delete_first_are_flagged(options: dict[str, Any], flagged: bool) -> None:
    messages = found(DELETE_FIRST, EKS, eks(), options)
    assert bool(messages) is flagged
    if flagged:
        assert "deletes every GPU node of the pool before the new pool exists" in messages[0]


def test_a_cpu_pool_replaced_delete_first_is_not_flagged() -> None:
    cpu = eks(instanceTypes=["m5.large"], amiType="AL2023_x86_64_STANDARD")
    assert found(DELETE_FIRST, EKS, cpu, {"deleteBeforeReplace": True}) == []
