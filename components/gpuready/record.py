"""``record``: ``dataclasses.dataclass`` for gpuready's value classes, at almost no cost when a class is defined.

Python 3.11's ``dataclasses`` compiles every generated method of every class from source when the class is
defined (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``: one ``exec``
each, about 0.6 ms a class), and a plan defines over a hundred classes, most of which it never compares, hashes or
prints (issue #32). A record is the same class, built differently:

- ``__init__``, ``__eq__``, ``__hash__`` and ``__repr__`` run generically for a class's first ``HOT`` calls (the
  same work read from the fields, nothing compiled: compiling one costs about 80 generic calls), then are compiled
  from the source ``dataclasses`` writes (as fast as a dataclass's from then on); both give the same results, and
  a call with a missing or unknown argument compiles at once and raises the dataclass's own ``TypeError``. A class
  with a few instances, most of a plan's, compiles nothing;
- ``__setattr__`` and ``__delattr__`` (frozen) are shared functions over the class's field names, nothing
  compiled: the same ``FrozenInstanceError``;
- ``__dataclass_fields__`` holds real ``dataclasses.Field`` objects and ``__dataclass_params__`` the options, so
  ``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass`` work on records, and mypy types a record as
  a dataclass (``typing.dataclass_transform``, ``dataclasses.field`` as its field specifier).

Options: ``frozen``, ``kw_only``, ``slots``, ``eq``, ``repr`` (as ``dataclass``); fields take ``field(...)``
(``default``, ``default_factory``, ``init``, ``repr``, ``compare``, ``hash``, ``kw_only``), ``ClassVar`` and
``InitVar`` annotations, ``KW_ONLY``, inheritance between records, ``__post_init__``. Not supported (gpuready uses
none): ``order``, ``unsafe_hash``, ``init=False`` on the class, ``match_args=False``, ``weakref_slot``. One
difference: a class without a docstring keeps ``__doc__`` ``None`` (``dataclass`` writes its signature there).
``tests/test_record.py`` compares each behaviour with the dataclass's (on both paths); ``bench/records.py`` the costs.
"""

from __future__ import annotations

import abc
import dataclasses
import re
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, TypeVar, dataclass_transform, overload

from gpuready.record_methods import (
    CLASSVAR,
    FIELD,
    INITVAR,
    MISSING,
    STATE,
    adaptive,
    eq_source,
    frozen_methods,
    generic_eq,
    generic_hash,
    generic_init,
    generic_repr,
    getstate,
    hash_source,
    init_annotations,
    init_source,
    repr_source,
    setstate,
)

_C = TypeVar("_C", bound=type)
_PARAM_NAMES = frozenset(STATE["_DataclassParams"].__init__.__code__.co_varnames[1:])
_EMPTY_METADATA: types.MappingProxyType[Any, Any] = types.MappingProxyType({})
# How ``dataclasses`` recognizes these annotations when they are strings (``from __future__ import annotations``).
_CLASSVAR_TEXT = re.compile(r"(?:typing\.|t\.)?ClassVar\b")
_INITVAR_TEXT = re.compile(r"(?:dataclasses\.)?InitVar\b")
_KW_ONLY_TEXT = re.compile(r"(?:dataclasses\.)?KW_ONLY$")


@overload
def record(cls: _C, /) -> _C: ...
@overload
def record(
    *, frozen: bool = False, kw_only: bool = False, slots: bool = False, eq: bool = True, repr: bool = True
) -> Callable[[_C], _C]: ...
@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def record(
    cls: Any = None,
    /,
    *,
    frozen: bool = False,
    kw_only: bool = False,
    slots: bool = False,
    eq: bool = True,
    repr: bool = True,
) -> Any:
    """Make ``cls`` a record: ``@record(frozen=True, slots=True)`` as ``@dataclass(frozen=True, slots=True)``."""

    def wrap(target: type) -> type:
        return _process(target, frozen=frozen, kw_only=kw_only, slots=slots, eq=eq, show=repr)

    return wrap if cls is None else wrap(cls)


def _process(cls: type, *, frozen: bool, kw_only: bool, slots: bool, eq: bool, show: bool) -> type:
    fields: dict[str, Any] = {}
    based = any_frozen_base = False
    for base in cls.__mro__[-1:0:-1]:
        base_fields = getattr(base, "__dataclass_fields__", None)
        if base_fields is not None:
            based = True
            fields.update(base_fields)
            any_frozen_base = any_frozen_base or base.__dataclass_params__.frozen  # type: ignore[attr-defined]
    if based and any_frozen_base != frozen:
        raise TypeError(
            "cannot inherit non-frozen dataclass from a frozen one"
            if any_frozen_base
            else "cannot inherit frozen dataclass from a non-frozen one"
        )
    annotations: dict[str, Any] = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 (as dataclasses reads them)
    kw_only_now = kw_only
    for name, kind in annotations.items():
        if _is(kind, _KW_ONLY_TEXT, dataclasses.KW_ONLY):
            kw_only_now = True
            continue
        fields[name] = _field(cls, name, kind, kw_only_now)
    for name, value in cls.__dict__.items():
        if isinstance(value, dataclasses.Field) and name not in annotations:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    params = {"init": True, "repr": show, "eq": eq, "order": False, "unsafe_hash": False, "frozen": frozen,
              "match_args": True, "kw_only": kw_only, "slots": slots, "weakref_slot": False}  # fmt: skip
    cls.__dataclass_fields__ = fields  # type: ignore[attr-defined]
    cls.__dataclass_params__ = STATE["_DataclassParams"](  # type: ignore[attr-defined]
        **{k: v for k, v in params.items() if k in _PARAM_NAMES}
    )
    real = tuple(f for f in fields.values() if f._field_type is FIELD)
    takes = tuple(f for f in fields.values() if f._field_type is not CLASSVAR and f.init)
    _check_order(takes)
    names = tuple(f.name for f in real)
    declared_hash = cls.__dict__.get("__hash__", MISSING)
    explicit_hash = not (declared_hash is MISSING or (declared_hash is None and "__eq__" in cls.__dict__))
    if slots:
        cls = _slotted(cls, names, frozen)
    init = adaptive(cls, "__init__", lambda: init_source(cls, frozen), lambda: generic_init(cls, frozen),
                    lambda: init_annotations(cls))  # fmt: skip
    _define(cls, "__init__", init)
    if show:
        shown = tuple(f.name for f in real if f.repr)
        _define(cls, "__repr__", adaptive(cls, "__repr__", lambda: repr_source(shown), lambda: generic_repr(shown)))
    if eq:
        compared = tuple(f.name for f in real if f.compare)
        _define(cls, "__eq__", adaptive(cls, "__eq__", lambda: eq_source(compared), lambda: generic_eq(compared)))
        if frozen and not explicit_hash:
            hashed = tuple(f.name for f in real if (f.compare if f.hash is None else f.hash))
            cls.__hash__ = adaptive(  # type: ignore[method-assign]
                cls, "__hash__", lambda: hash_source(hashed), lambda: generic_hash(hashed)
            )
        elif not frozen and not explicit_hash:
            cls.__hash__ = None  # type: ignore[assignment]
    if frozen:
        for method in frozen_methods(cls, frozenset(names)):
            if method.__name__ in cls.__dict__:
                raise TypeError(f"Cannot overwrite attribute {method.__name__} in class {cls.__name__}")
            setattr(cls, method.__name__, method)
    _define(cls, "__match_args__", tuple(f.name for f in takes if not f.kw_only))
    if "_replace" in STATE:  # Python 3.13: ``copy.replace`` reads it
        _define(cls, "__replace__", STATE["_replace"])
    if isinstance(cls, abc.ABCMeta):
        abc.update_abstractmethods(cls)  # type: ignore[arg-type]
    return cls


def _is(kind: Any, text: re.Pattern[str], marker: Any) -> bool:
    if isinstance(kind, str):
        return text.match(kind) is not None
    return kind is marker or type(kind) is marker or getattr(kind, "__origin__", None) is marker


def _field(cls: type, name: str, kind: Any, kw_only: bool) -> Any:
    default = getattr(cls, name, MISSING)
    if isinstance(default, dataclasses.Field):
        found: Any = default
    else:
        if isinstance(default, types.MemberDescriptorType):  # a slot of a base class: no default
            default = MISSING
        found = dataclasses.Field(default, MISSING, True, True, None, True, _EMPTY_METADATA, MISSING)
    found.name, found.type, found._field_type = name, kind, FIELD
    if _is(kind, _CLASSVAR_TEXT, ClassVar):
        found._field_type = CLASSVAR
    elif _is(kind, _INITVAR_TEXT, dataclasses.InitVar):
        found._field_type = INITVAR
    if found._field_type is FIELD or found._field_type is INITVAR:
        if found.kw_only is MISSING:
            found.kw_only = kw_only
    elif found.kw_only is not MISSING:
        raise TypeError(f"field {name} is a ClassVar but specifies kw_only")
    if found._field_type is not FIELD and found.default_factory is not MISSING:
        raise TypeError(f"field {name} cannot have a default factory")
    if found._field_type is FIELD and found.default is not MISSING and found.default.__class__.__hash__ is None:
        raise ValueError(f"mutable default {type(found.default)} for field {name} is not allowed: use default_factory")
    if isinstance(default, dataclasses.Field):
        if found.default is MISSING:
            delattr(cls, name)
        else:
            setattr(cls, name, found.default)
    return found


def _check_order(takes: tuple[Any, ...]) -> None:
    seen_default: Any = None
    for f in takes:
        if f.kw_only:
            continue
        if f.default is not MISSING or f.default_factory is not MISSING:
            seen_default = f
        elif seen_default is not None:
            after = f" {seen_default.name!r}" if sys.version_info >= (3, 13) else ""  # 3.13 names it
            raise TypeError(f"non-default argument {f.name!r} follows default argument{after}")


def _define(cls: type, name: str, value: Any) -> None:
    if name not in cls.__dict__:
        setattr(cls, name, value)


def _slots_of(cls: type) -> Iterator[str]:
    declared = cls.__dict__.get("__slots__")
    if declared is None:
        return
    if isinstance(declared, str):
        yield declared
    elif not hasattr(declared, "__next__"):
        yield from declared
    else:
        raise TypeError(f"Slots of '{cls.__name__}' cannot be determined")


def _slotted(cls: type, names: tuple[str, ...], frozen: bool) -> type:
    """The class again with ``__slots__`` for its fields, as ``dataclass(slots=True)`` rebuilds it."""
    if "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__} already specifies __slots__")
    body = dict(cls.__dict__)
    inherited = {slot for base in cls.__mro__[1:-1] for slot in _slots_of(base)}
    body["__slots__"] = tuple(n for n in names if n not in inherited)
    for name in (*names, "__dict__", "__weakref__"):
        body.pop(name, None)
    qualname = getattr(cls, "__qualname__", None)
    rebuilt: type = type(cls)(cls.__name__, cls.__bases__, body)
    if qualname is not None:
        rebuilt.__qualname__ = qualname
    if frozen:
        _define(rebuilt, "__getstate__", getstate)
        _define(rebuilt, "__setstate__", setstate)
    return rebuilt
