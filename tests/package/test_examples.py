"""The other-language examples use the package as its schema says: tokens, property names, required inputs, and
pool entries the stack program's parser accepts."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import yaml

from gpuready.core.pool_config import parse_pools
from gpuready.package.schema import SCHEMA_FILE

ROOT = SCHEMA_FILE.parent
SCHEMA: dict[str, Any] = json.loads(SCHEMA_FILE.read_text())
YAML_PROGRAM: dict[str, Any] = yaml.safe_load((ROOT / "examples" / "yaml_eks" / "Pulumi.yaml").read_text())
VARIABLE = re.compile(r"^\$\{(\w+)\}$")


def _resolved(value: Any) -> Any:
    """A property value with the program's ``${variable}`` references to its variables replaced."""
    if isinstance(value, str) and (match := VARIABLE.match(value)) and match[1] in YAML_PROGRAM["variables"]:
        return YAML_PROGRAM["variables"][match[1]]
    if isinstance(value, list):
        return [_resolved(v) for v in value]
    return value


def _problems(value: Any, spec: dict[str, Any], path: str) -> list[str]:
    """Where ``value`` does not fit the schema type ``spec`` (object keys and required keys, recursively)."""
    if "$ref" in spec and spec["$ref"].startswith("#/types/"):
        declared = SCHEMA["types"][spec["$ref"].removeprefix("#/types/")]
        if "enum" in declared:
            allowed = [e["value"] for e in declared["enum"]]
            return [] if value in allowed else [f"{path}: {value!r} not in {allowed}"]
        if not isinstance(value, dict):
            return [f"{path}: expected an object"]
        found = [f"{path}.{key}: unknown property" for key in value if key not in declared["properties"]]
        found += [f"{path}.{key}: required" for key in declared.get("required", []) if key not in value]
        for key, item in value.items():
            if key in declared["properties"]:
                found += _problems(item, declared["properties"][key], f"{path}.{key}")
        return found
    if spec.get("type") == "array" and isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _problems(_resolved(v), spec["items"], f"{path}[{i}]")]
    return []


def _gpuready_resources() -> dict[str, dict[str, Any]]:
    return {k: v for k, v in YAML_PROGRAM["resources"].items() if v["type"].startswith("gpuready:")}


def test_the_yaml_example_uses_the_package_and_its_components() -> None:
    assert YAML_PROGRAM["packages"] == {"gpuready": "../.."}
    types = {r["type"] for r in _gpuready_resources().values()}
    assert types == {f"gpuready:index:{c}" for c in ("EksGpuNodePool", "EksKarpenterGpuPool", "GpuOperator")}


@pytest.mark.parametrize("name", sorted(_gpuready_resources()))
def test_every_yaml_resource_fits_the_schema(name: str) -> None:
    resource = _gpuready_resources()[name]
    declared = SCHEMA["resources"][resource["type"]]
    properties = resource["properties"]
    assert set(properties) <= set(declared["inputProperties"])
    assert set(declared["requiredInputs"]) <= set(properties)
    problems = [
        p for key, value in properties.items()
        for p in _problems(_resolved(value), declared["inputProperties"][key], key)
    ]  # fmt: skip
    assert problems == []


def test_the_yaml_outputs_are_schema_outputs() -> None:
    resources = YAML_PROGRAM["resources"]
    for reference in YAML_PROGRAM["outputs"].values():
        resource, output = reference.strip("${}").split(".")
        assert output in SCHEMA["resources"][resources[resource]["type"]]["properties"]


def test_the_yaml_pools_are_valid_pool_entries() -> None:
    variables = YAML_PROGRAM["variables"]
    train, shared = parse_pools([variables["trainPool"], variables["sharedPool"]], "eks")
    assert (train.name, train.provisioner, shared.name, shared.provisioner) == ("train", None, "l4-shared", "karpenter")


def test_the_elastic_pool_gets_the_cluster_provider() -> None:
    """An elastic pool makes Kubernetes objects: its Kubernetes provider comes in the resource options."""
    shared = YAML_PROGRAM["resources"]["shared"]
    assert shared["options"]["providers"] == ["${cluster}"]
    assert YAML_PROGRAM["resources"]["cluster"]["type"] == "pulumi:providers:kubernetes"


def test_the_schema_check_catches_a_misspelt_pool_key() -> None:
    pool_ref = SCHEMA["resources"]["gpuready:index:EksGpuNodePool"]["inputProperties"]["pool"]
    assert _problems({"name": "a", "instanceTyp": "x"}, pool_ref, "pool") == [
        "pool.instanceTyp: unknown property",
        "pool.maxSize: required",
    ]  # fmt: skip  (instanceType and minSize: required by the rules for fixed pools only, not by the schema)


def test_the_typescript_example_names_schema_components_and_outputs() -> None:
    source = (ROOT / "examples" / "typescript_eks" / "index.ts").read_text()
    components = set(re.findall(r"new gpuready\.(\w+)\(", source))
    assert components == {"EksGpuNodePool", "GpuOperator"}
    assert {f"gpuready:index:{c}" for c in components} <= set(SCHEMA["resources"])
    assert "gpuready.types.input.PoolSpecArgs" in source and "gpuready:index:PoolSpec" in SCHEMA["types"]
    package = json.loads((ROOT / "examples" / "typescript_eks" / "package.json").read_text())
    assert package["dependencies"]["@pulumi/gpuready"] == "file:sdks/gpuready"
