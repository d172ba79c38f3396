"""Nested config data helpers (``gpuready.core.mappings``)."""

from __future__ import annotations

import itertools
import random

import pytest

from gpuready.core.mappings import deep_merge, plain_path


@pytest.mark.parametrize(
    ("path", "plain"),
    [
        ("nodeConfig.guestAccelerators[0].type", "nodeConfig.guestAccelerators.type"),
        ("taints[2]", "taints"),
        ("labels['a[1]'].x", "labels.x"),
        ("scalingConfig", "scalingConfig"),
    ],
)
def test_plain_path_drops_every_index(path: str, plain: str) -> None:
    assert plain_path(path) == plain


def _reference(path: str) -> str:
    """Everything outside brackets, nested or not (what ``plain_path`` promises), from the running bracket depth."""
    depths = itertools.accumulate(1 if c == "[" else -1 if c == "]" else 0 for c in path)
    return "".join(c for c, depth in zip(path, depths, strict=True) if c not in "[]" and depth == 0)


def test_plain_path_agrees_with_the_character_walk_on_any_brackets() -> None:
    rng = random.Random(26)
    for _ in range(5000):
        path = "".join(rng.choice("ab.[]0'") for _ in range(rng.randint(0, 12)))
        assert plain_path(path) == _reference(path), path


def test_deep_merge_merges_mappings_and_replaces_the_rest_without_touching_its_inputs() -> None:
    base = {"a": {"b": 1, "c": [1]}, "d": 1}
    extra = {"a": {"c": [2], "e": 3}, "d": {"x": 1}}
    assert deep_merge(base, extra) == {"a": {"b": 1, "c": [2], "e": 3}, "d": {"x": 1}}
    assert base == {"a": {"b": 1, "c": [1]}, "d": 1}
