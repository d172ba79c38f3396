"""The ``x-kubernetes-validations`` CEL rules of a CRD schema, evaluated on an object with cel-python (``celpy``).

The apiserver evaluates each rule with ``self`` bound to the value at the schema node that carries it, for every
value present (a rule under ``items`` once per item, under ``additionalProperties`` once per map value). Transition
rules (those that read ``oldSelf``) judge an update against the stored object; a planned object is a create, so they
do not apply (Kubernetes "Validation rules": "transition rules ... are only evaluated on update"). The Kubernetes CEL
libraries the vendored CRDs use beyond standard CEL are added here: ``find`` (regex library,
``k8s.io/apiserver/pkg/cel/library/regex.go``) and ``split`` (cel-go ``ext.Strings``, which Kubernetes enables).
A rule the library cannot evaluate raises (the test fails with the error): never a silent pass.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from typing import Any

import celpy
from celpy import celtypes
from celpy.adapter import json_to_cel


def _find(text: Any, pattern: Any) -> Any:
    found = re.search(str(pattern), str(text))
    return celtypes.StringType(found.group(0) if found else "")


def _split(text: Any, separator: Any) -> Any:
    return celtypes.ListType([celtypes.StringType(part) for part in str(text).split(str(separator))])


FUNCTIONS = {"find": _find, "split": _split}
ENV = celpy.Environment()


TRAILING_COMMA = re.compile(r",\s*\]")
"""cel-go's grammar takes a trailing comma in a list literal (``[a, b, ]``; cel-spec ``ListInit`` ends in ``','?``),
cel-python's does not: dropped before parsing (no rule of the vendored CRDs has ``, ]`` inside a string)."""


@functools.cache
def _program(rule: str) -> Any:
    return ENV.program(ENV.compile(TRAILING_COMMA.sub("]", rule)), functions=FUNCTIONS)


def _rules(schema: Mapping[str, Any]) -> Iterator[str]:
    for validation in schema.get("x-kubernetes-validations", ()):
        rule = validation["rule"]
        if "oldSelf" not in rule:
            yield rule


def evaluate(rule: str, value: Any) -> bool:
    """Whether ``rule`` holds with ``self`` bound to ``value`` (raises when the rule cannot be evaluated)."""
    result = _program(rule).evaluate({"self": json_to_cel(value)})
    if isinstance(result, Exception):
        raise result
    return bool(result)


def cel_problems(schema: Mapping[str, Any], value: Any, path: str = "") -> list[str]:
    """Every CEL rule of ``schema`` (and of its properties, items and map values) that ``value`` breaks, with the
    path of the value and the rule's message."""
    found: list[str] = []
    for rule in _rules(schema):
        if not evaluate(rule, value):
            message = next(v.get("message", rule) for v in schema["x-kubernetes-validations"] if v["rule"] == rule)
            found.append(f"{path}: {message}")
    if isinstance(value, Mapping):
        properties = schema.get("properties") or {}
        extra = schema.get("additionalProperties")
        for key, item in value.items():
            below = properties.get(key) or (extra if isinstance(extra, Mapping) else None)
            if below is not None:
                found.extend(cel_problems(below, item, f"{path}.{key}" if path else str(key)))
    elif isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        for index, item in enumerate(value):
            found.extend(cel_problems(schema["items"], item, f"{path}[{index}]"))
    return found
