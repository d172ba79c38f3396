"""Config paths as ``pulumi config set --path`` reads them (pulumi/pulumi sdk/go/common/resource/config/map.go)."""

from __future__ import annotations

import pytest

from gpuready.offline.config_path import Segment, parse_path, path_value, set_path
from gpuready.offline.project import OfflineProjectError


@pytest.mark.parametrize(
    ("text", "key", "segments"),
    [
        ("gpuready:verifySkipPools[0]", "gpuready:verifySkipPools", (0,)),
        ("gpuready:verifySkipPools[12]", "gpuready:verifySkipPools", (12,)),
        ("gpuready:a.b[1].c", "gpuready:a", ("b", 1, "c")),
        ('gpuready:tags["team.name"]', "gpuready:tags", ("team.name",)),
        ('gpuready:tags["a:b"]', "gpuready:tags", ("a:b",)),
        ("names[0]", "names", (0,)),
        ("aws:region", "aws:region", ()),
    ],
)
def test_parse_path_splits_the_key_from_its_segments(text: str, key: str, segments: tuple[Segment, ...]) -> None:
    assert parse_path(text) == (key, segments)


@pytest.mark.parametrize("text", ["gpuready:[0]", "gpuready:k[x]", "gpuready:k[0", "gpuready:k..a", "[0]"])
def test_parse_path_refuses_what_it_cannot_read(text: str) -> None:
    with pytest.raises(OfflineProjectError) as info:
        parse_path(text)
    assert "config path" in info.value.message
    assert "--path syntax" in info.value.hint


@pytest.mark.parametrize(
    ("text", "value"),
    [("true", True), ("false", False), ("12", 12), ("-3", -3), ("0", 0), ("07", "07"), ("True", "True"), ("a", "a")],
)
def test_path_values_are_typed_as_pulumi_types_them(text: str, value: object) -> None:
    assert path_value(text) == value
    assert type(path_value(text)) is type(value)


@pytest.mark.parametrize(
    ("current", "segments", "expected"),
    [
        (None, (0,), ["v"]),
        (["a"], (0,), ["v"]),
        (["a"], (1,), ["a", "v"]),  # the list's length appends
        ({"x": 1}, ("y",), {"x": 1, "y": "v"}),
        (None, ("a", 0, "b"), {"a": [{"b": "v"}]}),
        ({"a": [{"b": 1, "c": 2}]}, ("a", 0, "b"), {"a": [{"b": "v", "c": 2}]}),
    ],
)
def test_set_path_sets_creates_and_appends(current: object, segments: tuple[Segment, ...], expected: object) -> None:
    before = repr(current)
    assert set_path(current, segments, "v", "k") == expected
    assert repr(current) == before  # a new structure: the input is not changed


@pytest.mark.parametrize(
    ("current", "segments", "message"),
    [
        (["a"], (2,), "k[2]: array index out of range (the list has 1 item)"),
        ("text", (0,), "k: is not a list"),
        (["a"], ("x",), "k: is not a mapping"),
        ({"a": "t"}, ("a", 0), "k.a: is not a list"),
    ],
)
def test_set_path_refuses_shapes_that_do_not_match(
    current: object, segments: tuple[Segment, ...], message: str
) -> None:
    with pytest.raises(OfflineProjectError) as info:
        set_path(current, segments, "v", "k")
    assert message in info.value.message
    assert info.value.path
