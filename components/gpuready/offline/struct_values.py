"""A protobuf ``Struct`` read into Python values directly, as two slower readers read it. Pure.

- ``plain_inputs``: ``pulumi.runtime.rpc.deserialize_properties`` of a Struct without a special marker (a secret,
  resource reference, asset, archive, output value or unknown: the caller checks, ``echo.plain_decoded``), which
  then only converts each value, dropping a null property and keeping a null list item. The SDK checks each value
  for those markers and reads it through protobuf's ``Struct`` wrappers: four times the time.
- ``struct_dict``: ``google.protobuf.json_format.MessageToDict`` of a Struct (``json_format.py``
  ``_StructMessageToJsonObject`` and ``_ValueMessageToJsonObject``: a null is None, a number the float it holds, a
  string, a bool, a nested Struct or list the same way), which walks each value through the field descriptors.
  A number that is infinite or NaN, which ``MessageToDict`` refuses, is left to it to refuse.

``tests/offline/test_struct_values.py`` compares both with the readers they stand for, on every Struct of the example
stacks' plans.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from google.protobuf import json_format  # type: ignore[import-untyped]

from gpuready.errors import GpuReadyError

__all__ = ["plain_inputs", "struct_dict"]


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
