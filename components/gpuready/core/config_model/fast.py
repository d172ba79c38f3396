"""The config models' fast path: a valid config checked against the shape table, with no pydantic. Pure.

``shapes`` (generated from the pydantic models by ``shape_table``) describes each model: its light class, the
before-validators it runs, its fields (name, alias, type tree, default). ``light`` checks a value as pydantic's
strict mode would (no coercion: ``True`` is not a number, ``"2"`` is not one either; unknown keys refused; null is
absent) and builds the model's light class, which the pydantic model subclasses, so code downstream reads the same
attributes and calls the same methods either way. Whatever it does not accept exactly, it refuses (None): the
caller then validates with the pydantic model, which words the errors. So the fast path may be partial, never
different (``tests/core/config_model/test_fast.py`` holds the two paths equal).
"""

from __future__ import annotations

import importlib
from collections import deque
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypeVar

from gpuready.core.config_model import shapes
from gpuready.errors import ConfigError, SpecError

T = TypeVar("T")
Check = Callable[[Any], Any]

fallbacks: deque[str] = deque(maxlen=64)
"""The shapes of the last values the fast path refused in this process, in order (a valid stack leaves it empty)."""

enabled = True
"""False: every value goes to the pydantic models (the differential tests compare the two paths)."""


class _Refused(Exception):
    """Not accepted exactly as given: the pydantic model decides."""


def light(shape: str, raw: object) -> Any:
    """``raw`` validated as the model ``shape``, as its light object (a dict of field values for a shape without a
    light class); None when the fast path does not accept it exactly."""
    if enabled:
        try:
            return _model(shape)(raw)
        except (_Refused, ValueError, TypeError):  # ShapeError is a ValueError
            pass
    fallbacks.append(shape)
    return None


def validated(shape: str, raw: object, build: Callable[[Any], T], slow: Callable[[], T]) -> T:
    """``build`` of ``raw`` as the light ``shape``, its ``SpecError`` as a ``ConfigError`` (as
    ``all_problems.validated``); ``slow()`` (the pydantic path) when the fast path refuses ``raw``."""
    entry = light(shape, raw)
    if entry is None:
        return slow()
    try:
        return build(entry)
    except SpecError as error:
        raise ConfigError(error.problems) from None


def field_names(shape: str) -> tuple[str, ...]:
    """The model's field names, in declaration order."""
    return tuple(field[0] for field in shapes.SHAPES[shape][2])


def field_aliases(shape: str) -> tuple[str, ...]:
    """The model's keys as a config spells them, in declaration order."""
    return tuple(field[1] for field in shapes.SHAPES[shape][2])


def stack_keys_marked(shape: str, mark: str) -> tuple[str, ...]:
    """A cloud settings model's keys marked ``required`` or ``target`` (``cloud_keys.StackKey``)."""
    return tuple(shapes.STACK_KEYS[shape][mark])


def shape_of(cls: type) -> str:
    """The shape of a light class (or of a model subclassing one)."""
    by_class = _by_class()
    for base in cls.__mro__:
        shape = by_class.get(f"{base.__module__}:{base.__qualname__}")
        if shape is not None:
            return shape
    raise KeyError(f"{cls.__name__}: no shape in the table (python -m tools.shape_table --write)")


def light_class(shape: str) -> type:
    """The light class of ``shape``."""
    found = _resolve(shapes.SHAPES[shape][0])
    assert isinstance(found, type)
    return found


def tagged_keys(shape: str, field: str) -> dict[str, frozenset[str]]:
    """Tag -> the keys its model takes, for the discriminated union of ``shape``'s ``field`` (e.g. sharing modes)."""
    node = next(f[2] for f in shapes.SHAPES[shape][2] if f[0] == field)
    while node[0] in ("optional", "checked"):
        node = node[1]
    return {tag: frozenset(field_aliases(model)) for tag, model in node[2]}


@cache
def _by_class() -> dict[str, str]:
    return {light: name for name, (light, _, _) in shapes.SHAPES.items() if light}


@cache
def _resolve(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


@cache
def _model(shape: str) -> Check:
    light_path, befores, fields = shapes.SHAPES[shape]
    runs = tuple(_resolve(path) for path in befores)
    made = light_class(shape) if light_path else None
    checks = tuple((f[0], f[1], _compile(f[2]), f[3] if len(f) > 3 else _REQUIRED) for f in fields)
    aliases = frozenset(f[1] for f in fields)

    def check(value: Any) -> Any:
        for run in runs:
            value = run(value)
        if type(value) is not dict or not aliases.issuperset(value):
            raise _Refused
        out: dict[str, Any] = {}
        for name, alias, field, default in checks:
            if alias in value:
                out[name] = field(value[alias])
            elif default is _REQUIRED:
                raise _Refused
            else:
                out[name] = default.copy() if isinstance(default, (list, dict)) else default
        if made is None:
            return out
        entry: Any = object.__new__(made)
        entry.__dict__.update(out)
        return entry

    return check


_REQUIRED = object()


def _exact(kind: type) -> Check:
    def check(value: Any) -> Any:
        if type(value) is not kind:
            raise _Refused
        return value

    return check


def _any(value: Any) -> Any:
    return value


_SCALARS: Mapping[str, Check] = {"str": _exact(str), "int": _exact(int), "bool": _exact(bool), "any": _any}


def _compile(node: Any) -> Check:
    if isinstance(node, str):
        return _SCALARS[node]
    kind = node[0]
    if kind == "model":
        return _late_model(node[1])
    if kind == "literal":
        return _literal(frozenset(node[1]))
    if kind == "optional":
        return _optional(_compile(node[1]))
    if kind == "list":
        return _list(_compile(node[1]))
    if kind == "dict":
        return _dict(_compile(node[1]), _compile(node[2]))
    if kind == "union":
        return _union(tuple(_compile(member) for member in node[1]))
    if kind == "choose":
        return _choose(_resolve(node[1]), {tag: _compile(member) for tag, member in node[2]})
    if kind == "tagged":
        return _tagged(node[1], {tag: _compile(("model", model)) for tag, model in node[2]})
    if kind == "checked":
        return _checked(tuple(map(_resolve, node[2])), _compile(node[1]), tuple(map(_resolve, node[3])))
    raise ValueError(f"unknown shape node {node!r}")


def _late_model(shape: str) -> Check:
    """A sub-model's check, compiled when first used."""

    def check(value: Any) -> Any:
        return _model(shape)(value)

    return check


def _literal(allowed: frozenset[str]) -> Check:
    def check(value: Any) -> Any:
        if type(value) is not str or value not in allowed:
            raise _Refused
        return value

    return check


def _optional(inner: Check) -> Check:
    return lambda value: None if value is None else inner(value)


def _list(item: Check) -> Check:
    def check(value: Any) -> Any:
        if type(value) is not list:
            raise _Refused
        return [item(v) for v in value]

    return check


def _dict(key: Check, item: Check) -> Check:
    def check(value: Any) -> Any:
        if type(value) is not dict:
            raise _Refused
        return {key(k): item(v) for k, v in value.items()}

    return check


def _union(members: tuple[Check, ...]) -> Check:
    """A union of scalar types: in strict mode at most one accepts a value (``int | str``)."""

    def check(value: Any) -> Any:
        for member in members:
            try:
                return member(value)
            except _Refused:
                continue
        raise _Refused

    return check


def _choose(form: Check, members: Mapping[str, Check]) -> Check:
    """A union whose member a function picks (pydantic's callable ``Discriminator``)."""

    def check(value: Any) -> Any:
        member = members.get(form(value))
        if member is None:
            raise _Refused
        return member(value)

    return check


def _tagged(key: str, members: Mapping[str, Check]) -> Check:
    """A union of models told apart by the value of their key ``key`` (``sharing.mode``)."""

    def check(value: Any) -> Any:
        tag = value.get(key) if type(value) is dict else None
        member = members.get(tag) if type(tag) is str else None
        if member is None:
            raise _Refused
        return member(value)

    return check


def _checked(befores: tuple[Check, ...], inner: Check, afters: tuple[Check, ...]) -> Check:
    def check(value: Any) -> Any:
        for run in befores:
            value = run(value)
        value = inner(value)
        for run in afters:
            value = run(value)
        return value

    return check
