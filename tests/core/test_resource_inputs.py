"""``resource_inputs``: overrides checked against a resource's input tree, turned into Python names, merged."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core import resource_inputs
from gpuready.core.mappings import deep_merge
from gpuready.core.resource_inputs import InputNode, InputTree

TREE = InputTree(
    resource="test.Pool",
    sdk="pulumi_test 1.0",
    inputs={
        "machineType": InputNode("machine_type"),
        "osSKU": InputNode("os_sku"),
        "nodeConfig": InputNode(
            "node_config",
            {
                "gvnic": InputNode("gvnic", {"enabled": InputNode("enabled")}),
                "labels": InputNode("labels"),
                "secondaryBootDisks": InputNode(
                    "secondary_boot_disks", {"diskImage": InputNode("disk_image")}, is_list=True
                ),
            },
        ),
    },
)
OWNED = {"machineType": "instanceType", "nodeConfig.labels": "labels"}


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"osSKU": "Ubuntu"}, []),
        ({"nodeConfig": {"gvnic": {"enabled": True}}}, []),
        ({"nodeConfig": {"secondaryBootDisks": [{"diskImage": "img"}]}}, []),
        ({"machineType": "x"}, ["overrides.machineType: owned by instanceType. Hint: set instanceType instead"]),
        ({"nodeConfig": {"labels": {}}}, ["overrides.nodeConfig.labels: owned by labels"]),
        ({"machinType": "x"}, ["overrides.machinType: not an input of test.Pool (pulumi_test 1.0)", "'machineType'?"]),
        ({"os_sku": "x"}, ["write it as 'osSKU'", "camelCase"]),
        ({"nodeConfig": {"gvnik": {}}}, ["overrides.nodeConfig.gvnik: not an input", "did you mean 'gvnic'?"]),
        ({"nodeConfig": "on"}, ["overrides.nodeConfig: must be a mapping of test.Pool nodeConfig inputs"]),
        ({"nodeConfig": {"secondaryBootDisks": {"diskImage": "i"}}}, ["must be a list of mappings"]),
        (
            {"nodeConfig": {"secondaryBootDisks": [{"mode": "x"}]}},
            ["overrides.nodeConfig.secondaryBootDisks[0].mode: not an input"],
        ),
        ({"osSKU": object()}, ["overrides.osSKU: takes plain data", "Pulumi transform"]),
        ({"zzz": 1}, ["not an input", "the inputs are listed in the pulumi_test 1.0 docs of test.Pool"]),
    ],
)
def test_override_problems(overrides: dict[str, Any], expected: list[str]) -> None:
    problems = [str(p) for p in resource_inputs.override_problems(overrides, TREE, OWNED)]
    if not expected:
        assert problems == []
    else:
        assert len(problems) == 1, problems
        assert all(part in problems[0] for part in expected), problems[0]


def test_a_typo_close_to_an_owned_input_says_it_is_owned() -> None:
    (problem,) = resource_inputs.override_problems({"machineTyp": "x"}, TREE, OWNED)
    assert "did you mean 'machineType'?" in problem.hint
    assert "gpuready owns that input" in problem.hint


def test_every_problem_is_reported_at_once() -> None:
    problems = resource_inputs.override_problems(
        {"machineType": 1, "bad": 2, "nodeConfig": {"labels": {}}}, TREE, OWNED
    )
    assert [p.path for p in problems] == ["overrides.machineType", "overrides.bad", "overrides.nodeConfig.labels"]


def test_to_python_translates_nested_names() -> None:
    given = {"osSKU": "Ubuntu", "nodeConfig": {"gvnic": {"enabled": True}, "secondaryBootDisks": [{"diskImage": "i"}]}}
    assert resource_inputs.to_python(given, TREE) == {
        "os_sku": "Ubuntu",
        "node_config": {"gvnic": {"enabled": True}, "secondary_boot_disks": [{"disk_image": "i"}]},
    }


@pytest.mark.parametrize(
    ("base", "extra", "merged"),
    [
        ({"a": 1}, {"b": 2}, {"a": 1, "b": 2}),
        ({"a": {"x": 1, "y": 2}}, {"a": {"y": 3}}, {"a": {"x": 1, "y": 3}}),
        ({"a": [1, 2]}, {"a": [3]}, {"a": [3]}),
        ({"a": {"x": 1}}, {"a": "flat"}, {"a": "flat"}),
        ({"a": {"b": {"c": 1, "d": 2}}}, {"a": {"b": {"d": 5}}}, {"a": {"b": {"c": 1, "d": 5}}}),
    ],
)
def test_deep_merge(base: dict[str, Any], extra: dict[str, Any], merged: dict[str, Any]) -> None:
    before = repr(base)
    assert deep_merge(base, extra) == merged
    assert repr(base) == before  # the planned arguments are not changed in place


def test_copied_detaches_nested_containers() -> None:
    original: dict[str, Any] = {"a": {"b": [1, {"c": 2}]}}
    copy = resource_inputs.copied(original)
    original["a"]["b"][1]["c"] = 3
    assert copy == {"a": {"b": [1, {"c": 2}]}}


def test_owned_paths_problems_names_paths_without_an_input() -> None:
    assert resource_inputs.owned_paths_problems({"nodeConfig.gvnic.enabled": "", "nodeConfig.nope": ""}, TREE) == [
        "nodeConfig.nope"
    ]
