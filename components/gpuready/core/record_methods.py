"""The methods of a ``record`` (``gpuready.core.record``): shared functions over a class's field names, and the
``__init__`` ``dataclasses`` would write, compiled on the class's first instantiation."""

from __future__ import annotations

import dataclasses
import sys
from _thread import get_ident
from collections.abc import Callable
from operator import attrgetter
from typing import Any

MISSING: Any = dataclasses.MISSING
STATE: dict[str, Any] = vars(dataclasses)  # the field kinds ``dataclasses.fields`` and ``replace`` read
FIELD, INITVAR, CLASSVAR = STATE["_FIELD"], STATE["_FIELD_INITVAR"], STATE["_FIELD_CLASSVAR"]
_HAS_DEFAULT_FACTORY = STATE["_HAS_DEFAULT_FACTORY"]
_IN_REPR: set[tuple[int, int]] = set()  # (object id, thread id) of the reprs running, as ``dataclasses`` guards


def getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state, strict=False):
        object.__setattr__(self, f.name, value)


def getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of ``names``' values, as ``dataclasses``' generated methods build it."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda self: (one(self),)
    return lambda self: ()


def eq_method(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def hash_method(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def repr_method(names: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        key = (id(self), get_ident())
        if key in _IN_REPR:
            return "..."
        _IN_REPR.add(key)
        try:
            shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in names])
        finally:
            _IN_REPR.discard(key)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def frozen_methods(cls: type, names: frozenset[str]) -> tuple[Callable[..., None], Callable[..., None]]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)  # type: ignore[arg-type]

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)  # type: ignore[arg-type]

    return __setattr__, __delattr__


def lazy_init(cls: type, frozen: bool) -> Callable[..., None]:
    """An ``__init__`` that compiles the class's real one on its first call, installs it and runs it."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        compiled = _compiled_init(cls, frozen)
        cls.__init__ = compiled  # type: ignore[misc]
        compiled(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _compiled_init(cls: type, frozen: bool) -> Callable[..., None]:
    """The ``__init__`` ``dataclasses`` would have written for ``cls`` (same source, same signature)."""
    fields = [f for f in cls.__dataclass_fields__.values() if f._field_type is not CLASSVAR]  # type: ignore[attr-defined]
    slots = "__slots__" in cls.__dict__
    given: dict[str, Any] = {"MISSING": MISSING, "_HAS_DEFAULT_FACTORY": _HAS_DEFAULT_FACTORY,
                             "__dataclass_builtins_object__": object, "_return_type": None}  # fmt: skip
    positional: list[str] = []
    keywords: list[str] = []
    body: list[str] = []
    for f in fields:
        if f.init:
            given[f"_type_{f.name}"] = f.type
            default = "" if f.default is MISSING and f.default_factory is MISSING else (
                f"=_dflt_{f.name}" if f.default is not MISSING else "=_HAS_DEFAULT_FACTORY"
            )  # fmt: skip
            (keywords if f.kw_only else positional).append(f"{f.name}:_type_{f.name}{default}")
        value = _init_value(f, slots, given)
        if value is not None and f._field_type is FIELD:
            body.append(
                f"  __dataclass_builtins_object__.__setattr__(self,{f.name!r},{value})"
                if frozen
                else f"  self.{f.name}={value}"
            )
    if hasattr(cls, "__post_init__"):
        body.append(f"  self.__post_init__({','.join(f.name for f in fields if f._field_type is INITVAR)})")
    params = ",".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    inner = f"  def __init__({params})->_return_type:\n" + "\n".join(f"  {line}" for line in body or ["  pass"])
    source = f"def __create_fn__({', '.join(given)}):\n{inner}\n  return __init__"
    namespace: dict[str, Any] = {}
    module = sys.modules.get(cls.__module__)
    # compiled without this module's ``from __future__ import annotations``, as ``dataclasses`` compiles it
    exec(
        compile(source, "<string>", "exec", dont_inherit=True), module.__dict__ if module is not None else {}, namespace
    )
    function: Callable[..., None] = namespace["__create_fn__"](**given)
    function.__qualname__ = f"{cls.__qualname__}.__init__"
    return function


def _init_value(f: Any, slots: bool, given: dict[str, Any]) -> str | None:
    """The value ``__init__`` assigns to ``f`` (``dataclasses``' own rules), or ``None`` when it assigns none."""
    if f.default_factory is not MISSING:
        given[f"_dflt_{f.name}"] = f.default_factory
        return f"_dflt_{f.name}() if {f.name} is _HAS_DEFAULT_FACTORY else {f.name}" if f.init else f"_dflt_{f.name}()"
    if f.init:
        if f.default is not MISSING:
            given[f"_dflt_{f.name}"] = f.default
        return str(f.name)
    if slots and f.default is not MISSING:
        given[f"_dflt_{f.name}"] = f.default
        return f"_dflt_{f.name}"
    return None
