"""``gpuready.core.offerings``: the warning when the region does not offer a pool's instance type."""

from __future__ import annotations

import pytest

from gpuready.core import offerings
from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.offerings import Offerings
from tests.core.conftest import SpecFactory

DATA = Offerings(
    source="test data",
    date="2026-10-27",
    regions={
        "us-east-1": frozenset({"g6.xlarge", "p5.48xlarge"}),
        "eu-west-2": frozenset({"g6.xlarge"}),
        "eu-west-1": frozenset({"g5.xlarge"}),
        "ca-west-1": frozenset(),
    },
)


@pytest.mark.parametrize(
    ("instance_type", "region", "expected"),
    [
        pytest.param("g6.xlarge", "us-east-1", None, id="offered"),
        pytest.param("g6.xlarge", None, None, id="no-region-set"),
        pytest.param("g6.xlarge", "", None, id="empty-region"),
        pytest.param(
            "g6.xlarge",
            "eu-west-1",
            ["region 'eu-west-1' does not offer g6.xlarge", "regions offering it: eu-west-2, us-east-1", "test data"],
            id="not-offered",
        ),
        pytest.param(
            "p5.48xlarge", "ca-west-1", ["does not offer p5.48xlarge", "regions offering it: us-east-1"],
            id="region-offering-none-of-the-catalog",
        ),
        pytest.param(
            "g9.xlarge", "us-east-1", ["does not offer g9.xlarge", "no region in the data offers it"],
            id="unknown-type",
        ),
        pytest.param(
            "g6.xlarge",
            "mars-east-1",
            ["region 'mars-east-1' is not in gpuready's offerings data", "not checked",
             "regions offering it: eu-west-2, us-east-1"],
            id="unknown-region",
        ),
        pytest.param(
            "g9.xlarge", "mars-east-1", ["is not in gpuready's offerings data", "no region in the data offers it"],
            id="unknown-region-and-type",
        ),
    ],
)  # fmt: skip
def test_offering_warning(instance_type: str, region: str | None, expected: list[str] | None) -> None:
    warning = offerings.offering_warning("EKS", instance_type, region, DATA)
    if expected is None:
        assert warning is None
        return
    assert warning is not None
    assert warning.startswith("EKS region ")
    for part in expected:
        assert part in warning


def test_vendored_eks_data_warns_for_g6_in_eu_west_1_and_names_the_regions_that_offer_it(
    make_spec: SpecFactory,
) -> None:
    profile = cloud_profile("eks")
    spec = make_spec("eks", instance_type="g6.xlarge")
    data = offerings.load("gpuready.eks")
    offering = [region for region, types in data.regions.items() if "g6.xlarge" in types]
    assert "eu-west-1" in data.regions and "eu-west-1" not in offering and "us-east-1" in offering
    warning = profile.offering_warning(spec, "eu-west-1")
    assert warning is not None
    assert f"regions offering it: {', '.join(sorted(offering))} (" in warning
    assert data.source in warning and "2026-10-27" in warning
    assert profile.offering_warning(spec, "us-east-1") is None


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({"aws:region": "eu-west-1"}, "eu-west-1"),
        ({"aws:region": None}, None),
        ({}, None),
        ({"azure-native:location": "westeurope"}, None),
    ],
)
def test_eks_region_comes_from_aws_region(settings: dict[str, str | None], expected: str | None) -> None:
    assert cloud_profile("eks").region(settings) == expected


@pytest.mark.parametrize("cloud", ["aks", "gke"])
def test_clouds_without_offerings_data_say_what_is_not_checked(cloud: str, make_spec: SpecFactory) -> None:
    profile = cloud_profile(cloud)
    assert profile.offerings_package is None
    assert profile.offering_warning(make_spec(cloud), "anywhere-1") is None
    assert "is not checked" in profile.offerings_unchecked
    assert profile.title in profile.offerings_unchecked


def test_eks_says_nothing_is_unchecked() -> None:
    assert cloud_profile("eks").offerings_unchecked == ""
