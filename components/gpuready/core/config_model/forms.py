"""The config models' before-validators as plain functions, and what they raise. Pure, and no pydantic.

Both paths call these: the pydantic models (wrapped by ``base.before`` / ``base.before_model``, which turn a
``ShapeError`` into the pydantic error ``problems`` words) and the fast path (``fast``), where a ``ShapeError``
means "not valid as given" and sends the value to the pydantic models for the error's wording.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from gpuready.core.taints import parse_taint_text
from gpuready.errors import GpuReadyError, Problem, RegistrationError
from gpuready.record import record


@record(frozen=True, slots=True)
class Words:
    """How the adapter words a refused value of one field: the problem, and a hint (empty: a did-you-mean only)."""

    problem: str
    hint: str = ""


T = TypeVar("T")

NAMED: dict[str, object] = {}
"""Name -> the validator, discriminator or key format the shape tables refer to by that name (``named``)."""
LIGHT: dict[str, type[Values]] = {}
"""Shape name -> its light class (a ``Values`` subclass declared with ``shape=``)."""
SHAPE_OF: dict[type, str] = {}
"""The inverse of ``LIGHT``."""
TABLES: dict[str, Path] = {}
"""Shape name -> the shape table outside the core's that describes it (a cloud's ``settings_shape.json``)."""


def named(item: T, name: str = "") -> T:
    """``item`` registered under ``name`` (default: its ``__name__``) for the shape tables to refer to."""
    key = name or getattr(item, "__name__", "")
    if not key or NAMED.setdefault(key, item) is not item:
        raise RegistrationError(f"{key or item!r}: no name, or a name another object of the shape tables holds")
    return item


class Values:
    """The base of the light classes (``fast`` builds them; the pydantic models subclass them): two are equal when
    they are of one class with equal fields, as two models are. A light class registers under the shape it is the
    light class of (``class PoolValues(Values, shape="PoolConfig")``), with the table describing it when that is
    not the core's (``table=``, a path)."""

    def __init_subclass__(cls, shape: str = "", table: Path | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not shape:
            return
        if LIGHT.setdefault(shape, cls) is not cls:
            raise RegistrationError(f"{cls.__qualname__}: shape {shape!r} has light class {LIGHT[shape].__qualname__}")
        SHAPE_OF[cls] = shape
        if table is not None:
            TABLES[shape] = table

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  # as a model's with list fields


StandIn = Callable[[Mapping[str, object], object], object]
"""``(entry, broken value) -> value`` to validate a broken key with instead, or ``OMIT`` (``all_problems``)."""

OMIT = object()
"""A stand-in's answer when the key is better left out."""


class ShapeError(GpuReadyError, ValueError):
    """A value a validator refuses: the problem, its hint, and where below the value it is (``at``, ``value``);
    ``hidden`` never shows the value (secrets)."""

    def __init__(self, problem: str, hint: str = "", *, at: str = "", value: object = None, hidden: bool = False):
        super().__init__(problem)
        self.problem = problem
        self.hint = hint
        self.at = at
        self.value = value
        self.hidden = hidden


@named
def null_is_absent(data: Any) -> Any:
    """A key set to null (``namespace: ~``) counts as not given, as in every gpuready mapping."""
    if isinstance(data, Mapping):
        return {k: v for k, v in data.items() if v is not None}
    return data


@named
def text_items(value: Any) -> Any:
    """Every item of a list as text, as the engine would pass it."""
    return [str(v) for v in value] if isinstance(value, list) else value


def array_text(value: object) -> object:
    """An array key: a list, or the JSON text the engine passes for one (text that is no JSON stays text, and the
    model refuses it as not a list)."""
    if isinstance(value, str):
        try:
            decoded: object = json.loads(value)
        except ValueError:
            return value
        return decoded
    return value


@named
def sharing_form(value: Any) -> Any:
    """A pool's ``sharing``: ``none`` (no sharing) or a mapping whose ``mode`` is text."""
    if value == "none":
        return None
    if isinstance(value, str):
        raise ShapeError("must be none or a mapping with a mode", "sharing: {mode: mps, replicas: 2}")
    if not isinstance(value, Mapping):
        raise ShapeError("must be none or a mapping")
    mode = value.get("mode")
    if mode is not None and not isinstance(mode, str):
        raise ShapeError("must be a string", at="mode", value=mode)
    return value


@named
def taint_from_text(data: Any) -> Any:
    """A taint given as ``key=value:Effect`` text, as its mapping."""
    if isinstance(data, str):
        parts = parse_taint_text(data)
        if parts is None:
            raise ShapeError("must look like key=value:Effect", "e.g. dedicated=ml:NoSchedule")
        return {"key": parts[0], "value": parts[1], "effect": parts[2]}
    if not isinstance(data, Mapping):
        raise ShapeError("must be a mapping {key, value, effect} or key=value:Effect")
    return data


@named
def repair_shorthand(value: Any) -> Any:
    """``repair: true`` / ``false`` as ``{enabled: ...}``."""
    if isinstance(value, bool):
        return {"enabled": value}
    if not isinstance(value, Mapping):
        raise ShapeError("must be true, false or a mapping", "repair: {enabled: true, maxParallel: 1}")
    return value


@named
def fabric_from_kind(data: Any) -> Any:
    """``fabric: efa`` as ``{kind: efa}``."""
    if isinstance(data, str):
        return {"kind": data}
    if not isinstance(data, Mapping):
        raise ShapeError("must be a fabric kind or a mapping with a kind", "fabric: efa, or fabric: {kind: efa}")
    return data


@named
def types_form(value: Any) -> str | None:
    """``instanceType``'s form: one type (text) or a list of them."""
    if isinstance(value, str):
        return "one"
    return "list" if isinstance(value, list) else None


@named
def layout_form(value: Any) -> str | None:
    """A MIG ``layout``'s form: a layout name or profile -> count."""
    if isinstance(value, str):
        return "name"
    return "counts" if isinstance(value, Mapping) else None


def rebased(problems: Sequence[Problem], old: str, new: str) -> list[Problem]:
    """``problems`` with the path prefix ``old`` (a spec's own, e.g. ``gpuStack``) replaced by ``new``."""
    return [Problem(new + p.path.removeprefix(old), p.problem, p.value, p.allowed, p.hint) for p in problems]
