"""A pool's ``overrides``: extra inputs of its cloud resource, checked against the SDK's inputs and merged. Pure.

Each cloud package records the input tree of its pool resource (``gpuready/<cloud>/inputs.json``, generated from
the installed Pulumi SDK by ``tests/fidelity/resource_inputs.py`` and drift-tested against it) and names the inputs
gpuready owns (``<cloud>.plan.OWNED_INPUTS``: input path -> the pool key that decides it). Overrides are written in
the provider's spelling, camelCase as in Pulumi YAML and in ``gpuready plan`` (``launchTemplate``,
``nodeConfig.gvnic``); ``to_python`` turns them into the SDK's Python argument names and ``deep_merge`` lays them
over the planned arguments, mapping into mapping, anything else replaced.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import field
from functools import cache
from importlib import resources
from typing import Any

from gpuready.core.mappings import plain_path
from gpuready.core.suggest import did_you_mean
from gpuready.errors import Problem, kind_of
from gpuready.record import record

PLAIN = (str, int, float, bool, type(None))


@record(frozen=True, slots=True)
class InputNode:
    """One input: its Python argument name and, for a mapping (or list of mappings), the inputs inside."""

    python: str
    inputs: Mapping[str, InputNode] | None = None
    is_list: bool = False


@record(frozen=True, slots=True)
class InputTree:
    """The inputs of a cloud resource, as the SDK named in ``sdk`` declares them."""

    resource: str
    """How messages name the resource (``aws.eks.NodeGroup``)."""
    sdk: str
    """The SDK and version the tree was read from (``pulumi_aws 7.51.1``)."""
    inputs: Mapping[str, InputNode]


def _node(data: Mapping[str, Any]) -> InputNode:
    nested = data.get("inputs", data.get("list"))
    inputs = None if nested is None else {k: _node(v) for k, v in nested.items()}
    return InputNode(python=data["python"], inputs=inputs, is_list="list" in data)


@cache
def load(package: str) -> InputTree:
    """The recorded input tree of ``package`` (``gpuready.eks``): its ``inputs.json``."""
    data = json.loads(resources.files(package).joinpath("inputs.json").read_text(encoding="utf-8"))
    return InputTree(
        resource=data["resource"], sdk=data["sdk"], inputs={k: _node(v) for k, v in data["inputs"].items()}
    )


def override_problems(overrides: Mapping[str, Any], tree: InputTree, owned: Mapping[str, str]) -> list[Problem]:
    """Every problem of ``overrides``: keys the resource does not take (with a did-you-mean), keys gpuready owns
    (naming the pool key that decides them), mappings given as something else, and values that are not plain
    data (text, numbers, booleans, lists, mappings)."""
    walk = _Walk(tree, owned)
    walk.mapping(overrides, tree.inputs, "")
    return walk.problems


@record(slots=True)
class _Walk:
    """One check of a pool's overrides: the tree, the owned inputs, and the problems found so far."""

    tree: InputTree
    owned: Mapping[str, str]
    problems: list[Problem] = field(default_factory=list)

    def mapping(self, given: Mapping[str, Any], inputs: Mapping[str, InputNode], prefix: str) -> None:
        for key, value in given.items():
            where = f"{prefix}.{key}" if prefix else str(key)
            path = f"overrides.{where}"
            node = inputs.get(key) if isinstance(key, str) else None
            if node is None:
                owned_here = {k for k in inputs if _join(prefix, k) in self.owned}
                self.problems.append(_unknown(path, key, inputs, self.tree, owned_here))
                continue
            owner = self.owned.get(plain_path(where))
            if owner is not None:
                self.problems.append(
                    Problem(path, f"owned by {owner}", None, (), f"set {owner} instead of overriding it")
                )
            elif node.inputs is None:
                self.problems.extend(_plain_problems(path, value))
            elif node.is_list and isinstance(value, list):
                for index, item in enumerate(value):
                    self.nested(item, node.inputs, f"{where}[{index}]")
            elif not node.is_list:
                self.nested(value, node.inputs, where)
            else:
                title = _title(self.tree, where)
                self.problems.append(Problem(path, f"must be a list of mappings of {title} inputs", kind_of(value)))

    def nested(self, value: Any, inputs: Mapping[str, InputNode], where: str) -> None:
        if isinstance(value, Mapping):
            self.mapping(value, inputs, where)
        else:
            title = _title(self.tree, where)
            self.problems.append(Problem(f"overrides.{where}", f"must be a mapping of {title} inputs", kind_of(value)))


def _join(prefix: str, key: str) -> str:
    return plain_path(f"{prefix}.{key}" if prefix else key)


def _unknown(path: str, key: object, inputs: Mapping[str, InputNode], tree: InputTree, owned: set[str]) -> Problem:
    by_python = {node.python: name for name, node in inputs.items()}
    if isinstance(key, str) and key in by_python:
        hint = f"write it as {by_python[key]!r}: overrides use the provider's camelCase spelling, as in Pulumi YAML"
    else:
        hint = did_you_mean(key, inputs) or f"the inputs are listed in the {tree.sdk} docs of {tree.resource}"
    if isinstance(key, str) and (by_python.get(key) in owned or any(f"{o!r}" in hint for o in owned)):
        hint += " (gpuready owns that input: set the pool key that decides it)"
    return Problem(path, f"not an input of {tree.resource} ({tree.sdk})", key, (), hint)


def _plain_problems(path: str, value: Any) -> list[Problem]:
    if isinstance(value, PLAIN):
        return []
    if isinstance(value, list | tuple):
        return [p for index, item in enumerate(value) for p in _plain_problems(f"{path}[{index}]", item)]
    if isinstance(value, Mapping):
        return [p for key, item in value.items() for p in _plain_problems(f"{path}.{key}", item)]
    return [
        Problem(
            path,
            "takes plain data (text, numbers, booleans, lists, mappings)",
            kind_of(value),
            (),
            "for a computed value (an Output), set it with a Pulumi transform on the pool's resource",
        )
    ]


def _title(tree: InputTree, where: str) -> str:
    return f"{tree.resource} {plain_path(where)}"


def to_python(overrides: Mapping[str, Any], tree: InputTree) -> dict[str, Any]:
    """``overrides`` (already checked) with the SDK's Python argument names, nested mappings included."""
    return _to_python(overrides, tree.inputs)


def _to_python(given: Mapping[str, Any], inputs: Mapping[str, InputNode]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in given.items():
        node = inputs[key]
        if node.inputs is not None and isinstance(value, Mapping):
            out[node.python] = _to_python(value, node.inputs)
        elif node.inputs is not None and isinstance(value, list):
            nested = node.inputs
            out[node.python] = [_to_python(v, nested) if isinstance(v, Mapping) else v for v in value]
        else:
            out[node.python] = value
    return out


def copied(value: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``value`` whose mappings and lists are new (a spec's overrides cannot change behind it)."""
    return {key: _copied(item) for key, item in value.items()}


def _copied(value: Any) -> Any:
    if isinstance(value, Mapping):
        return copied(value)
    if isinstance(value, list | tuple):
        return [_copied(item) for item in value]
    return value


def owned_paths_problems(owned: Mapping[str, str], tree: InputTree) -> list[str]:
    """Owned paths that name no input of the tree (a typo in a cloud's ``OWNED_INPUTS``; for tests)."""
    missing = []
    for path in owned:
        inputs: Mapping[str, InputNode] | None = tree.inputs
        for part in path.split("."):
            node = inputs.get(part) if inputs is not None else None
            if node is None:
                missing.append(path)
                break
            inputs = node.inputs
    return missing
