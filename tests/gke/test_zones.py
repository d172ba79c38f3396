"""``gpuready.gke.zones.zone_problems``: each pool's zones (its own ``zones``, else ``gkeNodeLocations``) must be
known, in the cluster's location, and split its initial size evenly."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.gke.zones import zone_problems
from tests.core.conftest import build_spec


def pool(**extra: Any) -> Any:
    return build_spec("gke", **extra)


@pytest.mark.parametrize(
    ("location", "stack_zones", "pools", "expected"),
    [
        ("us-central1", ["us-central1-a"], [pool()], []),
        ("us-central1", [], [pool(zones=("us-central1-a",))], []),
        ("us-central1-a", [], [pool()], []),
        ("us-central1-a", [], [pool(zones=("us-central1-b",))], []),
        ("us-central1", [], [pool(zones=("us-central1-a",)), pool()], ["gpuready:gkeNodeLocations: is required"]),
        ("us-central1", [], [pool(zones=("europe-west4-a",))], ["gpuready:nodePools[0].zones: are not all in"]),
        (
            "us-central1",
            ["us-central1-a"],
            [pool(desired_size=1, zones=("us-central1-a", "us-central1-b"))],
            ["gpuready:nodePools[0].desiredSize: GKE starts the same number of nodes in each of the pool's 2 zones"],
        ),
        # Without desiredSize the pool starts minSize nodes: the fix named is desiredSize, not minSize.
        (
            "us-central1",
            ["us-central1-a", "us-central1-b"],
            [pool(min_size=1, max_size=4)],
            [
                "gpuready:nodePools[0].desiredSize: GKE starts the same number of nodes in each of the pool's 2 zones, "
                "so the initial size (minSize, as desiredSize is not set) must be a multiple of 2; got 1. Allowed: 2. "
                "Hint: set desiredSize to one of these (minSize stays the floor)"
            ],
        ),
        # The pool's own zone wins: one zone splits any size, though the stack names two.
        ("us-central1", ["us-central1-a", "us-central1-b"], [pool(desired_size=1, zones=("us-central1-c",))], []),
        # A ComputeClass (elastic) starts no nodes: a regional cluster needs no gkeNodeLocations for it ...
        ("us-central1", [], [pool(provisioner="compute-class")], []),
        ("us-central1", [], [pool(provisioner="compute-class"), pool()], ["gpuready:gkeNodeLocations: is required"]),
        # ... but zones it names must still lie in the cluster's region.
        (
            "us-central1",
            [],
            [pool(provisioner="compute-class", zones=("europe-west4-a",))],
            ["gpuready:nodePools[0].zones: are not all in"],
        ),
    ],
)
def test_zone_problems(location: str, stack_zones: list[str], pools: list[Any], expected: list[str]) -> None:
    found = [str(p) for p in zone_problems(location, stack_zones, pools, "gpuready:")]
    assert len(found) == len(expected), found
    for text, start in zip(found, expected, strict=True):
        assert text.startswith(start), text
