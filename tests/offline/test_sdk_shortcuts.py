"""The offline run's SDK shortcuts give what the SDK's own functions give, and only for the length of a run."""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import logging
import math
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Optional

import pulumi
import pytest
from google.protobuf import struct_pb2  # type: ignore[import-untyped]
from pulumi.runtime import rpc

from gpuready.offline import echo, runner, sdk_private, sdk_shortcuts, type_tables
from gpuready.offline.capture import CapturedRun, RegisteredResource
from gpuready.offline.project import load_project
from gpuready.offline.runner import run_program, run_stack

ROOT = Path(__file__).resolve().parents[2]

# Each alias form a program can give; the plain ones take the shortcut, the others the SDK's own function.
ALIASES = {
    "type": 'Alias(type_="test:v1:Parent")',
    "name": 'Alias(name="old")',
    "name and type": 'Alias(name="old", type_="test:v1:Parent")',
    "empty": "Alias()",
    "own parent none": 'Alias(type_="x:y:Z", parent=None)',
    "own parent": 'Alias(name="old", parent=other)',
    "own parent urn": 'Alias(name="old", parent="urn:pulumi:s::p::test:index:Parent::other")',
    "own stack": 'Alias(stack="other")',
    "own project": 'Alias(project="other")',
    "secret stack": 'Alias(stack=pulumi.Output.secret("other"))',
    "urn string": '"urn:pulumi:s::p::a:b:C::n"',
    "output of an alias": 'pulumi.Output.from_input(Alias(type_="a:b:C"))',
    "output name": 'Alias(name=pulumi.Output.from_input("old"))',
}
PARENTS = {"no parent": "None", "parent": "parent", "nested parent": "nested"}
# Each create_urn call a registration or an alias can make; strings take the shortcut, the rest the SDK's own.
URNS = {
    "no parent": '"n", "t:m:T"',
    "parent urn": '"n", "t:m:T", "urn:pulumi:s::p::a:b:P::par"',
    "nested parent urn": '"n", "t:m:T", "urn:pulumi:s::p::a:b:P$c:d:Q::q"',
    "empty parent urn": '"n", "t:m:T", ""',
    "own project and stack": '"n", "t:m:T", None, "proj", "stk"',
    "parent urn, own project": '"n", "t:m:T", "urn:pulumi:s::p::a:b:P::par", "proj", "stk"',
    "parent resource": '"n", "t:m:T", nested',
    "parent output": '"n", "t:m:T", pulumi.Output.from_input("urn:pulumi:s::p::a:b:P::par")',
    "output name": 'pulumi.Output.from_input("n"), "t:m:T", "urn:pulumi:s::p::a:b:P::par"',
    "secret name": 'pulumi.Output.secret("n"), "t:m:T"',
    "output type": '"n", pulumi.Output.from_input("t:m:T")',
}

PROGRAM = """
import asyncio
import pulumi
from pulumi import Alias, ComponentResource
from gpuready.offline import sdk_private, sdk_shortcuts

class Parent(ComponentResource):
    def __init__(self, name, opts=None):
        super().__init__("test:index:Parent", name, None, opts)

parent = Parent("p")
nested = Parent("q", pulumi.ResourceOptions(parent=parent))
other = Parent("other")

async def describe(output):
    return {
        "value": await output.future(),
        "known": await output.is_known(),
        "secret": await output.is_secret(),
        "resources": sorted(r._name for r in await output.resources()),
    }

def export_urn(key, create, *args):
    pulumi.export(key, pulumi.Output.from_input(asyncio.ensure_future(describe(create(*args)))))

def export(key, collapse, alias, parent):
    output = collapse(alias, "child", "test:index:Child", parent)
    pulumi.export(key, pulumi.Output.from_input(asyncio.ensure_future(describe(output))))
"""


def _program(tmp_path: Path) -> Path:
    lines = [PROGRAM]
    for parent_key, parent in PARENTS.items():
        for alias_key, alias in ALIASES.items():
            for side, module in (("sdk", "sdk_private"), ("ours", "sdk_shortcuts")):
                collapse = f"{module}.collapse_alias_to_urn"
                lines.append(f'export("{parent_key}|{alias_key}|{side}", {collapse}, {alias}, {parent})')
    for key, args in URNS.items():
        for side, create in (("sdk", "sdk_shortcuts.SDK_CREATE_URN"), ("ours", "sdk_shortcuts.create_urn")):
            lines.append(f'export_urn("urn|{key}|{side}", {create}, {args})')
    (tmp_path / "__main__.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


@pytest.fixture(scope="module")
def collapsed(tmp_path_factory: pytest.TempPathFactory) -> CapturedRun:
    program = _program(tmp_path_factory.mktemp("aliases"))
    return run_program(program, project="p", stack="s", config={}, secret_keys=[])


@pytest.mark.parametrize("parent", PARENTS)
@pytest.mark.parametrize("alias", ALIASES)
def test_an_alias_collapses_to_what_the_sdk_gives(collapsed: CapturedRun, parent: str, alias: str) -> None:
    sdk = collapsed.outputs[f"{parent}|{alias}|sdk"]
    ours = collapsed.outputs[f"{parent}|{alias}|ours"]
    assert ours == sdk
    assert sdk["value"].startswith("urn:pulumi:")  # the comparison is of real URNs, not of two failures


@pytest.mark.parametrize("case", URNS)
def test_a_urn_is_created_as_the_sdk_creates_it(collapsed: CapturedRun, case: str) -> None:
    sdk = collapsed.outputs[f"urn|{case}|sdk"]
    assert collapsed.outputs[f"urn|{case}|ours"] == sdk
    assert sdk["value"].startswith(("urn:pulumi:", "$"))


def test_an_alias_the_sdk_refuses_is_refused_the_same_way(tmp_path: Path) -> None:
    (tmp_path / "__main__.py").write_text(
        textwrap.dedent(
            """
            import pulumi
            options = pulumi.ResourceOptions(aliases=[pulumi.Alias(name=None)])
            pulumi.ComponentResource("test:index:Thing", "t", None, options)
            """
        ),
        encoding="utf-8",
    )
    with pytest.raises(Exception, match="No valid 'name' passed in for alias"):
        run_program(tmp_path, project="p", stack="s", config={}, secret_keys=[])


def test_the_sdk_still_calls_the_functions_the_shortcuts_replace() -> None:
    # Both are looked up as module globals at each call; were either bound another way, the shortcut would not run.
    assert "collapse_alias_to_urn" in sdk_private.RESOURCE_MODULE.Resource.__init__.__code__.co_names
    assert "_get_stack_trace" in sdk_private.REGISTRATION_MODULE.register_resource.__code__.co_names
    assert "deserialize_properties" in rpc.resolve_outputs.__code__.co_names
    do_register = next(
        c for c in _codes(sdk_private.REGISTRATION_MODULE.register_resource) if c.co_name == "do_register"
    )
    assert "create_urn" in do_register.co_names
    assert {"log", "debug"} <= set(do_register.co_names)  # log.debug(...): through the module
    # serialize_properties and serialize_property itself (for nested values) call it through the module
    assert "serialize_property" in rpc.serialize_properties.__code__.co_names
    assert "serialize_property" in rpc.serialize_property.__code__.co_names


def _codes(function: Any) -> list[Any]:
    """The code objects of ``function`` and of the functions nested in it."""
    found, todo = [], [function.__code__]
    while todo:
        code = todo.pop()
        found.append(code)
        todo += [c for c in code.co_consts if hasattr(c, "co_names")]
    return found


def test_the_shortcuts_hold_only_inside_the_block() -> None:
    with sdk_shortcuts.shortcuts():
        assert sdk_private.RESOURCE_MODULE.collapse_alias_to_urn is sdk_shortcuts.collapse_alias_to_urn
        assert sdk_private.REGISTRATION_MODULE._get_stack_trace is sdk_shortcuts.no_stack_trace
        assert sdk_private.TYPES_MODULE.unwrap_type is type_tables.unwrap_type
        assert rpc.deserialize_properties is sdk_shortcuts.deserialize_properties
        assert sdk_private.REGISTRATION_MODULE.create_urn is sdk_shortcuts.create_urn
        assert rpc.serialize_property is sdk_shortcuts.serialize_property
        assert pulumi.log.debug is sdk_shortcuts.debug
    assert sdk_private.RESOURCE_MODULE.collapse_alias_to_urn is sdk_private.collapse_alias_to_urn
    assert sdk_private.REGISTRATION_MODULE._get_stack_trace is sdk_private.get_stack_trace
    assert sdk_private.TYPES_MODULE.unwrap_type is type_tables.SDK_UNWRAP
    assert rpc.deserialize_properties is sdk_shortcuts.SDK_DESERIALIZE
    assert sdk_private.REGISTRATION_MODULE.create_urn is sdk_shortcuts.SDK_CREATE_URN
    assert rpc.serialize_property is sdk_shortcuts.SDK_SERIALIZE_PROPERTY
    assert pulumi.log.debug is sdk_shortcuts.SDK_DEBUG


def test_the_empty_trace_is_the_one_the_sdk_sends_when_it_cannot_place_the_caller() -> None:
    trace = sdk_shortcuts.no_stack_trace()
    assert list(trace.frames) == []
    assert trace == type(trace)()


def _ordered(resources: tuple[RegisteredResource, ...]) -> list[RegisteredResource]:
    """Dependencies in one order: the SDK lists them from a set of resources, whose order differs between runs."""
    return [
        dataclasses.replace(
            r,
            dependencies=tuple(sorted(r.dependencies)),
            property_dependencies={k: tuple(sorted(v)) for k, v in r.property_dependencies.items()},
        )
        for r in resources
    ]


@contextmanager
def _without_shortcuts(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    @contextmanager
    def nothing() -> Iterator[None]:
        yield

    monkeypatch.setattr(runner, "shortcuts", nothing)
    yield
    monkeypatch.undo()


# aks-dev: three AgentPools with 110 type aliases each; eks-dev: the stack with the most registrations
@pytest.mark.parametrize("stack", ["aks-dev", "eks-dev"])
def test_an_example_stack_captures_the_same_with_and_without_the_shortcuts(
    stack: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = load_project(ROOT)
    with _without_shortcuts(monkeypatch):
        plain = run_stack(project, stack)
    shortened = run_stack(project, stack)
    assert _ordered(shortened.resources) == _ordered(plain.resources)
    assert shortened.outputs == plain.outputs
    assert dict(shortened.component_output_structs) == dict(plain.component_output_structs)
    aliased = [r for r in shortened.resources if r.options.get("aliases")]
    assert aliased, f"{stack} registers no aliased resource: the comparison would not cover aliases"


# Plain outputs: rpc.deserialize_properties

SECRET = {sdk_private.SPECIAL_SIG_KEY: "1b47061264138c4ac30d75fd1eb44270", "value": "s"}
STRUCTS = {
    "plain": ({"s": "x", "n": 1, "f": 1.5, "t": False, "none": None, "l": [None, 2, {"k": None}], "e": {}}, True),
    "empty": ({}, True),
    "secret": ({"a": SECRET}, False),
    "nested secret": ({"a": {"b": [SECRET]}}, False),
    "unknown": ({"a": ["04da6b54-80e4-46f7-96ec-b56ff0331ba9"]}, False),
    "internal keys": ({"__meta": "x", "__provider": "p", "a": 1}, True),
}


@pytest.mark.parametrize("keep_internal", [True, None, False])
@pytest.mark.parametrize("name", STRUCTS)
def test_a_struct_deserializes_as_the_sdk_deserializes_it(name: str, keep_internal: bool | None) -> None:
    value, plain = STRUCTS[name]
    struct = struct_pb2.Struct()
    struct.update(value)
    ours = sdk_shortcuts.deserialize_properties(struct, False, keep_internal)
    assert repr(ours) == repr(sdk_shortcuts.SDK_DESERIALIZE(struct, False, keep_internal))
    assert (echo.plain_decoded(struct) is not None) is plain  # the table covers both paths


class _Deserialized:
    """The shortcut, comparing each answer it reads itself with the SDK's for the same call."""

    def __init__(self) -> None:
        self.plain = 0

    def __call__(self, struct: Any, keep_unknowns: bool | None = None, keep_internal: bool | None = True) -> Any:
        ours = SHORTCUT(struct, keep_unknowns, keep_internal)
        if keep_internal is not False and echo.plain_decoded(struct) is not None:
            assert repr(ours) == repr(sdk_shortcuts.SDK_DESERIALIZE(struct, keep_unknowns, keep_internal))
            self.plain += 1
        return ours


SHORTCUT = sdk_shortcuts.deserialize_properties


@pytest.mark.parametrize("stack", ["eks-dev", "gke-queued"])
def test_each_answer_of_an_example_stack_deserializes_as_the_sdk_deserializes_it(
    stack: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    deserialized = _Deserialized()
    monkeypatch.setattr(sdk_shortcuts, "deserialize_properties", deserialized)
    captured = run_stack(load_project(ROOT), stack)
    assert deserialized.plain >= len([r for r in captured.resources if r.custom])  # each registration's answer


# Plain values: rpc.serialize_property


class _Color(enum.StrEnum):
    RED = "red"


VALUES = {
    "text": "x",
    "unknown text": "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
    "int": 3,
    "float": 1.5,
    "nan": math.nan,
    "bool": True,
    "none": None,
    "str enum": _Color.RED,
    "list": ["a", 1, None],
    "tuple": ("a", 2),
    "dict": {"a": {"b": [True, None]}},
}
HINTS = {
    "no hint": None,
    "str": str,
    "optional input": Optional[pulumi.Input[str]],  # type: ignore[misc]  # noqa: UP045 - as the SDK's annotations
    "any": Any,
    "list": list[str],
}


def _serialized(serialize: Any, value: Any, hint: Any, protobuf: bool) -> tuple[str, ...]:
    """What ``serialize`` gives ``value`` (its repr, its type and the dependencies it found) or the error it raises."""
    deps: list[Any] = []
    try:
        found = asyncio.run(serialize(value, deps, "key", None, None, hint, False, False, protobuf))
    except (AssertionError, ValueError) as error:
        return ("raised", type(error).__name__, str(error))
    return (repr(found), type(found).__name__, repr(deps))


@pytest.mark.parametrize("protobuf", [False, True])
@pytest.mark.parametrize("hint", HINTS)
@pytest.mark.parametrize("value", VALUES)
def test_a_value_serializes_as_the_sdk_serializes_it(value: str, hint: str, protobuf: bool) -> None:
    sdk = _serialized(sdk_shortcuts.SDK_SERIALIZE_PROPERTY, VALUES[value], HINTS[hint], protobuf)
    assert _serialized(sdk_shortcuts.serialize_property, VALUES[value], HINTS[hint], protobuf) == sdk


# Debug messages: pulumi.log.debug

DEBUG_PROGRAM = """
import pulumi
from pulumi import log

log.debug("no resource")
component = pulumi.ComponentResource("test:index:Thing", "t")
log.debug("with a resource", component)
log.warn("a warning")
"""


@pytest.mark.parametrize("root_level", [logging.DEBUG, logging.INFO, logging.WARNING])
def test_the_offline_engine_logs_the_messages_it_logs_without_the_shortcut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, root_level: int
) -> None:
    (tmp_path / "__main__.py").write_text(DEBUG_PROGRAM, encoding="utf-8")
    logged = {}
    for side in ("ours", "sdk"):
        if side == "sdk":
            monkeypatch.setattr(sdk_shortcuts, "debug", sdk_shortcuts.SDK_DEBUG)
        caplog.clear()
        caplog.set_level(root_level)
        run_program(tmp_path, project="p", stack="s", config={}, secret_keys=[])
        logged[side] = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "root"]
    assert logged["ours"] == logged["sdk"]
    assert (logging.WARNING, "a warning") in logged["ours"]
    assert ((logging.DEBUG, "no resource") in logged["ours"]) is (root_level == logging.DEBUG)
