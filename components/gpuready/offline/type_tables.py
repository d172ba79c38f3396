"""The SDK's property type tables, worked out one property at a time instead of a whole class at once.

To encode a resource's inputs and decode its outputs, the SDK asks a table of each class it meets: a resource, an
input type (``...Args``) or an output type, the Python type of each Pulumi property
(``pulumi/_types.py``: ``resource_types``, ``input_type_types``, ``output_type_types``). It builds the whole table
the first time, evaluating every property getter's string annotation with ``typing.get_type_hints``
(``_raw_return_hints``): 44 properties for ``PodSpec``, 26 for an EKS ``NodeGroup``, of which a plan sets a handful.
An offline plan meets about a hundred such classes; building their tables whole was about an eighth of eks-dev's
run (90 M instructions).

``TypeTable`` answers the same question for one property when it is asked (``get``), by the SDK's own rule: the
property getter's return annotation, evaluated with the class's globals and the SDK's locals, unwrapped from
``Output``/``Optional``, and, for a resource, the class annotations' entry where the getter gives none; an
annotation met again in the same module namespace (one ``Input[str]`` union recurs across a module's classes) is
evaluated once. Anything else
asked of a table (its keys, its length) gets the SDK's whole table. The tables answer as the SDK's do
(``tests/offline/test_type_tables.py`` compares every property of every class the example stacks meet).
"""

from __future__ import annotations

import functools
import sys
import typing
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from pulumi import Output

from gpuready.offline.sdk_private import TYPES_MODULE, _globals_for_cls, _py_properties, _types_from_annotations

_LOCALS = {"Output": Output, "T": type(None)}
"""The locals ``_raw_return_hints`` evaluates annotations with (``Output`` for the base resource, ``T``: generics)."""
_NONE = object()
SDK_TABLES: dict[str, Callable[[type], Mapping[str, Any]]] = {
    name: getattr(TYPES_MODULE, name) for name in ("resource_types", "input_type_types", "output_type_types")
}
"""The SDK's own table functions, by name."""


class TypeTable(Mapping[str, Any]):
    """The SDK's type table of one class (``kind``: ``resource_types``, ...), worked out property by property."""

    __slots__ = ("_annotations", "_cls", "_found", "_globals", "_kind", "_properties", "_whole")

    def __init__(self, cls: type, kind: str) -> None:
        self._cls, self._kind = cls, kind
        # ``_types_from_py_properties`` iterates the properties in this order, so a later one of a name wins here too
        self._properties = {pulumi_name: prop for _, pulumi_name, prop in _py_properties(cls)}
        self._annotations: Mapping[str, Any] | None = None if kind == "resource_types" else {}
        self._globals: dict[str, Any] | None = None
        self._found: dict[str, Any] = {}
        self._whole: Mapping[str, Any] | None = None

    def get(self, key: str, default: Any = None) -> Any:
        found = self._found.get(key, _NONE)
        if found is _NONE:
            found = self._found[key] = self._type_of(key)
        return default if found is _NONE else found

    def __getitem__(self, key: str) -> Any:
        found = self.get(key, _NONE)
        if found is _NONE:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key, _NONE) is not _NONE

    def __iter__(self) -> Iterator[str]:
        return iter(self._sdk_table())

    def __len__(self) -> int:
        return len(self._sdk_table())

    def _sdk_table(self) -> Mapping[str, Any]:
        if self._whole is None:
            self._whole = SDK_TABLES[self._kind](self._cls)
        return self._whole

    def _type_of(self, key: str) -> Any:
        prop = self._properties.get(key)
        if prop is not None:
            found = self._property_type(prop.fget)
            if found is not _NONE:
                return found
        if self._annotations is None:
            self._annotations = _types_from_annotations(self._cls)
        return self._annotations.get(key, _NONE)

    def _property_type(self, getter: Any) -> Any:
        """The getter's unwrapped return type, or ``_NONE`` where the SDK's table has no entry from it."""
        annotations = getter.__annotations__
        memo_key = None
        if len(annotations) == 1 and "return" in annotations:
            # The same annotation in the same module namespace evaluates to the same type (``Output[T]``-style
            # forward references resolve against the namespace and the SDK's locals only).
            annotation = annotations["return"]
            memo_key = (() if _local_only(annotation) else self._namespace(), annotation)
            try:
                found = _EVALUATED.get(memo_key, _MISSING)
            except TypeError:  # an unhashable annotation: evaluate it each time
                memo_key, found = None, _MISSING
            if found is not _MISSING:
                return found
        if self._globals is None:
            self._globals = _module_globals(self._cls, self._namespace())
        hint = typing.get_type_hints(getter, globalns=self._globals, localns=_LOCALS).get("return")
        found = _NONE
        if hint is not None:
            unwrapped = TYPES_MODULE.unwrap_type(hint)
            if unwrapped is not Output:  # a bare ``Output`` annotation: the SDK leaves it out of the table
                found = unwrapped
        if memo_key is not None:
            _EVALUATED[memo_key] = found
        return found

    def _namespace(self) -> tuple[str, ...]:
        """The modules whose globals ``_globals_for_cls`` merges for this class, in its order."""
        return tuple(base.__module__ for base in reversed(self._cls.__mro__))


def _module_globals(cls: type, namespace: tuple[str, ...]) -> dict[str, Any] | None:
    """``_globals_for_cls(cls)``: the globals of the modules of ``cls`` and its bases merged in ``namespace``'s order,
    merged once for the classes of one namespace while no module in it gains or loses a name (a merge copies every
    global of each module, a few thousand for a provider's ``_inputs``). A name rebound in between is not seen:
    annotations name types, and the only rebinding is the run's shortcuts' of SDK functions."""
    sizes = tuple(len(vars(sys.modules[name])) if name in sys.modules else -1 for name in namespace)
    known = _GLOBALS.get(namespace)
    if known is not None and known[0] == sizes:
        return known[1]
    merged = _globals_for_cls(cls)
    _GLOBALS[namespace] = (sizes, merged)
    return merged


_GLOBALS: dict[tuple[str, ...], tuple[tuple[int, ...], dict[str, Any] | None]] = {}
"""namespace -> (the size of each of its modules' globals then, their merge)."""
_MISSING = object()
_EVALUATED: dict[tuple[tuple[str, ...], Any], Any] = {}
"""(namespace, return annotation) -> the unwrapped type (or ``_NONE``): one evaluation per pair for the process. The
namespace is ``()`` for an annotation whose forward references name only the SDK's locals (``Output``, ``T``: every
``Input[...]``), which evaluates the same in every module."""
_LOCAL_ONLY: dict[int, tuple[Any, bool]] = {}
"""id(annotation) -> (the annotation, whether ``_local_only``): one walk per annotation object."""


def _local_only(annotation: Any) -> bool:
    """Whether every forward reference in ``annotation`` (a typing object) names only ``_LOCALS``' names: ``eval``
    looks names up in the locals first, so its value then depends on no module's globals. A string annotation (one
    forward reference, not yet compiled) counts as not."""
    known = _LOCAL_ONLY.get(id(annotation))
    if known is not None and known[0] is annotation:
        return known[1]
    pending, local = [annotation], True
    while pending and local:
        node = pending.pop()
        if isinstance(node, typing.ForwardRef):
            local = set(node.__forward_code__.co_names) <= _LOCALS.keys()
        elif isinstance(node, str):
            local = False
        else:
            pending.extend(getattr(node, "__args__", None) or ())
    _LOCAL_ONLY[id(annotation)] = (annotation, local)
    return local


_UNWRAPPED: dict[int, tuple[Any, Any]] = {}
"""id(type) -> (the type, ``unwrap_type`` of it), for the process."""
SDK_UNWRAP: Callable[[Any], Any] = TYPES_MODULE.unwrap_type


def unwrap_type(val: Any) -> Any:
    """``pulumi._types.unwrap_type``, worked out once per type object: the SDK unwraps the same few hundred types
    about a thousand times in an eks-dev plan (each property's type at each encode, each table entry), by the same
    pure inspection of the type's origin and arguments."""
    known = _UNWRAPPED.get(id(val))
    if known is not None and known[0] is val:
        return known[1]
    found = SDK_UNWRAP(val)
    _UNWRAPPED[id(val)] = (val, found)
    return found


def _table(kind: str, check: Callable[[type], bool] | None) -> Callable[[type], TypeTable]:
    @functools.cache  # one table per class for the process, as the SDK caches its own
    def table(cls: type) -> TypeTable:
        if check is not None:
            assert check(cls)
        return TypeTable(cls, kind)

    return table


LAZY_TABLES: dict[str, Callable[[type], TypeTable]] = {
    "resource_types": _table("resource_types", None),
    "input_type_types": _table("input_type_types", TYPES_MODULE.is_input_type),
    "output_type_types": _table("output_type_types", TYPES_MODULE.is_output_type),
}
"""What ``shortcuts()`` puts in place of ``SDK_TABLES``, by name."""
