"""Label selector parsing and matching, table-driven."""

from __future__ import annotations

import pytest

from .selectors import Requirement, SelectorError, parse_label_selector

LABELS = {"pool": "gpu", "tier": "a", "gpus": "8", "example.com/zone": "z1"}


@pytest.mark.parametrize(
    ("selector", "matches"),
    [
        ("", True),
        ("pool=gpu", True),
        ("pool==gpu", True),
        ("pool=cpu", False),
        ("pool!=cpu", True),
        ("missing!=x", True),  # != matches objects without the key
        ("pool in (cpu,gpu)", True),
        ("pool in (cpu)", False),
        ("pool notin (cpu, tpu)", True),
        ("missing notin (x)", True),
        ("pool", True),
        ("missing", False),
        ("!missing", True),
        ("!pool", False),
        ("pool=gpu,tier=a", True),
        ("pool=gpu,tier=b", False),
        ("  pool = gpu ,  tier in ( a , b )  ", True),
        ("example.com/zone=z1", True),
        ("gpus>4", True),
        ("gpus<4", False),
        ("pool>4", False),  # not an integer label: no match
        ("tier=", False),  # empty value
    ],
)
def test_label_selector_matches(selector: str, matches: bool) -> None:
    assert parse_label_selector(selector).matches(LABELS) is matches


@pytest.mark.parametrize(
    ("selector", "requirements"),
    [
        ("a=b", [Requirement("a", "=", ("b",))]),
        ("a==b,!c", [Requirement("a", "==", ("b",)), Requirement("c", "!exists")]),
        ("a in (x,y),b notin (z)", [Requirement("a", "in", ("x", "y")), Requirement("b", "notin", ("z",))]),
        ("a in ()", [Requirement("a", "in", ("",))]),
        ("a=", [Requirement("a", "=", ("",))]),
    ],
)
def test_label_selector_parse(selector: str, requirements: list[Requirement]) -> None:
    assert list(parse_label_selector(selector).requirements) == requirements


@pytest.mark.parametrize(
    "selector",
    [
        "pool in (a",
        "pool in a",
        "pool notin",
        "pool=a=b",
        "=a",
        "!",
        "pool=a,",
        ",pool=a",
        "pool>x",
        "in (a)",
        "bad key=a",
        "-bad=a",
        "pool=" + "x" * 64,
        "pool=bad value!",
        "Example.com/x=y",  # a prefix must be a lowercase DNS subdomain
        "a/b/c=d",
    ],
)
def test_malformed_label_selectors_are_rejected(selector: str) -> None:
    with pytest.raises(SelectorError):
        parse_label_selector(selector)


def test_label_selector_against_no_labels() -> None:
    assert parse_label_selector("!pool").matches(None)
    assert not parse_label_selector("pool").matches({})


NODE = {"metadata": {"name": "gpu-1", "namespace": ""}, "spec": {"unschedulable": True}}
POD = {"metadata": {"name": "p", "namespace": "ml"}, "spec": {"nodeName": "gpu-1"}, "status": {"phase": "Running"}}
