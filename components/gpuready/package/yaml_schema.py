"""Property values against the component package schema's types (``schema.json``): names, required inputs, types.

The schema is the package's shape; the config models are stricter and run after it (``yaml_program``). A value known
only when the program runs (``yaml_program.Unknown``) fits every type.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.errors import Problem

SCALARS: Mapping[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
}
ARTICLES: Mapping[str, str] = {"string": "a", "integer": "an", "number": "a", "boolean": "a"}


def schema_problems(
    inputs: Mapping[str, Any], declared: Mapping[str, Any], types: Mapping[str, Any], where: str
) -> list[Problem]:
    """Problems of a resource's inputs against its schema entry (``inputProperties``, ``requiredInputs``)."""
    properties: Mapping[str, Any] = declared.get("inputProperties", {})
    found = [
        Problem(f"{where}.{key}", "is not an input of this component", None, tuple(properties))
        for key in inputs
        if key not in properties
    ]
    found += [
        Problem(f"{where}.{key}", "is required", None, (), "set it")
        for key in declared.get("requiredInputs", ())
        if key not in inputs
    ]
    for key, value in inputs.items():
        if key in properties:
            found += _value_problems(value, properties[key], types, f"{where}.{key}")
    return found


def _value_problems(value: Any, spec: Mapping[str, Any], types: Mapping[str, Any], path: str) -> list[Problem]:
    if type(value).__name__ == "Unknown" or "oneOf" in spec:
        return []  # known at run time only / several shapes: the config models judge it
    reference = spec.get("$ref", "")
    if reference.startswith("#/types/"):
        return _type_problems(value, types[reference.removeprefix("#/types/")], types, path)
    kind = str(spec.get("type", ""))
    if kind in SCALARS:
        wrong = not isinstance(value, SCALARS[kind]) or (kind != "boolean" and isinstance(value, bool))
        return [Problem(path, f"must be {ARTICLES[kind]} {kind}", value)] if wrong else []
    if kind == "array":
        if not isinstance(value, list):
            return [Problem(path, "must be a list", value)]
        return [
            p for i, v in enumerate(value) for p in _value_problems(v, spec.get("items", {}), types, f"{path}[{i}]")
        ]
    if kind == "object":
        if not isinstance(value, Mapping):
            return [Problem(path, "must be a mapping", value)]
        item = spec.get("additionalProperties", {})
        return [p for k, v in value.items() for p in _value_problems(v, item, types, f"{path}.{k}")]
    return []


def _type_problems(value: Any, declared: Mapping[str, Any], types: Mapping[str, Any], path: str) -> list[Problem]:
    if "enum" in declared:
        allowed = tuple(str(e["value"]) for e in declared["enum"])
        return [] if str(value) in allowed else [Problem(path, "is not one of the allowed values", value, allowed)]
    if not isinstance(value, Mapping):
        return [Problem(path, "must be a mapping", value)]
    properties: Mapping[str, Any] = declared.get("properties", {})
    found = [
        Problem(f"{path}.{key}", "is not a property of this type", None, tuple(properties))
        for key in value
        if key not in properties
    ]
    found += [Problem(f"{path}.{key}", "is required", None) for key in declared.get("required", ()) if key not in value]
    for key, item in value.items():
        if key in properties:
            found += _value_problems(item, properties[key], types, f"{path}.{key}")
    return found
