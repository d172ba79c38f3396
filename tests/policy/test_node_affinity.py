"""Required node affinity as the scheduler reads it (``rules.k8s.pod_lands_on``): the nodeSelector and every
operator of ``nodeSelectorTerms`` against a pool's labels (kubernetes/component-helpers v0.34.10 nodeaffinity.go)."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.policy.rules.k8s import pod_lands_on

LABELS = {"gpuready.io/pool": "l4", "gpuready.io/accelerator": "l4", "nvidia.com/gpu.present": "true", "gpus": "4"}


def required(*terms: list[dict[str, Any]] | dict[str, Any]) -> dict[str, Any]:
    given = [t if isinstance(t, dict) else {"matchExpressions": t} for t in terms]
    return {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": given}}}}  # fmt: skip


def expr(key: str, operator: str, *values: str) -> dict[str, Any]:
    return {"key": key, "operator": operator, **({"values": list(values)} if values else {})}


@pytest.mark.parametrize(("spec", "lands"), [
    ({}, True),  # no selector, no affinity: every node
    ({"nodeSelector": {"gpuready.io/pool": "l4"}}, True),
    ({"nodeSelector": {"gpuready.io/pool": "h100"}}, False),
    (required([expr("gpuready.io/accelerator", "In", "a10g", "l4")]), True),
    (required([expr("gpuready.io/accelerator", "In", "a10g")]), False),
    (required([expr("gpuready.io/accelerator", "NotIn", "l4")]), False),
    (required([expr("example.com/zone", "NotIn", "a")]), True),  # NotIn holds for an absent label
    (required([expr("nvidia.com/gpu.present", "Exists")]), True),
    (required([expr("example.com/cpu", "Exists")]), False),
    (required([expr("gpuready.io/pool", "DoesNotExist")]), False),
    (required([expr("example.com/cpu", "DoesNotExist")]), True),
    (required([expr("gpus", "Gt", "2")]), True),
    (required([expr("gpus", "Lt", "2")]), False),
    (required([expr("gpuready.io/pool", "Gt", "2")]), False),  # not an integer: no match
    (required([expr("gpuready.io/pool", "Sometimes", "l4")]), False),  # unknown operator: the term matches nothing
    # expressions of a term are ANDed, terms ORed
    (required([expr("nvidia.com/gpu.present", "Exists"), expr("gpuready.io/accelerator", "In", "h100")]), False),
    (required([expr("gpuready.io/accelerator", "In", "h100")], [expr("gpuready.io/pool", "Exists")]), True),
    (required(), False),  # no term: no node
    (required({}), False),  # an empty term matches no node
    (required({"matchFields": [expr("metadata.name", "In", "node-1")]}), True),  # names: unknown for a pool's nodes
    # the nodeSelector and the affinity must both pick the node
    ({**required([expr("gpuready.io/pool", "Exists")]), "nodeSelector": {"gpuready.io/pool": "h100"}}, False),
])  # fmt: skip
def test_pod_lands_on_a_node_with_the_pools_labels(spec: dict[str, Any], lands: bool) -> None:
    assert pod_lands_on(spec, LABELS) is lands
