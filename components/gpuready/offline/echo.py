"""The mock monitor's answer to a plain registration, without serializing back the inputs it was just sent.

``MockMonitor.RegisterResource`` (pulumi ``runtime/mocks.py``) decodes the request's input Struct, asks the mocks for
the resource's state, and serializes that state into the response through ``rpc.serialize_properties``, an
asyncio coroutine it runs on a loop of the executor thread's own (``_sync_await``). With ``PlanMocks`` the state is
the inputs plus a few computed outputs, so for a request whose Struct holds only plain values (no secret, resource
reference, asset, archive, output value or unknown: nothing the decode-encode round trip could change) the answer
is that Struct, with the computed outputs set on a copy: 36 M instructions of eks-dev's plan (54 registrations),
about a twentieth of its run. Such a request's inputs are decoded straight off the Struct (``plain_inputs``), the
SDK's decode without its checks for values the Struct cannot hold: 12 M more.

Everything else (a request with special values or transforms, computed outputs that are not plain JSON, other
mocks) gets the base class's answer. ``tests/offline/test_echo.py`` compares both answers request by request.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.protobuf import struct_pb2  # type: ignore[import-untyped]
from pulumi.runtime import MockResourceArgs, rpc
from pulumi.runtime.proto import resource_pb2

from gpuready.offline.sdk_private import SPECIAL_SIG_KEY, MockMonitor
from gpuready.offline.struct_values import plain_inputs

_SPECIAL = (SPECIAL_SIG_KEY.encode(), rpc.UNKNOWN.encode())
"""Bytes whose presence in an encoded Struct means it may hold a value the round trip changes."""


def plain_echo(monitor: MockMonitor, request: Any, new_resource: Any) -> Any | None:
    """The ``RegisterResourceResponse`` ``monitor`` would give ``request``, or None where only the SDK can say.

    ``new_resource``: the mocks' ``new_resource``, which returns the state as the inputs plus computed outputs.
    """
    if len(request.transforms) or any(marker in request.object.SerializeToString() for marker in _SPECIAL):
        return None
    inputs = plain_inputs(request.object)
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
