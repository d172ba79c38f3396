"""The methods of a ``record`` (``gpuready.record``): ``__init__``, ``__eq__``, ``__hash__`` and ``__repr__``
from the source ``dataclasses`` writes, each compiled on its first call; ``__setattr__`` and ``__delattr__`` (frozen)
shared functions over the class's field names."""

from __future__ import annotations

import dataclasses
import sys
from _thread import get_ident
from collections.abc import Callable
from typing import Any

MISSING: Any = dataclasses.MISSING
STATE: dict[str, Any] = vars(dataclasses)  # the field kinds ``dataclasses.fields`` and ``replace`` read
FIELD, INITVAR, CLASSVAR = STATE["_FIELD"], STATE["_FIELD_INITVAR"], STATE["_FIELD_CLASSVAR"]
_HAS_DEFAULT_FACTORY = STATE["_HAS_DEFAULT_FACTORY"]
_IN_REPR: set[tuple[int, int]] = set()  # (object id, thread id) of the reprs running, as ``dataclasses`` guards
Source = tuple[str, list[str], dict[str, Any]]  # a method's parameters, body lines and the values it reads


def getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state, strict=False):
        object.__setattr__(self, f.name, value)


def hash_source(names: tuple[str, ...]) -> Source:
    """``dataclasses``' ``__hash__``: the hash of the hashed fields' tuple."""
    return "self", [f"return hash(({''.join(f'self.{name},' for name in names)}))"], {}


def eq_source(names: tuple[str, ...]) -> Source:
    """``dataclasses``' ``__eq__``: the compared fields' tuples, for instances of the same class only."""
    mine, theirs = (f"({''.join(f'{side}.{name},' for name in names)})" for side in ("self", "other"))
    body = ["if other.__class__ is self.__class__:", f" return {mine}=={theirs}", "return NotImplemented"]
    return "self,other", body, {}


def repr_source(names: tuple[str, ...]) -> Source:
    """``dataclasses``' ``__repr__`` text, with its guard against recursion written in."""
    shown = ", ".join(f"{name}={{self.{name}!r}}" for name in names)
    body = [
        "key = (id(self), _get_ident())",
        "if key in _in_repr:",
        " return '...'",
        "_in_repr.add(key)",
        "try:",
        f' return self.__class__.__qualname__ + f"({shown})"',
        "finally:",
        " _in_repr.discard(key)",
    ]
    return "self", body, {"_in_repr": _IN_REPR, "_get_ident": get_ident}


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


def lazy(cls: type, name: str, source: Callable[[], Source]) -> Callable[..., Any]:
    """A method that compiles ``cls``'s real one from ``source()`` on its first call, installs it and runs it."""

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        compiled = _compiled(cls, name, *source())
        setattr(cls, name, compiled)
        return compiled(self, *args, **kwargs)

    method.__name__, method.__qualname__ = name, f"{cls.__qualname__}.{name}"
    return method


def _compiled(cls: type, name: str, params: str, body: list[str], given: dict[str, Any]) -> Callable[..., Any]:
    """``name`` compiled from ``body`` as ``dataclasses`` compiles its methods: the values in ``given`` passed to an
    enclosing function, the module's globals, no ``from __future__`` import inherited."""
    returns = "->_return_type" if "_return_type" in given else ""
    inner = f"  def {name}({params}){returns}:\n" + "\n".join(f"   {line}" for line in body or ["pass"])
    source = f"def __create_fn__({', '.join(given)}):\n{inner}\n  return {name}"
    namespace: dict[str, Any] = {}
    module = sys.modules.get(cls.__module__)
    exec(compile(source, "<string>", "exec", dont_inherit=True), vars(module) if module else {}, namespace)
    function: Callable[..., Any] = namespace["__create_fn__"](**given)
    function.__qualname__ = f"{cls.__qualname__}.{name}"
    return function


def init_source(cls: type, frozen: bool) -> Source:
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
                f"__dataclass_builtins_object__.__setattr__(self,{f.name!r},{value})"
                if frozen
                else f"self.{f.name}={value}"
            )
    if hasattr(cls, "__post_init__"):
        body.append(f"self.__post_init__({','.join(f.name for f in fields if f._field_type is INITVAR)})")
    return ",".join(["self", *positional, *(["*", *keywords] if keywords else [])]), body, given


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
