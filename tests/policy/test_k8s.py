"""Kubernetes semantics the rules rely on: toleration matching, quantities, AKS taint strings."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gpuready.core.capacity.pool_facts import API_EFFECTS, api_taint, text_taint
from gpuready.core.taints import Taint
from gpuready.policy.rules.k8s import (
    parse_quantity,
    tolerates,
    tolerates_every_value,
)

GPU_PRESENT = Taint("nvidia.com/gpu", "present", "NoSchedule")
GPU_TRUE = Taint("nvidia.com/gpu", "true", "NoSchedule")


@pytest.mark.parametrize(
    ("toleration", "taint", "expected"),
    [
        ({"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}, GPU_TRUE, True),
        ({"key": "nvidia.com/gpu", "operator": "Exists"}, GPU_TRUE, True),
        ({"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"}, GPU_PRESENT, True),
        ({"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"}, GPU_TRUE, False),
        ({"key": "nvidia.com/gpu", "value": "present"}, GPU_PRESENT, True),  # Equal is the default operator
        ({"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoExecute"}, GPU_TRUE, False),
        ({"operator": "Exists"}, GPU_TRUE, True),
        ({"operator": "Equal"}, GPU_TRUE, False),
        ({"key": "dedicated", "operator": "Exists"}, GPU_TRUE, False),
        ("not a mapping", GPU_TRUE, False),
    ],
)
def test_toleration_matching_follows_kubernetes(toleration: object, taint: Taint, expected: bool) -> None:
    assert tolerates(toleration, taint) is expected


def test_tolerating_every_value_needs_exists() -> None:
    assert tolerates_every_value([{"key": "nvidia.com/gpu", "operator": "Exists"}], "nvidia.com/gpu")
    assert not tolerates_every_value([{"key": "nvidia.com/gpu", "value": "present"}], "nvidia.com/gpu")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1", Fraction(1)),
        (2.0, Fraction(2)),
        ("0.5", Fraction(1, 2)),
        ("500m", Fraction(1, 2)),
        ("2000m", Fraction(2)),
        ("1k", Fraction(1000)),
        ("1Ki", Fraction(1024)),
        ("1e3", Fraction(1000)),
        (".5", Fraction(1, 2)),
        ("one", None),
        (True, None),
        (None, None),
    ],
)
def test_quantities_parse_like_apimachinery(value: object, expected: Fraction | None) -> None:
    assert parse_quantity(value) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("nvidia.com/gpu=present:NoSchedule", Taint("nvidia.com/gpu", "present", "NoSchedule")),
        ("nvidia.com/gpu:NoSchedule", Taint("nvidia.com/gpu", "", "NoSchedule")),
        ("sku=gpu:NoSchedule", Taint("sku", "gpu", "NoSchedule")),
        ("no-effect", None),
    ],
)
def test_taint_strings(text: str, expected: Taint | None) -> None:
    assert text_taint(text) == expected


def test_api_effects_map_to_kubernetes_spelling() -> None:
    assert API_EFFECTS == {
        "NO_SCHEDULE": "NoSchedule",
        "PREFER_NO_SCHEDULE": "PreferNoSchedule",
        "NO_EXECUTE": "NoExecute",
    }
    assert api_taint({"key": "k", "effect": "NO_EXECUTE"}) == Taint("k", "", "NoExecute")
    assert str(GPU_PRESENT) == "nvidia.com/gpu=present:NoSchedule"
