"""Did-you-mean only when close: case, one or two edits (swaps count once), or the start of exactly one choice."""

from __future__ import annotations

import pytest

from gpuready.core.suggest import closest, did_you_mean, edits

POOL_KEYS = ("name", "instanceType", "minSize", "maxSize", "desiredSize", "capacity", "labels", "taints")


@pytest.mark.parametrize(
    ("word", "choices", "expected"),
    [
        ("Spot", ("on-demand", "spot"), "spot"),
        ("instancetype", POOL_KEYS, "instanceType"),
        ("binPackScheduler", ("binpackScheduler", "gpuStack"), "binpackScheduler"),
        ("minSzie", POOL_KEYS, "minSize"),
        ("label", POOL_KEYS, "labels"),
        ("desired", POOL_KEYS, "desiredSize"),
        ("timeout", ("timeoutSeconds", "nfd"), "timeoutSeconds"),
        ("NO_SCHEDULE", ("NoSchedule", "PreferNoSchedule", "NoExecute"), "NoSchedule"),
        ("diskSize", POOL_KEYS, None),
        ("zones", POOL_KEYS, None),
        ("min", POOL_KEYS, None),
        ("size", POOL_KEYS, None),
        ("reserved", ("on-demand", "spot"), None),
        ("name", POOL_KEYS, None),
    ],
)
def test_suggestions_are_close_or_absent(word: str, choices: tuple[str, ...], expected: str | None) -> None:
    assert closest(word, choices) == expected


def test_the_hint_wording() -> None:
    assert did_you_mean("Spot", ("on-demand", "spot")) == "did you mean 'spot'?"
    assert did_you_mean("diskSize", POOL_KEYS) == ""
    assert did_you_mean(3, POOL_KEYS) == ""


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [("", "", 0), ("abc", "abc", 0), ("abc", "acb", 1), ("disksize", "minsize", 3), ("kitten", "sitting", 3)],
)
def test_edit_distance(a: str, b: str, distance: int) -> None:
    assert edits(a, b) == distance
    assert edits(b, a) == distance
