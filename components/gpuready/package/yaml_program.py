"""Pulumi YAML programs checked offline: every ``gpuready:*`` resource's properties against the component package
schema (``gpuready.package.schema``: type token, property names, required inputs, property types) and then the
config models the provider's ``Construct`` checks them with (``gpuready.package.input_check``).

Only gpuready's resources are checked; the rest of the program (other resources, functions, outputs) and what the
components would create are not planned. References resolve as Pulumi YAML resolves them where that is knowable
offline: ``${variable}`` (and ``${variable.key}``) to the program's variables, ``${key}`` to the stack's config;
another resource's output stays unknown, and a model input that is unknown is a problem, as in ``Construct``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from gpuready.errors import ConfigError, GpuReadyError, Problem, SpecError, kind_of
from gpuready.package.input_check import (
    CONVENTION_INPUTS,
    FEATURE_GATES,
    RELEASE_KINDS,
    SETTING_KINDS,
    check_inputs,
)
from gpuready.package.schema import schema_text
from gpuready.package.yaml_schema import schema_problems
from gpuready.record import record

REFERENCE = re.compile(r"\$\{([^}]+)\}")
POOL_MODEL_INPUTS = frozenset({"pool", FEATURE_GATES, *CONVENTION_INPUTS})
"""The inputs of a pool component its parsers read (the others are wiring, checked by their schema types only)."""


class Unknown:
    """A value known only when the program runs (another resource's output, a function's result, unset config)."""

    def __init__(self, reference: str) -> None:
        self.reference = reference

    def __repr__(self) -> str:
        return f"<unknown: {self.reference}>"


@record(frozen=True)
class YamlCheck:
    """What was checked: the program, the stack, the gpuready resources (name, type), the others, the problems."""

    project: str
    stack: str
    checked: tuple[tuple[str, str], ...]
    not_planned: tuple[tuple[str, str], ...]
    problems: tuple[Problem, ...]


def check_yaml_program(project_dir: Path, stack: str) -> YamlCheck:
    """Check every ``gpuready:*`` resource of the YAML program in ``project_dir`` for stack ``stack``."""
    path = next((p for p in (project_dir / "Pulumi.yaml", project_dir / "Pulumi.yml") if p.is_file()), None)
    if path is None:
        raise ConfigError.one(str(project_dir), "has no Pulumi.yaml", None, (), "pass the Pulumi project's directory")
    document = _mapping(yaml.safe_load(path.read_text(encoding="utf-8")), str(path))
    project = str(document.get("name", ""))
    resolver = _Resolver(_mapping(document.get("variables") or {}, "variables"), _config(document, project_dir, stack))
    schema = json.loads(schema_text())
    checked: list[tuple[str, str]] = []
    others: list[tuple[str, str]] = []
    problems: list[Problem] = []
    for name, resource in _mapping(document.get("resources") or {}, "resources").items():
        kind = str(resource.get("type", "")) if isinstance(resource, Mapping) else ""
        if not kind.startswith("gpuready:"):
            others.append((name, kind))
            continue
        checked.append((name, kind))
        properties = resource.get("properties") or {}
        where = f"resources.{name}.properties"
        declared = schema["resources"].get(kind)
        if declared is None:
            problems.append(
                Problem(f"resources.{name}.type", "is not a gpuready component", kind, tuple(schema["resources"]))
            )
            continue
        if not isinstance(properties, Mapping):
            problems.append(Problem(where, "must be a mapping", properties))
            continue
        inputs = {key: resolver.resolve(value) for key, value in properties.items()}
        found = schema_problems(inputs, declared, schema["types"], where)
        if not found:
            found = _model_problems(kind, inputs, where, gated=FEATURE_GATES in declared["inputProperties"])
        problems.extend(found)
    return YamlCheck(project, stack, tuple(checked), tuple(others), tuple(problems))


def _model_problems(kind: str, inputs: Mapping[str, Any], where: str, *, gated: bool) -> list[Problem]:
    """The component's parsers on its inputs; an unknown model input is a problem of its own."""
    model_inputs = inputs if kind in RELEASE_KINDS or kind in SETTING_KINDS else {
        k: v for k, v in inputs.items() if k in POOL_MODEL_INPUTS
    }  # fmt: skip
    unknown = [
        Problem(f"{where}.{path}", "must be known when the program runs, not another resource's output", value)
        for key, value in model_inputs.items()
        for path, value in _unknowns(value, key)
    ]
    if unknown:
        return unknown
    try:
        check_inputs(kind, model_inputs, gated=gated)
    except SpecError as error:
        return [_rebased(p, where) for p in error.problems]
    except GpuReadyError as error:
        return [Problem(where, str(error))]
    return []


def _rebased(problem: Problem, where: str) -> Problem:
    path = f"{where}.{problem.path}" if problem.path else where
    return Problem(path, problem.problem, problem.value, problem.allowed, problem.hint)


def _unknowns(value: Any, path: str) -> list[tuple[str, str]]:
    if isinstance(value, Unknown):
        return [(path, value.reference)]
    if isinstance(value, Mapping):
        return [u for k, v in value.items() for u in _unknowns(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [u for i, v in enumerate(value) for u in _unknowns(v, f"{path}[{i}]")]
    return []


def _config(document: Mapping[str, Any], project_dir: Path, stack: str) -> dict[str, Any]:
    """The program's config values: the project's defaults and values, then the stack file's (keys of the project's
    namespace without it, as ``${key}`` names them)."""
    values: dict[str, Any] = {}
    for key, declared in _mapping(document.get("config") or {}, "config").items():
        if isinstance(declared, Mapping):
            for field in ("default", "value"):
                if field in declared:
                    values[key] = declared[field]
        else:
            values[key] = declared
    stack_file = project_dir / f"Pulumi.{stack}.yaml"
    if stack_file.is_file():
        stack_document = _mapping(yaml.safe_load(stack_file.read_text(encoding="utf-8")) or {}, str(stack_file))
        project = f"{document.get('name')}:"
        for key, value in _mapping(stack_document.get("config") or {}, "config").items():
            if not isinstance(value, Mapping) or "secure" not in value:
                values[key.removeprefix(project)] = value
    return values


def _mapping(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError.one(where, f"must be a mapping; got {kind_of(value)}")
    return value


class _Resolver:
    """``${...}`` references of a YAML program, resolved where that is knowable offline."""

    def __init__(self, variables: Mapping[str, Any], config: Mapping[str, Any]) -> None:
        self._variables = variables
        self._config = config

    def resolve(self, value: Any, seen: Sequence[str] = ()) -> Any:
        if isinstance(value, str):
            whole = REFERENCE.fullmatch(value)
            if whole:
                return self._reference(whole[1].strip(), seen)
            if not REFERENCE.search(value):
                return value
            parts = [self._reference(m.strip(), seen) for m in REFERENCE.findall(value)]
            if any(isinstance(p, Unknown) or not isinstance(p, str | int | float | bool) for p in parts):
                return Unknown(value)
            return REFERENCE.sub(lambda m: str(self._reference(m[1].strip(), seen)), value)
        if isinstance(value, Mapping):
            if len(value) == 1 and str(next(iter(value))).startswith("fn::"):
                return Unknown(str(next(iter(value))))
            return {k: self.resolve(v, seen) for k, v in value.items()}
        if isinstance(value, list):
            return [self.resolve(v, seen) for v in value]
        return value

    def _reference(self, reference: str, seen: Sequence[str]) -> Any:
        head, *rest = reference.split(".")
        if head in self._variables and head not in seen:
            value = self.resolve(self._variables[head], (*seen, head))
        elif head in self._config and not rest:
            value = self._config[head]
        else:
            return Unknown(reference)
        for key in rest:
            if not isinstance(value, Mapping) or key not in value:
                return Unknown(reference)
            value = value[key]
        return value
