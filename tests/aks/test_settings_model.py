"""The AKS stack keys in their documented formats (``gpuready.aks.settings_model``): what passes, and what is
refused with its path and a hint."""

from __future__ import annotations

from typing import Any

import pytest

from tests.wiring import accepted, assert_refused_with_hint

SUBNET = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-ml/providers/Microsoft.Network/"

ACCEPTED: list[tuple[str, Any]] = [
    ("aksResourceGroup", "rg-ml_prod.(eu)"),
    ("aksVnetSubnetId", f"{SUBNET}virtualNetworks/vnet-ml/subnets/gpu"),
    ("aksVnetSubnetId", f"{SUBNET.lower()}VIRTUALNETWORKS/vnet-ml/SUBNETS/gpu"),  # Azure resource ids ignore case
]

REFUSED: list[tuple[str, Any, str]] = [
    ("aksResourceGroup", "rg/ml", "gpuready:aksResourceGroup"),
    ("aksResourceGroup", "r" * 91, "gpuready:aksResourceGroup"),
    ("aksVnetSubnetId", f"{SUBNET}virtualNetworks/vnet", "gpuready:aksVnetSubnetId"),
]


@pytest.mark.parametrize(("key", "value"), ACCEPTED)
def test_documented_formats_pass(key: str, value: Any) -> None:
    assert accepted(key, value) == value


@pytest.mark.parametrize(("key", "value", "path"), REFUSED)
def test_other_values_are_refused_at_their_path_with_a_hint(key: str, value: Any, path: str) -> None:
    assert_refused_with_hint(key, value, path)
