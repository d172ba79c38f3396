"""A shape problem no longer hides the rules' problems on the entry's other keys (issue #13: all problems at once)."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core import pool_config
from gpuready.core.config_model.all_problems import top_key
from gpuready.core.config_model.parsers import parse_gpu_stack
from gpuready.errors import ConfigError


def _pool(**entry: Any) -> dict[str, Any]:
    pool: dict[str, Any] = {"name": "gpu", "instanceType": "g6.xlarge", "minSize": 0, "maxSize": 2}
    pool.update(entry)
    return {k: v for k, v in pool.items() if v is not None}


def _pool_problems(entry: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ConfigError) as info:
        pool_config.parse_pools([entry], "eks")
    return [(p.path.removeprefix("nodePools[0]."), p.problem) for p in info.value.problems]


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (  # an unknown sharing mode no longer hides a bad replicas (checked as the form that takes replicas)
            _pool(sharing={"mode": "timeslice", "replicas": "x"}),
            [("sharing.mode", "unknown sharing mode"), ("sharing.replicas", "must be a whole number")],
        ),
        (  # ... nor when the mode is close to a known one
            _pool(sharing={"mode": "mpss", "replicas": True}),
            [("sharing.mode", "unknown sharing mode"), ("sharing.replicas", "must be a whole number")],
        ),
        (  # a bad maxSize no longer hides the capacity, the taint effect and the reserved label
            _pool(
                maxSize="a",
                capacity="Spot",
                taints=["a=b:NoScheduel"],
                labels={"kubernetes.io/team": "x"},
            ),
            [
                ("maxSize", "must be a whole number"),
                ("capacity", "unknown capacity type"),
                ("labels['kubernetes.io/team']", "the kubernetes.io prefix is reserved on eks"),
                ("taints[0].effect", "unknown taint effect (Kubernetes spelling)"),
            ],
        ),
        (  # a broken name and minSize: the stand-ins raise nothing of their own, the GPU rules still run
            _pool(name=3, minSize="0", sharing={"mode": "mig", "profile": "1g.10gb"}),
            [
                ("name", "must be a string"),
                ("minSize", "must be a whole number"),
                ("sharing.mode", "L4 (g6.xlarge) does not support MIG"),
            ],
        ),
        (  # a broken instance type has no stand-in: nothing is guessed about the GPUs
            _pool(instanceType=7, sharing={"mode": "mig", "profile": "1g.10gb"}),
            [("instanceType", "must be an instance type or (elastic pools) a list of them")],
        ),
    ],
)
def test_shape_problems_do_not_hide_rule_problems(entry: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    assert sorted(_pool_problems(entry)) == sorted(expected)


def test_gpu_stack_shape_problems_come_with_value_problems() -> None:
    with pytest.raises(ConfigError) as info:
        parse_gpu_stack({"kind": "gpu-operator", "nfd": 3, "timeoutSeconds": 5}, "gpuready:gpuStack")
    paths = [p.path for p in info.value.problems]
    assert "gpuready:gpuStack.nfd" in paths
    assert "gpuready:gpuStack.timeoutSeconds" in paths


@pytest.mark.parametrize(
    ("path", "prefix", "key"),
    [
        ("nodePools[0].sharing.mode", "nodePools[0]", "sharing"),
        ("nodePools[0].labels['a']", "nodePools[0]", "labels"),
        ("nodePools[0].taints[1].effect", "nodePools[0]", "taints"),
        ("nodePools[1].name", "nodePools[0]", None),
        ("gpuready:gpuStack", "gpuready:gpuStack", None),
    ],
)
def test_top_key(path: str, prefix: str, key: str | None) -> None:
    assert top_key(path, prefix) == key


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (  # a kind close to a known one stands in for it, so the timeout is still checked
            {"kind": "gpu-operatr", "timeoutSeconds": 5},
            ["gpuready:gpuStack.kind", "gpuready:gpuStack.timeoutSeconds"],
        ),
        ({"kind": "zzz", "timeoutSeconds": 5}, ["gpuready:gpuStack.kind"]),  # nothing close: nothing guessed
    ],
)
def test_gpu_stack_kind_stands_in_only_when_close(raw: dict[str, Any], expected: list[str]) -> None:
    with pytest.raises(ConfigError) as info:
        parse_gpu_stack(raw, "gpuready:gpuStack")
    assert [p.path for p in info.value.problems] == expected
