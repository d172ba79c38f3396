"""Eight pieces of the Pulumi SDK's per-registration work that an offline run does not need in full, done cheaper or
not at all.

Each is a module global the SDK looks up at each call; ``shortcuts()`` replaces them for the length of one
offline run and puts the SDK's own back after it. ``pulumi up`` under the Pulumi CLI never sees them. Each one
leaves what a program, the monitor and the policy pack receive unchanged: the capture of every example stack is
the same with and without them (``tests/offline/test_sdk_shortcuts.py``).

1. **Alias URNs.** ``Resource.__init__`` collapses every alias in its options to a URN output as it is
   constructed (``pulumi/resource.py``: ``self._aliases.append(collapse_alias_to_urn(...))``), whether or not
   anything reads it: the SDK reads ``_aliases`` only to give a child its parent's aliases on an engine without
   alias specs (``runtime/resource.py`` ``all_aliases``), and the offline monitor has alias specs. The SDK's
   collapse chains an output of the alias, one of the project and stack, one of the parent's URN prefix and one of
   the joined parts, each an asyncio task: an azure-native ``AgentPool`` carries 110 type aliases (one per API
   version), and three of them cost a plan about 400 M instructions, more than the rest of the run.
   ``collapse_alias_to_urn`` here gives the same URN, with the same resources, known-ness and secrecy, from one
   output. Only a plain alias takes this path: an ``Alias`` whose name and type are strings or unset and whose
   project, stack and parent are unset; anything else (a URN string, an output, an alias naming its own parent,
   stack or project, an alias the SDK refuses) goes to the SDK's function unchanged, errors included.
2. **Stack traces.** Each registration walks the Python stack (``traceback.extract_stack``, which reads every
   frame's source line) and turns each frame into a ``file://`` URI for the request's ``stackTrace`` and
   ``sourcePosition`` (``runtime/resource.py`` ``_get_stack_trace``), about 2.3 M instructions a resource. The
   engine shows them in its diagnostics; the offline monitor, the plan and the policy pack read neither, and the
   SDK already sends an empty trace when it cannot place the caller. Offline, every request gets that empty trace.
3. **Type tables.** The SDK's table of a class's property types is built whole on first use; offline, each
   property's type is worked out when asked (``type_tables.py``).
4. **Unwrapped types.** ``unwrap_type`` (``Output[T]``, ``Input[T]``, ``Optional[T]`` to ``T``), which the SDK
   calls for each property at each encode and for each table entry, answers once per type object
   (``type_tables.py``).
5. **Plain answers.** ``rpc.deserialize_properties``, which decodes each registration's answer (``resolve_outputs``)
   and each invoke's, reads a Struct without a special marker (a secret, resource reference, asset, archive,
   output value or unknown) through ``echo.plain_decoded``: the same dict in a quarter of the time (13 M
   instructions of eks-dev's plan). A Struct with a marker, or a call that drops internal keys
   (``keep_internal=False``), gets the SDK's own function.
6. **Mock URNs.** Each registration computes the URN the SDK would fake without a monitor
   (``runtime/resource.py`` ``do_register``: ``mock_urn = await create_urn(name, ty, resolver.parent_urn)``), an
   output of the parent's URN, one of all three parts and one of the joined URN, each an asyncio task, and with a
   monitor never reads it. ``create_urn`` of a name, a type and a parent URN that are strings (or no parent) gives
   the same URN, known, not secret and of no resource, from one output (35 M instructions of eks-dev's plan); any
   other call (an output, a resource) goes to the SDK's own.
7. **Plain values.** ``rpc.serialize_property``, a coroutine the SDK awaits for every input value and, through
   itself, every item and field nested in one, walks a value of exact type ``str``, ``int``, ``float``, ``bool``
   or ``None`` through a dozen checks (a list, an unknown, a resource, an asset, an archive, an awaitable, an
   output, an input type, a mapping, a protobuf ``Value``, a legal protobuf value) to return it as it is (the
   type hint it unwraps first, a pure look at the hint's origin and arguments, only matters for a list, a mapping
   or an input type). Here such a value is returned at once; any other value, or a call for a protobuf
   ``Value``, goes to the SDK's own (13 M instructions of gke-queued's plan).
8. **Debug messages.** The SDK reports each step of each registration through ``pulumi.log.debug``, which builds
   a ``LogRequest`` for the engine; the offline engine (``runner._LogEngine``) hands it to Python's root logger at
   ``DEBUG``, which drops it unless the root logger is enabled for ``DEBUG`` (``gpuready plan`` collects from
   ``INFO``). A message with no resource is dropped here at once in that case; any other goes to the SDK's own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from pulumi import Alias, Output, Resource, get_project, get_stack
from pulumi import log as sdk_log
from pulumi.runtime import rpc
from pulumi.runtime.proto import source_pb2

from gpuready.offline.echo import plain_decoded
from gpuready.offline.sdk_private import REGISTRATION_MODULE, RESOURCE_MODULE, TYPES_MODULE
from gpuready.offline.sdk_private import collapse_alias_to_urn as _SDK_COLLAPSE
from gpuready.offline.sdk_private import get_stack_trace as _SDK_STACK_TRACE
from gpuready.offline.type_tables import LAZY_TABLES, SDK_TABLES, SDK_UNWRAP, unwrap_type

SDK_CREATE_URN: Callable[..., Output[str]] = REGISTRATION_MODULE.create_urn
"""The SDK's ``create_urn``, which ``shortcuts()`` puts back."""
SDK_DESERIALIZE = rpc.deserialize_properties
"""The SDK's ``deserialize_properties``, which ``shortcuts()`` puts back."""
SDK_SERIALIZE_PROPERTY = rpc.serialize_property
"""The SDK's ``serialize_property``, which ``shortcuts()`` puts back."""
SDK_DEBUG = sdk_log.debug
"""The SDK's ``pulumi.log.debug``, which ``shortcuts()`` puts back."""
_AS_IS = frozenset({str, int, float, bool, type(None)})
"""The exact types whose values ``serialize_property`` returns as they are."""


def collapse_alias_to_urn(alias: Any, default_name: str, default_type: str, default_parent: Any) -> Output[str]:
    """``pulumi.runtime.resource.collapse_alias_to_urn`` for a plain alias; the SDK's own for any other."""
    fields: Any = alias  # the SDK marks an unset field with ``...``, which Alias's annotations leave out
    if type(alias) is not Alias or fields.parent is not ... or fields.project is not ... or fields.stack is not ...:
        return _SDK_COLLAPSE(alias, default_name, default_type, default_parent)
    name = default_name if fields.name is ... else fields.name
    type_ = default_type if fields.type_ is ... else fields.type_
    if not isinstance(name, str) or not isinstance(type_, str):
        return _SDK_COLLAPSE(alias, default_name, default_type, default_parent)
    suffix = f"{type_}::{name}"
    if default_parent is None:
        # runtime/resource.py create_urn: the stack's prefix when there is no parent
        return Output.from_input(f"urn:pulumi:{get_stack()}::{get_project()}::{suffix}")
    if not isinstance(default_parent, Resource):  # Resource.__init__ refuses it just after; let the SDK say so
        return _SDK_COLLAPSE(alias, default_name, default_type, default_parent)
    # create_urn: the parent's URN up to its last "::", then "$" and the child's type and name
    return default_parent.urn.apply(lambda urn: f"{urn[: urn.rfind('::')]}${suffix}")


def no_stack_trace() -> Any:
    """What ``_get_stack_trace`` returns when it cannot place the caller: an empty ``StackTrace``."""
    return source_pb2.StackTrace()


def deserialize_properties(
    props_struct: Any, keep_unknowns: bool | None = None, keep_internal: bool | None = True
) -> Any:
    """``pulumi.runtime.rpc.deserialize_properties``: a Struct without a special marker read directly."""
    if keep_internal is not False:
        plain = plain_decoded(props_struct)
        if plain is not None:
            return plain
    return SDK_DESERIALIZE(props_struct, keep_unknowns, keep_internal)


def create_urn(
    name: Any, type_: Any, parent: Any = None, project: str | None = None, stack: str | None = None
) -> Output[str]:
    """``pulumi.runtime.resource.create_urn`` of a name, a type and a parent URN that are strings (or no parent): the
    same URN from one output; the SDK's own for any other."""
    if type(name) is not str or type(type_) is not str or (parent is not None and type(parent) is not str):
        return SDK_CREATE_URN(name, type_, parent, project, stack)
    if parent is None:
        prefix = (
            f"urn:pulumi:{get_stack() if stack is None else stack}::{get_project() if project is None else project}::"
        )
    else:
        prefix = parent[: parent.rfind("::")] + "$"
    return Output.from_input(prefix + type_ + "::" + name)


async def serialize_property(  # noqa: PLR0917 - the SDK's signature
    value: Any,
    deps: list[Any] | None,
    property_key: str | None,
    resource_obj: Any = None,
    input_transformer: Callable[[str], str] | None = None,
    typ: Any = None,
    keep_output_values: bool = False,
    exclude_resource_refs_from_deps: bool = False,
    return_protobuf_value: bool = False,
) -> Any:
    """``pulumi.runtime.rpc.serialize_property``: a plain scalar returned as it is."""
    if type(value) in _AS_IS and not return_protobuf_value:
        return value
    return await SDK_SERIALIZE_PROPERTY(
        value, deps, property_key, resource_obj, input_transformer, typ, keep_output_values,
        exclude_resource_refs_from_deps, return_protobuf_value,
    )  # fmt: skip


def debug(
    msg: str, resource: Resource | None = None, stream_id: int | None = None, ephemeral: bool | None = None
) -> None:
    """``pulumi.log.debug``: a message with no resource dropped where the offline engine's logger would drop it."""
    if resource is None and not logging.getLogger().isEnabledFor(logging.DEBUG):
        return
    SDK_DEBUG(msg, resource, stream_id, ephemeral)


@contextmanager
def shortcuts() -> Iterator[None]:
    """The shortcuts in place for the duration of the block; the SDK's own functions back afterwards."""
    RESOURCE_MODULE.collapse_alias_to_urn = collapse_alias_to_urn
    REGISTRATION_MODULE._get_stack_trace = no_stack_trace
    for name, lazy in LAZY_TABLES.items():
        setattr(TYPES_MODULE, name, lazy)
    TYPES_MODULE.unwrap_type = unwrap_type
    rpc.deserialize_properties = deserialize_properties
    REGISTRATION_MODULE.create_urn = create_urn
    rpc.serialize_property = serialize_property
    sdk_log.debug = debug
    try:
        yield
    finally:
        RESOURCE_MODULE.collapse_alias_to_urn = _SDK_COLLAPSE
        REGISTRATION_MODULE._get_stack_trace = _SDK_STACK_TRACE
        for name, table in SDK_TABLES.items():
            setattr(TYPES_MODULE, name, table)
        TYPES_MODULE.unwrap_type = SDK_UNWRAP
        rpc.deserialize_properties = SDK_DESERIALIZE
        REGISTRATION_MODULE.create_urn = SDK_CREATE_URN
        rpc.serialize_property = SDK_SERIALIZE_PROPERTY
        sdk_log.debug = SDK_DEBUG
