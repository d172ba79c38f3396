"""Plain Structs: the mock monitor's answer to a plain registration, and two readers of a Struct.

The mock monitor's answer to a plain registration (``plain_echo``) does not serialize back the inputs it was just
sent. ``MockMonitor.RegisterResource`` (pulumi ``runtime/mocks.py``) decodes the request's input Struct, asks the
mocks for the resource's state, and serializes that state into the response through ``rpc.serialize_properties``, an
asyncio coroutine it runs on a loop of the executor thread's own (``_sync_await``). With ``PlanMocks`` the state is
the inputs plus a few computed outputs, so for a request whose Struct holds only plain values (no secret, resource
reference, asset, archive, output value or unknown: nothing the decode-encode round trip could change) the answer
is that Struct, with the computed outputs set on a copy: 36 M instructions of eks-dev's plan (54 registrations),
about a twentieth of its run. Such a request's inputs are decoded straight off the Struct (``plain_inputs``), the
SDK's decode without its checks for values the Struct cannot hold: 12 M more.

Everything else (a request with special values or transforms, computed outputs that are not plain JSON, other
mocks) gets the base class's answer. ``tests/offline/test_echo.py`` compares both answers request by request.

The readers (each compared with the reader it stands for, on every Struct of the example stacks' plans):

- ``plain_inputs``: ``pulumi.runtime.rpc.deserialize_properties`` of a Struct without a special marker (a secret,
  resource reference, asset, archive, output value or unknown: ``plain_decoded`` and ``plain_echo`` check first), which
  then only converts each value, dropping a null property and keeping a null list item. The SDK checks each value
  for those markers and reads it through protobuf's ``Struct`` wrappers: four times the time.
- ``struct_dict``: ``google.protobuf.json_format.MessageToDict`` of a Struct (``json_format.py``
  ``_StructMessageToJsonObject`` and ``_ValueMessageToJsonObject``: a null is None, a number the float it holds, a
  string, a bool, a nested Struct or list the same way), which walks each value through the field descriptors.
  A number that is infinite or NaN, which ``MessageToDict`` refuses, is left to it to refuse.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from google.protobuf import json_format, struct_pb2  # type: ignore[import-untyped]
from pulumi.runtime import MockResourceArgs, rpc
from pulumi.runtime.proto import resource_pb2

from gpuready.errors import GpuReadyError
from gpuready.offline.sdk_private import SPECIAL_SIG_KEY, MockMonitor

_SPECIAL = (SPECIAL_SIG_KEY.encode(), rpc.UNKNOWN.encode())
"""Bytes whose presence in an encoded Struct means it may hold a value the round trip changes."""


def plain_echo(monitor: MockMonitor, request: Any, new_resource: Any) -> Any | None:
    """The ``RegisterResourceResponse`` ``monitor`` would give ``request``, or None where only the SDK can say.

    ``new_resource``: the mocks' ``new_resource``, which returns the state as the inputs plus computed outputs.
    """
    inputs = None if len(request.transforms) else plain_decoded(request.object)
    if inputs is None:
        return None
    args = MockResourceArgs(
        typ=request.type,
        name=request.name,
        inputs=inputs,
        provider=request.provider,
        resource_id=request.importId,
        custom=request.custom or False,
        transforms=[],
    )
    id_, state = new_resource(args)
    computed = {k: v for k, v in state.items() if k not in inputs or v is not inputs[k]}
    if any(k not in state for k in inputs) or not is_plain(computed):
        return None
    urn = monitor.make_urn(request.parent, request.type, request.name)
    state_struct = struct_pb2.Struct()
    state_struct.CopyFrom(request.object)
    state_struct.update(computed)
    monitor.resources[urn] = MockMonitor.ResourceRegistration(urn, id_, state)
    return resource_pb2.RegisterResourceResponse(urn=urn, id=id_, object=state_struct)


def plain_decoded(struct: Any) -> dict[str, Any] | None:
    """``plain_inputs(struct)`` when the Struct holds no special marker; None (the SDK decodes it) otherwise."""
    encoded = struct.SerializeToString()
    return None if any(marker in encoded for marker in _SPECIAL) else plain_inputs(struct)


def is_plain(value: Any) -> bool:
    """Whether ``value`` is JSON the SDK serializes as ``Struct.update`` does: no None, no special marker."""
    if isinstance(value, str):
        return value != rpc.UNKNOWN
    if isinstance(value, bool | int | float):
        return True
    if isinstance(value, Mapping):
        return all(isinstance(k, str) and k != SPECIAL_SIG_KEY and is_plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(is_plain(v) for v in value)
    return False


def plain_inputs(struct: Any) -> dict[str, Any]:
    """``rpc.deserialize_properties(struct)`` for a Struct without a special marker (``plain_echo`` checks first):
    the same dict (a null property left out, a null list item kept), read off the Struct's fields directly instead
    of through the SDK's checks of each value for secrets, unknowns and resources, which such a Struct has none
    of: a quarter of the time."""
    fields = struct.fields
    decoded = {}
    for key in fields:
        value = _value(fields[key], plain_inputs, json=False)
        if value is not None:
            decoded[key] = value
    return decoded


def struct_dict(struct: Any) -> dict[str, Any]:
    """``json_format.MessageToDict(struct)`` for a ``Struct``."""
    try:
        return _json_struct(struct)
    except _NotFinite:
        return dict(json_format.MessageToDict(struct))  # raises its own error for the number


class _NotFinite(GpuReadyError):
    """A number ``MessageToDict`` refuses: it says so itself (``struct_dict`` catches this; no caller sees it)."""


def _json_struct(struct: Any) -> dict[str, Any]:
    fields = struct.fields
    return {key: _value(fields[key], _json_struct, json=True) for key in fields}


def _value(value: Any, read_struct: Callable[[Any], dict[str, Any]], *, json: bool) -> Any:
    """One ``Value``, a nested Struct read with ``read_struct``; ``json``: as ``MessageToDict`` reads it (an unset
    value is None, an infinite or NaN number refused), else as the SDK does (an unset value refused)."""
    kind = value.WhichOneof("kind")
    if kind == "string_value":
        return value.string_value
    if kind == "struct_value":
        return read_struct(value.struct_value)
    if kind == "list_value":
        return [_value(item, read_struct, json=json) for item in value.list_value.values]
    if kind == "bool_value":
        return value.bool_value
    if kind == "number_value":
        number = value.number_value
        if json and (math.isinf(number) or math.isnan(number)):
            raise _NotFinite(number)
        return number
    if kind is None and not json:
        raise ValueError("Value not set")  # protobuf's Struct says so of an unset value
    return None  # null_value
