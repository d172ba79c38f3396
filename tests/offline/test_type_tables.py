"""The offline run's type tables answer every property as the SDK's whole tables do, for every class a plan meets."""

from __future__ import annotations

import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gpuready.offline import type_tables
from gpuready.offline.project import load_project
from gpuready.offline.runner import run_stack
from gpuready.offline.sdk_private import TYPES_MODULE, _globals_for_cls, _py_properties, _types_from_annotations

ROOT = Path(__file__).resolve().parents[2]
STACKS = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (ROOT / "stacks").glob("Pulumi.*.yaml"))


def _met(monkeypatch: pytest.MonkeyPatch) -> set[tuple[str, type]]:
    """Every (table kind, class) the example stacks' runs ask a table of."""
    met: set[tuple[str, type]] = set()

    def recording(kind: str, table: Callable[[type], Any]) -> Callable[[type], Any]:
        def ask(cls: type) -> Any:
            met.add((kind, cls))
            return table(cls)

        return ask

    for kind, table in list(type_tables.LAZY_TABLES.items()):
        monkeypatch.setitem(type_tables.LAZY_TABLES, kind, recording(kind, table))
    project = load_project(ROOT)
    for stack in STACKS:
        run_stack(project, stack)
    return met


@pytest.fixture(scope="module")
def met() -> set[tuple[str, type]]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        return _met(monkeypatch)


def test_the_example_stacks_meet_every_kind_of_table(met: set[tuple[str, type]]) -> None:
    kinds = {kind for kind, _ in met}
    assert kinds == set(type_tables.SDK_TABLES)
    assert len(met) > 100  # resources, their Args and their output types of three clouds and Kubernetes


def test_every_property_of_every_class_met_has_the_sdk_s_type(met: set[tuple[str, type]]) -> None:
    compared = 0
    for kind, cls in sorted(met, key=lambda pair: (pair[0], pair[1].__module__, pair[1].__qualname__)):
        sdk = dict(type_tables.SDK_TABLES[kind](cls))
        ours = type_tables.TypeTable(cls, kind)
        asked = {*sdk, *(name for _, name, _ in _py_properties(cls)), "noSuchProperty"}
        if kind == "resource_types":
            asked |= set(_types_from_annotations(cls))
        for key in sorted(asked):
            assert ours.get(key) == sdk.get(key), f"{kind}({cls.__qualname__}).get({key!r})"
            assert (key in ours) == (key in sdk)
            compared += 1
        assert dict(ours) == sdk  # iterating a table gives the SDK's whole table
        assert len(ours) == len(sdk)
    assert compared > 1000


def test_a_missing_property_raises_key_error_and_get_gives_the_default() -> None:
    from pulumi_kubernetes.meta.v1 import outputs  # noqa: PLC0415 - a class with a table, for this test only

    table = type_tables.TypeTable(outputs.ObjectMeta, "output_type_types")
    assert table.get("name") is str
    assert table.get("noSuchProperty", "default") == "default"
    with pytest.raises(KeyError, match="noSuchProperty"):
        table["noSuchProperty"]


@pytest.mark.parametrize("kind", ["input_type_types", "output_type_types"])
def test_a_class_of_the_wrong_kind_is_refused_as_the_sdk_refuses_it(kind: str) -> None:
    class NotMarked:
        pass

    with pytest.raises(AssertionError):
        type_tables.SDK_TABLES[kind](NotMarked)
    with pytest.raises(AssertionError):
        type_tables.LAZY_TABLES[kind](NotMarked)


def test_the_sdk_looks_each_table_up_through_its_module_at_each_call() -> None:
    rpc = TYPES_MODULE.__name__.replace("_types", "runtime.rpc")
    module = __import__(rpc, fromlist=["rpc"])
    names = {
        "resource_types": module.resolve_outputs,
        "input_type_types": module.serialize_property,
        "output_type_types": module.translate_output_properties,
    }
    for kind, function in names.items():
        assert kind in function.__code__.co_names, f"{function.__name__} no longer asks _types.{kind}"


# The typing forms the SDK's annotations are made of (``typing.Union``, not ``X | Y``), built at run time.
_UNION: Any = typing.Union
_OPTIONAL: Any = typing.Optional
_MAPPING: Any = typing.Mapping
_REF = typing.ForwardRef


def test_the_sdk_looks_unwrap_type_up_through_its_module_at_each_call() -> None:
    rpc = __import__(TYPES_MODULE.__name__.replace("_types", "runtime.rpc"), fromlist=["rpc"])
    for function in (rpc.serialize_property, TYPES_MODULE._types_from_py_properties.__wrapped__):
        assert "unwrap_type" in function.__code__.co_names, f"{function.__name__} no longer asks _types.unwrap_type"


def test_every_type_met_unwraps_as_the_sdk_unwraps_it_and_once(met: set[tuple[str, type]]) -> None:
    types = {id(t): t for kind, cls in met for t in type_tables.SDK_TABLES[kind](cls).values()}
    types |= {id(t): t for t in (None, str, Any, _OPTIONAL[str], _UNION[int, str])}
    for value in types.values():
        first = type_tables.unwrap_type(value)
        assert first == type_tables.SDK_UNWRAP(value), value
        assert type_tables.unwrap_type(value) is first  # remembered: the same object again
    assert len(types) > 100


@pytest.mark.parametrize(
    ("annotation", "local_only"),
    [
        (str, True),
        (_OPTIONAL[int], True),
        (_UNION[str, _REF("Output[T]")], True),  # every pulumi.Input[...]
        (_MAPPING[str, _UNION[str, _REF("Output[T]")]], True),
        (_OPTIONAL[_REF("outputs.NodeGroupResource")], False),  # the module's own globals
        (_UNION[_REF("Output[T]"), _REF("_meta.v1.ObjectMetaArgs")], False),
        ("pulumi.Output[str]", False),  # a string is not compiled yet: never shared across modules
    ],
)
def test_an_annotation_is_shared_across_modules_only_when_its_references_name_only_the_locals(
    annotation: Any, local_only: bool
) -> None:
    assert type_tables._local_only(annotation) is local_only
    assert type_tables._local_only(annotation) is local_only  # and again, from the memo


def test_every_class_met_evaluates_in_the_globals_the_sdk_merges_for_it(
    met: set[tuple[str, type]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(type_tables, "_GLOBALS", {})  # merged here, outside a run (whose shortcuts rebind SDK names)
    namespaces = set()
    for _, cls in sorted(met, key=lambda pair: (pair[0], pair[1].__module__, pair[1].__qualname__)):
        namespace = tuple(base.__module__ for base in reversed(cls.__mro__))
        namespaces.add(namespace)
        assert type_tables._module_globals(cls, namespace) == _globals_for_cls(cls), cls.__qualname__
    assert len(namespaces) < len(met) / 2  # the classes met share far fewer namespaces: the merge is reused


def test_a_namespace_whose_module_gains_a_name_is_merged_again(monkeypatch: pytest.MonkeyPatch) -> None:
    class Local:
        pass

    namespace = tuple(base.__module__ for base in reversed(Local.__mro__))
    before = type_tables._module_globals(Local, namespace)
    assert before is type_tables._module_globals(Local, namespace)  # merged once while nothing changes
    monkeypatch.setitem(globals(), "_GAINED_NAME", object())
    after = type_tables._module_globals(Local, namespace)
    assert after is not None and "_GAINED_NAME" in after
    assert after == _globals_for_cls(Local)
