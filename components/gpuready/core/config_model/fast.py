"""The config models' fast path: a valid config checked against the shape tables, with no pydantic. Pure.

``shapes.json`` (generated from the cloud-neutral models: ``python -m tools.shape_table --write``; each cloud's
settings shape is in the cloud's own table, which its light class names) describes each model: whether it has a
light class, its before-validators, its fields (name, alias, type tree, default), naming objects by the names they
are registered under (``forms``: a light class under its shape, a validator or key format with ``forms.named``),
never by module path. ``light`` checks a value as pydantic's strict mode would (no coercion, unknown keys refused,
null is absent) and builds the model's light class, which the pydantic model subclasses, so code downstream reads
the same attributes either way. Whatever it does not accept exactly (or names an object not registered yet), it
refuses (None): the caller then validates with the pydantic model, which words the errors. So the fast path may be
partial, never different (``tests/core/config_model/test_fast.py`` holds the two paths equal).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from gpuready.core.config_model.forms import LIGHT, NAMED, SHAPE_OF, TABLES, ShapeError
from gpuready.errors import ConfigError, SpecError

T = TypeVar("T")
V = TypeVar("V")
Check = Callable[[Any], Any]

fallbacks: deque[str] = deque(maxlen=64)
"""The shapes of the last values the fast path refused in this process, in order (a valid stack leaves it empty)."""

enabled = True
"""False: every value goes to the pydantic models (the differential tests compare the two paths)."""

SHAPES: dict[str, Any] = json.loads(Path(__file__).with_name("shapes.json").read_text(encoding="utf-8"))["SHAPES"]
"""Shape -> [has a light class, model before-validators, fields], for the cloud-neutral models."""
_MADE: dict[str, Any] = {}
"""Shapes made at run time from the tables' (``add``: the joined stack keys)."""


def _refused() -> ShapeError:
    return ShapeError("not exactly what the model accepts (or not loaded): the pydantic model decides")


def light(shape: str, raw: object) -> Any:
    """``raw`` validated as the model ``shape``, as its light object (a dict of field values for a shape without a
    light class); None when the fast path does not accept it exactly."""
    if enabled:
        try:
            return _model(shape)(raw)
        except (ShapeError, ValueError, TypeError):  # a validator's ShapeError too
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


def made(kind: type[V], values: Mapping[str, object]) -> V:
    """A light object of ``kind`` with ``values`` (field name -> value) as its fields."""
    entry = object.__new__(kind)
    entry.__dict__.update(values)
    return entry


@cache
def _table(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text(encoding="utf-8")))


def entry(shape: str) -> Any:
    """``shape``'s row: the core table's, one made at run time (``add``), or that of the table its light class
    registered (``forms.TABLES``); ``KeyError`` when no table has it."""
    found = SHAPES.get(shape) or _MADE.get(shape)
    if found is None:
        found = _table(TABLES[shape])["SHAPES"][shape]
    return found


def add(shape: str, row: Any) -> str:
    """``shape`` made at run time with ``row`` (the first row wins: a shape's check is compiled once)."""
    _MADE.setdefault(shape, row)
    return shape


def field_names(shape: str) -> tuple[str, ...]:
    """The model's field names, in declaration order."""
    return tuple(field[0] for field in entry(shape)[2])


def field_aliases(shape: str) -> tuple[str, ...]:
    """The model's keys as a config spells them, in declaration order."""
    return tuple(field[1] for field in entry(shape)[2])


def stack_keys_marked(shape: str, mark: str) -> tuple[str, ...]:
    """A cloud settings model's keys marked ``required`` or ``target`` (``cloud_keys.StackKey``), from its table."""
    return tuple(_table(TABLES[shape])["STACK_KEYS"][shape][mark])


def shape_of(cls: type) -> str:
    """The shape of a light class (or of a model subclassing one)."""
    for base in cls.__mro__:
        shape = SHAPE_OF.get(base)
        if shape is not None:
            return shape
    raise KeyError(f"{cls.__name__}: no light class registered under a shape (forms.Values, shape=...)")


def tagged_keys(shape: str, field: str) -> dict[str, frozenset[str]]:
    """Tag -> the keys its model takes, for the discriminated union of ``shape``'s ``field`` (e.g. sharing modes)."""
    node = next(f[2] for f in entry(shape)[2] if f[0] == field)
    while node[0] in ("optional", "checked"):
        node = node[1]
    return {tag: frozenset(field_aliases(model)) for tag, model in node[2]}


def _resolve(name: str) -> Any:
    """The object registered under ``name`` (``forms.named``); refused while its module is not loaded (the light
    classes' modules, ``forms``, each cloud's ``settings_keys`` through its registry entry's ``values``)."""
    found = NAMED.get(name)
    if found is None:
        raise _refused()  # not loaded: the model decides (a test keeps every example stack off this path)
    return found


@cache
def _model(shape: str) -> Check:
    has_light, befores, fields = entry(shape)
    runs = tuple(_resolve(name) for name in befores)
    light = LIGHT.get(shape) if has_light else None
    if has_light and light is None:
        raise _refused()
    checks = tuple((f[0], f[1], _compile(f[2]), f[3] if len(f) > 3 else _REQUIRED) for f in fields)
    aliases = frozenset(f[1] for f in fields)

    def check(value: Any) -> Any:
        for run in runs:
            value = run(value)
        if type(value) is not dict or not aliases.issuperset(value):
            raise _refused()
        out: dict[str, Any] = {}
        for name, alias, field, default in checks:
            if alias in value:
                out[name] = field(value[alias])
            elif default is _REQUIRED:
                raise _refused()
            else:
                out[name] = default.copy() if isinstance(default, (list, dict)) else default
        if light is None:
            return out
        return made(light, out)

    return check


_REQUIRED = object()


def _exact(kind: type) -> Check:
    def check(value: Any) -> Any:
        if type(value) is not kind:
            raise _refused()
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
            raise _refused()
        return value

    return check


def _optional(inner: Check) -> Check:
    return lambda value: None if value is None else inner(value)


def _list(item: Check) -> Check:
    def check(value: Any) -> Any:
        if type(value) is not list:
            raise _refused()
        return [item(v) for v in value]

    return check


def _dict(key: Check, item: Check) -> Check:
    def check(value: Any) -> Any:
        if type(value) is not dict:
            raise _refused()
        return {key(k): item(v) for k, v in value.items()}

    return check


def _union(members: tuple[Check, ...]) -> Check:
    """A union of scalar types: in strict mode at most one accepts a value (``int | str``)."""

    def check(value: Any) -> Any:
        for member in members:
            try:
                return member(value)
            except ShapeError:
                continue
        raise _refused()

    return check


def _choose(form: Check, members: Mapping[str, Check]) -> Check:
    """A union whose member a function picks (pydantic's callable ``Discriminator``)."""

    def check(value: Any) -> Any:
        member = members.get(form(value))
        if member is None:
            raise _refused()
        return member(value)

    return check


def _tagged(key: str, members: Mapping[str, Check]) -> Check:
    """A union of models told apart by the value of their key ``key`` (``sharing.mode``)."""

    def check(value: Any) -> Any:
        tag = value.get(key) if type(value) is dict else None
        member = members.get(tag) if type(tag) is str else None
        if member is None:
            raise _refused()
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
