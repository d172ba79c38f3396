"""The one adapter from pydantic's ``ValidationError`` to gpuready's problems (path, value, allowed, hint). Pure.

Paths use the config's own spelling under a prefix (``gpuready:nodePools[0].sharing.replicas``), values are
shown as given, the allowed set comes from the model (aliases for unknown keys, ``Literal`` values for closed
sets, tags for discriminated unions), and suggestions only when close (``suggest.closest``).
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, Tag, ValidationError
from pydantic_core import ErrorDetails

from gpuready.core.config_model.base import CONFIG_ERROR, ConfigModel, Words, config_error
from gpuready.core.config_model.forms import rebased
from gpuready.core.suggest import did_you_mean
from gpuready.errors import ConfigError, Problem

M = TypeVar("M", bound=ConfigModel)

__all__ = ["CONFIG_ERROR", "config_error", "problems_of", "rebased", "validate"]


_TYPE_WORDS = {
    "int_type": "must be a whole number",
    "string_type": "must be a string",
    "bool_type": "must be a boolean (true or false)",
    "dict_type": "must be a mapping",
    "model_type": "must be a mapping",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
}


def validate(model: type[M], raw: object, prefix: str) -> M:
    """``raw`` validated as ``model``; raise ``ConfigError`` with every problem, paths under ``prefix``."""
    if not isinstance(raw, Mapping):
        raise ConfigError.one(prefix, model.shape.problem, raw, model.shape_allowed, model.shape.hint)
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        raise ConfigError(problems_of(error, model, prefix)) from None


def problems_of(error: ValidationError, model: type[BaseModel], prefix: str) -> list[Problem]:
    """Every error of ``error`` as a ``Problem``, in the order pydantic found them (one per field)."""
    return [_problem(detail, model, prefix) for detail in error.errors(include_url=False)]


def _problem(detail: ErrorDetails, model: type[BaseModel], prefix: str) -> Problem:
    where = _walk(model, detail["loc"], prefix)
    kind = detail["type"]
    value = detail.get("input")
    if kind == "extra_forbidden":
        keys = sorted(_aliases(where.parent)) if where.parent is not None else []
        return Problem(where.path, "unknown key", None, keys, did_you_mean(str(detail["loc"][-1]), keys))
    if kind == "missing":
        return Problem(where.path, "is required", None, (), _words(where.parent, f"{where.name}:missing").hint)
    if kind == "union_tag_not_found":
        tag = str(detail.get("ctx", {}).get("discriminator", "")).strip("'")
        return Problem(f"{where.path}.{tag}", "is required")
    if kind == "union_tag_invalid":
        ctx = detail.get("ctx", {})
        name = str(ctx.get("discriminator", "")).strip("'")
        tags = tuple(_tags(where.annotation, name))
        words = _words(where.parent, f"{where.name}.{name}")
        hint = _hint(did_you_mean(ctx.get("tag"), tags), words.hint)
        return Problem(f"{where.path}.{name}", words.problem, ctx.get("tag"), tags, hint)
    if kind == "literal_error":
        allowed = tuple(str(v) for v in _literals(where.annotation))
        if not isinstance(value, str):  # every closed set of the config is a set of strings
            return Problem(where.path, _TYPE_WORDS["string_type"], value)
        words = _words(where.parent, where.name)
        hint = _hint(did_you_mean(value, allowed), words.hint)
        return Problem(where.path, words.problem, value, allowed, hint)
    if kind == CONFIG_ERROR:
        ctx = detail.get("ctx", {})
        if ctx.get("at"):
            return Problem(f"{where.path}.{ctx['at']}", str(detail["msg"]), ctx.get("value"), (), str(ctx["hint"]))
        shown = None if ctx.get("hidden") else value
        return Problem(where.path, str(detail["msg"]), shown, (), str(ctx.get("hint", "")))
    if kind in _TYPE_WORDS:
        key = "key" if where.is_key else kind
        return Problem(where.path, _words(where.parent, f"{where.name}:{key}", _TYPE_WORDS[kind]).problem, value)
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        return Problem(where.path, str(detail["msg"]).replace("Input should be", "must be"), value)
    message = str(detail["msg"]).removeprefix("Value error, ")
    return Problem(where.path, message, value)


class _Where:
    """Where an error's location points: the printed path, the model that owns the last key, its annotation."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.parent: type[BaseModel] | None = None
        self.model: type[BaseModel] | None = None
        self.name = ""
        self.annotation: Any = None
        self.is_key = False
        """The error is about a mapping's key, not its value."""


def _walk(model: type[BaseModel], loc: Sequence[int | str], prefix: str) -> _Where:
    where = _Where(prefix)
    current: Any = model
    for part in loc:
        if part == "[key]":
            where.is_key = True
            continue
        current = _unwrap(current)
        members = _members(current)
        if members and isinstance(part, str) and (tagged := _tagged(members, part)) is not None:
            where.model = tagged
            current = tagged  # the tag of a discriminated union: not a key of the input
            continue
        if members and isinstance(part, str) and (member := _labelled(current, part)) is not None:
            current = member  # a plain union's member label (a ``Tag``, or ``str``): not a key of the input
            continue
        if isinstance(current, type) and issubclass(current, BaseModel):
            where.parent, where.name = current, str(part)
            where.path = (
                f"{where.path}.{part}" if where.path and not where.path.endswith(":") else f"{where.path}{part}"
            )
            field = next((f for n, f in current.model_fields.items() if (f.alias or n) == part), None)
            current = None if field is None else field.annotation
            where.annotation = current
        elif isinstance(part, int) and get_origin(current) is not dict:
            where.path += f"[{part}]"
            args = get_args(current)
            current = args[0] if args else None
            where.annotation = current
        else:
            where.path += f"[{part!r}]"
            args = get_args(current)
            current = args[-1] if args else None
            where.annotation = current
    return where


def _labelled(union: Any, label: str) -> Any:
    """The member of a plain union that pydantic labels ``label`` in error locations, or None."""
    for member in get_args(union):
        tags = [m.tag for m in getattr(member, "__metadata__", ()) if isinstance(m, Tag)]
        if label in tags or getattr(member, "__name__", None) == label:
            return _unwrap(member)
    return None


def _unwrap(annotation: Any) -> Any:
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    members = _members(annotation)
    real = [m for m in members if m is not type(None)]
    if members and len(real) == 1:
        return _unwrap(real[0])
    return annotation


def _members(annotation: Any) -> list[Any]:
    if get_origin(annotation) in (Union, types.UnionType):
        return [_unwrap(m) for m in get_args(annotation) if m is not type(None)]
    return []


def _tagged(members: Sequence[Any], tag: str) -> type[BaseModel] | None:
    for member in members:
        if isinstance(member, type) and issubclass(member, BaseModel):
            for field in member.model_fields.values():
                if get_origin(_unwrap(field.annotation)) is Literal and tag in get_args(_unwrap(field.annotation)):
                    return member
    return None


def _tags(annotation: Any, discriminator: str) -> list[str]:
    """The tags of a discriminated union, in the order of its members."""
    tags: list[str] = []
    for member in _members(_unwrap(annotation)):
        if isinstance(member, type) and issubclass(member, BaseModel):
            tags.extend(
                str(v) for n, f in member.model_fields.items() if (f.alias or n) == discriminator
                for v in _literals(f.annotation)
            )  # fmt: skip
    return tags


def _literals(annotation: Any) -> tuple[Any, ...]:
    annotation = _unwrap(annotation)
    return get_args(annotation) if get_origin(annotation) is Literal else ()


def _aliases(model: type[BaseModel]) -> list[str]:
    return [f.alias or n for n, f in model.model_fields.items()]


def _words(model: type[BaseModel] | None, key: str, default: str = "is not one of the allowed values") -> Words:
    """The model's wording for ``key`` (a field alias, or ``alias:error_type`` for errors below the field)."""
    words: Mapping[str, Words] = getattr(model, "words", {})
    return words.get(key, Words(default))


def _hint(suggestion: str, hint: str) -> str:
    return " ".join(part for part in (suggestion, hint) if part)
