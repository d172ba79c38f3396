"""Strict validation of custom resources against upstream CRD schemas (``tests.upstream``: ../shared).

A CRD's structural schema lets the apiserver drop unknown fields silently, so plain schema validation would pass
an object with a misspelt field that then does nothing. ``strict`` closes every object schema that lists its
``properties`` (``additionalProperties: false``) unless it preserves unknown fields or types its extra keys
itself, so an unknown or misspelt field fails with its path. The CEL rules (``x-kubernetes-validations``) are
evaluated too (``tests/crd_cel.py``, cel-python), except transition rules, which judge updates only.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from typing import Any

import jsonschema
import yaml

from tests.crd_cel import cel_problems
from tests.upstream import upstream_text

_GO_FLAGS = re.compile(r"^\^\(\?([a-z]+)\)")
"""A leading ``^(?flags)``, which Python's ``re`` refuses (global flags must come first) and RE2 accepts."""


def strict(schema: Any) -> Any:
    """``schema`` with ``additionalProperties: false`` on every object schema that lists properties and says
    nothing of other keys."""
    if isinstance(schema, list):
        return [strict(item) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    closed = {key: strict(value) for key, value in schema.items() if key != "properties"}
    if isinstance(closed.get("pattern"), str):  # Go's RE2 takes flags after '^' (Kueue's ``^(?i)[a-z]...``)
        closed["pattern"] = _GO_FLAGS.sub(r"(?\1)^", closed["pattern"])
    if (
        "properties" in schema
        and "additionalProperties" not in schema
        and not schema.get("x-kubernetes-preserve-unknown-fields")
    ):
        closed["additionalProperties"] = False
    if isinstance(schema.get("properties"), Mapping):  # a mapping of field -> schema, not a schema itself
        closed["properties"] = {name: strict(value) for name, value in schema["properties"].items()}
    return closed


@functools.cache
def crd_schema(file: str, api_version: str) -> Mapping[str, Any]:
    """The OpenAPI schema of the served version ``api_version`` of the CRD in ``<upstream>/<file>``."""
    crd = yaml.safe_load(upstream_text(file))
    group, version = api_version.split("/")
    assert crd["spec"]["group"] == group, (file, api_version)
    (schema,) = [v["schema"]["openAPIV3Schema"] for v in crd["spec"]["versions"] if v["name"] == version]
    return schema  # type: ignore[no-any-return]


@functools.cache
def crd_validator(file: str, api_version: str) -> jsonschema.Draft7Validator:
    """A strict validator of the served version ``api_version`` of the CRD in ``<upstream>/<file>``."""
    return jsonschema.Draft7Validator(strict(crd_schema(file, api_version)))


def crd_problems(file: str, obj: Mapping[str, Any]) -> list[str]:
    """Every way ``obj`` breaks its strict CRD schema and its CEL rules, with the path of each."""
    validator = crd_validator(file, str(obj["apiVersion"]))
    found = [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(obj)]
    return sorted([*found, *cel_problems(crd_schema(file, str(obj["apiVersion"])), obj)])


@functools.cache
def json_schema(file: str) -> Mapping[str, Any]:
    """The JSON schema in ``<upstream>/<file>`` (a CRD published as a JSON schema, e.g. by
    datreeio/CRDs-catalog, for CRDs whose definitions are not public)."""
    return json.loads(upstream_text(file))  # type: ignore[no-any-return]


@functools.cache
def json_schema_validator(file: str) -> jsonschema.Draft7Validator:
    """A strict validator of the JSON schema in ``<upstream>/<file>``."""
    return jsonschema.Draft7Validator(strict(json_schema(file)))


def schema_problems(file: str, obj: Mapping[str, Any]) -> list[str]:
    """Every way ``obj`` breaks the strict JSON schema in ``file`` and its CEL rules, with the path of each."""
    errors = json_schema_validator(file).iter_errors(obj)
    found = [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in errors]
    return sorted([*found, *cel_problems(json_schema(file), obj)])


def problems_against(schema: Mapping[str, Any], obj: Mapping[str, Any]) -> list[str]:
    """Every way ``obj`` breaks ``schema`` made strict and its CEL rules: for a schema a test assembles from upstream
    ones (a property of one CRD grafted into another's schema, ``tests/eks/auto_mode_schema.py``)."""
    errors = jsonschema.Draft7Validator(strict(schema)).iter_errors(obj)
    found = [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in errors]
    return sorted([*found, *cel_problems(schema, obj)])


def with_field(obj: dict[str, Any], path: tuple[str, ...], key: str, value: Any = "x") -> dict[str, Any]:
    """``obj`` with ``key: value`` added at ``path`` (a misspelt or unknown field, for the strictness tests)."""
    where = obj
    for step in path:
        where = where[step]
    where[key] = value
    return obj
