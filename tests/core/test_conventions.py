"""A team's conventions (issue #27 item 3), parsed the same way from the stack setting, the CLI flags and the pack's
config: Microsoft's ``sku=gpu:NoSchedule`` among them."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.conventions import DEFAULT, Conventions, gpu_taint_of, parse_conventions, skypilot_labels_of
from gpuready.core.scheduling import GPU_TAINT
from gpuready.core.taints import Taint
from gpuready.errors import SpecError

SKU = Taint("sku", "gpu", "NoSchedule")


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (None, DEFAULT),
        ({}, DEFAULT),
        ({"gpuTaint": "sku=gpu:NoSchedule"}, Conventions(gpu_taint=SKU)),
        ({"gpuTaint": {"key": "sku", "value": "gpu", "effect": "NoSchedule"}}, Conventions(gpu_taint=SKU)),
        ({"gpuTaint": "dedicated:NoExecute"}, Conventions(gpu_taint=Taint("dedicated", "", "NoExecute"))),
        ({"skypilotLabels": False}, Conventions(skypilot_labels=False)),
    ],
)
def test_conventions_parse(given: Any, expected: Conventions) -> None:
    assert parse_conventions(given) == expected


@pytest.mark.parametrize(
    ("given", "path"),
    [
        ({"gpuTaint": "sku=gpu:Sometimes"}, "gpuready:conventions.gpuTaint"),
        ({"gpuTaint": "=gpu:NoSchedule"}, "gpuready:conventions.gpuTaint"),
        ({"gpuTaint": 3}, "gpuready:conventions.gpuTaint"),
        ({"skypilotLabels": "no"}, "gpuready:conventions.skypilotLabels"),
        ({"gpuTaints": "sku=gpu:NoSchedule"}, "gpuready:conventions.gpuTaints"),
        ("sku=gpu:NoSchedule", "gpuready:conventions"),
    ],
)
def test_bad_conventions_name_the_field(given: Any, path: str) -> None:
    with pytest.raises(SpecError) as caught:
        parse_conventions(given)
    assert path in [p.path for p in caught.value.problems]


def test_policy_properties_round_trip_through_the_policy_config_readers() -> None:
    conventions = Conventions(gpu_taint=SKU, skypilot_labels=False)
    properties = conventions.policy_properties()
    assert (gpu_taint_of(properties), skypilot_labels_of(properties)) == (SKU, False)
    assert (gpu_taint_of({}), skypilot_labels_of({})) == (GPU_TAINT, True)
