"""The methods of a ``record`` (``gpuready.record``): ``__init__``, ``__eq__``, ``__hash__`` and ``__repr__`` run
generically (the same work read from the class's fields, nothing compiled) for a class's first ``HOT`` calls, then
from the source ``dataclasses`` writes, compiled once the class is hot; ``__setattr__`` and ``__delattr__``
(frozen) shared functions over the class's field names."""

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
IN_REPR: set[tuple[int, int]] = set()  # (object id, thread id) of the reprs running, as ``dataclasses`` guards
Source = tuple[str, list[str], dict[str, Any]]  # a method's parameters, body lines and the values it reads
Generic = Callable[[Any, tuple[Any, ...], dict[str, Any]], Any]  # (self, args, kwargs) -> result or COMPILE
COMPILE: Any = object()  # a generic method's answer for a call it leaves to the compiled one
HOT = 32
"""The calls of a method a class runs generically before compiling it: compiling an ``__init__`` costs about 80
generic calls (``bench/records.py``), and on a gke-dev plan 32 ran the fewest instructions of 0, 32, 80 and 200."""


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
    return "self", body, {"_in_repr": IN_REPR, "_get_ident": get_ident}


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


def adaptive(
    cls: type,
    name: str,
    source: Callable[[], Source],
    generic: Callable[[], Generic],
    annotations: Callable[[], dict[str, Any]] | None = None,
) -> Callable[..., Any]:
    """``cls``'s method ``name``: its generic form (``generic()``, built on the first call) for the class's first
    ``HOT`` calls, then the method compiled from ``source()``, installed on the class for every later call. A call
    the generic form leaves to the compiled one (it answers ``COMPILE``: a bad argument) compiles it at once."""
    calls = 0
    run: Generic | None = None

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls, run
        if calls < HOT:
            calls += 1
            if run is None:
                run = generic()
                if annotations is not None:
                    method.__annotations__ = annotations()
            result = run(self, args, kwargs)
            if result is not COMPILE:
                return result
        function = compiled(cls, name, *source())
        setattr(cls, name, function)
        return function(self, *args, **kwargs)

    method.__name__, method.__qualname__ = name, f"{cls.__qualname__}.{name}"
    return method


def compiled(cls: type, name: str, params: str, body: list[str], given: dict[str, Any]) -> Callable[..., Any]:
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


# The generic methods: a class's first ``HOT`` calls run these (built once per class and method, nothing compiled).
# Each does the happy path only: a call it does not accept as it is (an unknown, missing or repeated argument, too
# many positional ones) it answers ``COMPILE`` before doing anything, and the compiled method runs the call,
# raising the very ``TypeError`` a dataclass raises.

_GIVEN, _FACTORY_OR_GIVEN, _FACTORY, _CONSTANT = range(4)  # how ``__init__`` finds a field's value


def generic_init(cls: type, frozen: bool) -> Generic:
    """``__init__`` as the compiled one does it: bind, assign each field in order, then ``__post_init__``."""
    fields = [f for f in cls.__dataclass_fields__.values() if f._field_type is not CLASSVAR]  # type: ignore[attr-defined]
    positional = tuple(f.name for f in fields if f.init and not f.kw_only)
    accepted = frozenset(f.name for f in fields if f.init)
    required = tuple(f.name for f in fields if f.init and f.default is MISSING and f.default_factory is MISSING)
    slots = "__slots__" in cls.__dict__
    steps: list[tuple[str, int, Any]] = []
    for f in fields:
        if f._field_type is not FIELD:
            continue
        if f.default_factory is not MISSING:
            steps.append((f.name, _FACTORY_OR_GIVEN if f.init else _FACTORY, f.default_factory))
        elif f.init:
            steps.append((f.name, _GIVEN, f.default))
        elif slots and f.default is not MISSING:
            steps.append((f.name, _CONSTANT, f.default))
    initvars = tuple((f.name, f.default) for f in fields if f._field_type is INITVAR)
    post_init = hasattr(cls, "__post_init__")
    assign: Callable[[Any, str, Any], None] = object.__setattr__ if frozen else setattr

    def __init__(self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if len(args) > len(positional):
            return COMPILE
        given = dict(zip(positional, args, strict=False))
        for name, value in kwargs.items():
            if name not in accepted or name in given:
                return COMPILE
            given[name] = value
        for name in required:
            if name not in given:
                return COMPILE
        for name, how, extra in steps:
            if how == _GIVEN:
                value = given.get(name, extra)
            elif how == _FACTORY_OR_GIVEN:
                value = given.get(name, _HAS_DEFAULT_FACTORY)
                if value is _HAS_DEFAULT_FACTORY:
                    value = extra()
            else:
                value = extra() if how == _FACTORY else extra
            assign(self, name, value)
        if post_init:
            self.__post_init__(*[given.get(name, default) for name, default in initvars])
        return None

    return __init__


def generic_eq(names: tuple[str, ...]) -> Generic:
    """``__eq__``: the compared fields' tuples, for instances of the same class only."""

    def __eq__(self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if len(args) != 1 or kwargs:
            return COMPILE
        other = args[0]
        if other.__class__ is not self.__class__:
            return NotImplemented
        return tuple([getattr(self, name) for name in names]) == tuple([getattr(other, name) for name in names])

    return __eq__


def generic_hash(names: tuple[str, ...]) -> Generic:
    """``__hash__``: the hash of the hashed fields' tuple."""

    def __hash__(self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if args or kwargs:
            return COMPILE
        return hash(tuple([getattr(self, name) for name in names]))

    return __hash__


def generic_repr(names: tuple[str, ...]) -> Generic:
    """``__repr__``: the same text, with the same guard against recursion."""

    def __repr__(self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if args or kwargs:
            return COMPILE
        key = (id(self), get_ident())
        if key in IN_REPR:
            return "..."
        IN_REPR.add(key)
        try:
            shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in names])
            return f"{self.__class__.__qualname__}({shown})"
        finally:
            IN_REPR.discard(key)

    return __repr__


def init_annotations(cls: type) -> dict[str, Any]:
    """The compiled ``__init__``'s annotations: each parameter's field type, ``return: None``."""
    fields = cls.__dataclass_fields__.values()  # type: ignore[attr-defined]
    return {**{f.name: f.type for f in fields if f._field_type is not CLASSVAR and f.init}, "return": None}
