"""The fast path (``config_model.fast``) against the pydantic models: the shape table is current, every example
stack takes the fast path and gets the settings the models give, every refused input gets the same problems.

The core tests' own tables go both ways too (``tests/core/conftest.py``, ``tests/fast_config.py``)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.core.clouds.registry import cloud_names, cloud_profiles
from gpuready.core.config_model import fast
from gpuready.core.config_model.parsers import parse_gpu_stack
from gpuready.core.config_model.stack_values import joined
from gpuready.core.pool_config import parse_pools
from gpuready.core.stack_settings import NS, StackSettings, parse_stack_settings
from gpuready.errors import ConfigError
from gpuready.offline.project import load_project
from gpuready.offline.pulumi_config import load_stack_config
from tests.fast_config import both_ways, slow_only
from tools.shape_table import sources

ROOT = Path(__file__).resolve().parents[3]
PROJECT = load_project(ROOT)
EXAMPLE_STACKS = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in ROOT.glob("stacks/Pulumi.*.yaml"))
BAD_POOLS = yaml.safe_load((ROOT / "tests/core/bad_inputs.yaml").read_text(encoding="utf-8"))["cases"]
BAD_GPU_STACKS = yaml.safe_load((ROOT / "tests/core/config_model/bad_gpu_stacks.yaml").read_text(encoding="utf-8"))[
    "cases"
]


@pytest.mark.parametrize(
    ("path", "text"), sources().items(), ids=lambda p: p.parent.name if isinstance(p, Path) else ""
)
def test_every_shape_table_is_current(path: Path, text: str) -> None:
    """Each table is what ``python -m tools.shape_table --write`` makes of the models now."""
    assert path.read_text(encoding="utf-8") == text, "stale: run python -m tools.shape_table --write"


def stack_values(stack: str) -> dict[str, object]:
    config = load_stack_config(PROJECT, stack).values
    return {key.removeprefix(f"{NS}:"): value for key, value in config.items() if key.startswith(f"{NS}:")}


def same_settings(found: StackSettings, expected: StackSettings) -> None:
    """Equal field for field; the cloud's settings (a light object, a model) by their keys."""
    for field in dataclasses.fields(StackSettings):
        if field.name != "cloud_settings":
            assert getattr(found, field.name) == getattr(expected, field.name), field.name
    assert found.cloud_settings is not None and expected.cloud_settings is not None
    assert isinstance(expected.cloud_settings, type(found.cloud_settings))
    assert found.cloud_settings.stack_values() == expected.cloud_settings.stack_values()


@pytest.mark.parametrize("stack", EXAMPLE_STACKS)
def test_every_example_stack_takes_the_fast_path_to_the_models_settings(stack: str) -> None:
    values = stack_values(stack)
    fast.fallbacks.clear()
    found = parse_stack_settings(values, secret_keys=())
    assert list(fast.fallbacks) == [], f"{stack}: the fast path refused {list(fast.fallbacks)}"
    with slow_only():
        expected = parse_stack_settings(values, secret_keys=())
    same_settings(found, expected)
    assert found.pools == expected.pools and found.pools


def test_the_training_example_s_settings_take_the_fast_path() -> None:
    """``examples/training_job`` reads no ``gpuready:*`` keys; its pools are the stack's (``gke-dev``) ones."""
    config = yaml.safe_load((ROOT / "examples/training_job/Pulumi.dev.yaml").read_text(encoding="utf-8"))["config"]
    assert not any(key.startswith(f"{NS}:") for key in config)


def problems_both_ways(parse: Any) -> tuple[list[object], list[object]]:
    """The problems ``parse()`` raises with the fast path on and off, field by field and as printed."""

    def words(error: ConfigError) -> list[object]:
        fields = [(p.path, p.problem, repr(p.value), tuple(p.allowed), p.hint, str(p)) for p in error.problems]
        return [*fields, str(error)]

    with pytest.raises(ConfigError) as fast_error:
        parse()
    with slow_only(), pytest.raises(ConfigError) as slow_error:
        parse()
    return words(fast_error.value), words(slow_error.value)


@pytest.mark.parametrize("case", BAD_POOLS, ids=[c["id"] for c in BAD_POOLS])
def test_every_bad_pool_list_gets_the_models_problems(case: dict[str, Any]) -> None:
    found, expected = problems_both_ways(lambda: parse_pools(case["pools"], case["cloud"], f"{NS}:nodePools"))
    assert found == expected


@pytest.mark.parametrize("case", BAD_GPU_STACKS, ids=[c["id"] for c in BAD_GPU_STACKS])
def test_every_bad_gpu_stack_gets_the_models_problems(case: dict[str, Any]) -> None:
    found, expected = problems_both_ways(lambda: parse_gpu_stack(case["gpuStack"], f"{NS}:gpuStack"))
    assert found == expected


@pytest.mark.parametrize(
    "bad",
    [
        {"verify": "yes"},
        {"verifyTimeoutSeconds": "0"},
        {"verifySmokeImage": "not an image!"},
        {"eksSubnetIds": '["subnet-1"]'},
        {"gkeLocation": "US-Central1"},
        {"tags": "team=ml"},
        {"kubeconfig": 42},
        {"clusterNmae": "ml"},
        {"cloud": "gcp"},
        {"nodePools": "[{name: gpu, maxSize: true}]"},
        {"gpuStack": "{kind: gpu-operator, nfd: sometimes}"},
        {"kueue": "{flavors: some}"},
        {"binpackScheduler": "{replicas: two}"},
    ],
    ids=lambda bad: next(iter(bad)),
)
def test_every_bad_stack_key_gets_the_models_problems(bad: dict[str, object]) -> None:
    values = {**stack_values("gke-dev"), **bad}
    found, expected = problems_both_ways(lambda: parse_stack_settings(values, secret_keys=()))
    assert found == expected


class Text(str):
    """A ``str`` subclass: strict pydantic decides about it, the fast path does not."""


POOL = {"name": "gpu", "instanceType": "g6.xlarge", "minSize": 0, "maxSize": 2}


@pytest.mark.parametrize(
    ("shape", "raw", "accepted"),
    [
        ("PoolConfig", POOL, True),
        ("PoolConfig", {**POOL, "minSize": None, "gpu": None}, True),  # null is absent
        ("PoolConfig", {**POOL, "maxSize": True}, False),  # a boolean is not a number
        ("PoolConfig", {**POOL, "maxSize": "2"}, False),  # no coercion
        ("PoolConfig", {**POOL, "maxSize": 2.0}, False),
        ("PoolConfig", {**POOL, "name": Text("gpu")}, False),
        ("PoolConfig", {**POOL, "instanceTyp": "g6.xlarge"}, False),  # unknown key
        ("PoolConfig", {**POOL, "instance_type": "g6.xlarge"}, False),  # by name, not alias
        ("PoolConfig", {"name": "gpu"}, False),  # maxSize required
        ("PoolConfig", {**POOL, "instanceType": ["g6.xlarge", "g6.2xlarge"]}, True),
        ("PoolConfig", {**POOL, "instanceType": ("g6.xlarge",)}, False),
        ("PoolConfig", {**POOL, "sharing": "none"}, True),
        ("PoolConfig", {**POOL, "sharing": {"mode": "mps", "replicas": 2}}, True),
        ("PoolConfig", {**POOL, "sharing": {"mode": "none"}}, True),
        ("PoolConfig", {**POOL, "sharing": {"mode": "mig", "layout": {"1g.10gb": 7}}}, True),
        ("PoolConfig", {**POOL, "sharing": {"mode": "mig", "layout": "all-1g.10gb"}}, True),
        ("PoolConfig", {**POOL, "sharing": {"mode": "spread"}}, False),
        ("PoolConfig", {**POOL, "sharing": {"replicas": 2}}, False),
        ("PoolConfig", {**POOL, "taints": ["a=b:NoSchedule", {"key": "c", "effect": "NoExecute"}]}, True),
        ("PoolConfig", {**POOL, "taints": ["a=b"]}, False),
        ("PoolConfig", {**POOL, "repair": False, "fabric": "efa"}, True),
        ("PoolConfig", {**POOL, "labels": {"a": 1}}, False),
        ("PoolConfig", {**POOL, "disruptionBudgets": {"Drifted": 1, "Empty": "10%"}}, True),
        ("PoolConfig", {**POOL, "disruptionBudgets": {"Drifted": True}}, False),
        ("PoolConfig", {**POOL, "reservation": {"selectorTerms": [{"ownerID": "123456789012", "tags": {}}]}}, True),
        ("PoolConfig", {**POOL, "overrides": {"launchTemplate": {"id": "lt-1"}}}, True),
        ("PoolConfig", [POOL], False),
        ("GpuStackConfig", {"kind": "gpu-operator", "values": {"a": [1]}, "health": {"agent": "platform"}}, True),
        ("GpuStackConfig", {"kind": "gpu-operater"}, False),
        ("GpuStackConfig", {"kind": "device-plugin", "gfd": "true"}, False),
        ("KueueConfig", {"flavors": "all", "clusterQueue": {"name": "q", "quota": {"p": {"cpu": 8}}}}, True),
        ("BinPackSchedulerConfig", {"kubeSchedulerVersion": "v1.33.4", "tolerations": [{"key": "k"}]}, True),
        (joined(), {"cloud": "eks", "clusterName": "c", "nodePools": "[]", "verify": "true", "tags": ["a=b"]}, True),
        (joined(), {"cloud": "eks", "clusterName": "c", "nodePools": "[]", "verifyTimeoutSeconds": "0"}, False),
        (joined(), {"cloud": "eks", "clusterName": "c", "nodePools": "[]", "eksSubnetIds": ["subnet-1"]}, False),
        (joined(), {"cloud": "eks", "clusterName": "c", "nodePools": "[]", "eksSubnetIds": ["subnet-0a1b2c3d"]}, True),
        (joined(), {"cloud": "ecs", "clusterName": "c", "nodePools": "[]"}, False),
    ],
)
def test_the_fast_path_accepts_only_what_the_models_accept(shape: str, raw: object, accepted: bool) -> None:
    """``both_ways`` asserts equality with the model wherever the fast path accepts; refusals leave it to pydantic."""
    assert (both_ways(shape, raw) is not None) is accepted


def test_every_cloud_s_light_settings_class_is_its_models_base() -> None:
    for profile in cloud_profiles():
        assert issubclass(profile.settings, profile.settings_values), profile.name
        assert fast.shape_of(profile.settings_values) == profile.settings.__name__
        assert profile.settings_values.required_keys() == profile.settings.required_keys()
        assert profile.settings_values.target_keys() == profile.settings.target_keys()


@pytest.mark.parametrize(
    ("row", "raw"),
    [
        ([False, ["not_registered"], [["name", "name", "str"]]], {"name": "a"}),  # a validator no module registered
        ([False, [], [["name", "name", ["checked", "str", [], ["NOT_REGISTERED"]]]]], {"name": "a"}),
        ([True, [], [["name", "name", "str"]]], {"name": "a"}),  # a light class not registered under the shape
    ],
    ids=["before", "after", "light"],
)
def test_a_name_nothing_registered_sends_the_value_to_the_models(row: list[object], raw: object) -> None:
    shape = fast.add(f"Probe:{json.dumps(row)}", row)
    assert fast.light(shape, raw) is None
    assert fast.fallbacks[-1] == shape


def test_the_fast_path_reads_no_module_path() -> None:
    """Objects are found by the names they registered under (``forms.named``, ``Values, shape=``), never in
    ``sys.modules`` or by a ``module:name`` string."""
    text = (ROOT / "components/gpuready/core/config_model/fast.py").read_text(encoding="utf-8")
    assert "sys.modules" not in text and "import sys" not in text
    tables = [
        ROOT / "components/gpuready/core/config_model/shapes.json",
        *ROOT.glob("components/gpuready/*/settings_shape.json"),
    ]
    assert len(tables) == 1 + len(cloud_names())
    assert not any("gpuready." in path.read_text(encoding="utf-8") for path in tables)
