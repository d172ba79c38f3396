"""The direct Struct readers give what the SDK's decode and protobuf's ``MessageToDict`` give, value for value."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format, struct_pb2  # type: ignore[import-untyped]
from pulumi.runtime import rpc

from gpuready.offline.analyzer import InProcessAnalyzer, load_pack
from gpuready.offline.project import load_project
from gpuready.offline.runner import run_stack
from gpuready.offline.struct_values import plain_inputs, struct_dict

ROOT = Path(__file__).resolve().parents[2]
STACKS = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (ROOT / "stacks").glob("Pulumi.*.yaml"))
SAMPLE = {"s": "x", "n": 1, "f": 1.5, "t": False, "none": None, "l": [None, 2, {"k": None, "v": []}], "e": {}}


def _struct(value: dict[str, Any]) -> Any:
    struct = struct_pb2.Struct()
    struct.update(value)
    return struct


@pytest.mark.parametrize("stack", STACKS)
def test_every_struct_of_an_example_plan_reads_as_message_to_dict_reads_it(stack: str) -> None:
    captured = run_stack(load_project(ROOT), stack)
    structs = [r.object for r in captured.resources] + list(captured.component_output_structs.values())
    for struct in structs:
        assert repr(struct_dict(struct)) == repr(json_format.MessageToDict(struct))


def test_a_sample_reads_as_both_readers_read_it() -> None:
    struct = _struct(SAMPLE)
    assert repr(struct_dict(struct)) == repr(json_format.MessageToDict(struct))
    assert repr(plain_inputs(struct)) == repr(rpc.deserialize_properties(struct))


def test_an_unset_value_reads_as_each_reader_reads_it() -> None:
    struct = _struct({"a": "b"})
    struct.fields["unset"].Clear()
    assert struct_dict(struct) == json_format.MessageToDict(struct) == {"a": "b", "unset": None}
    for read in (plain_inputs, rpc.deserialize_properties):
        with pytest.raises(ValueError, match="Value not set"):
            read(struct)


@pytest.mark.parametrize("number", [math.inf, -math.inf, math.nan])
def test_a_number_message_to_dict_refuses_is_refused_by_it(number: float) -> None:
    struct = _struct({"deep": {"list": [1, number]}})
    with pytest.raises(ValueError) as theirs:
        json_format.MessageToDict(struct)
    with pytest.raises(ValueError) as ours:
        struct_dict(struct)
    assert str(ours.value) == str(theirs.value)


def test_every_config_schema_of_the_pack_reads_as_message_to_dict_reads_it() -> None:
    name, policies = load_pack()
    info = InProcessAnalyzer(name, policies).info()
    structs = [p.configSchema.properties for p in info.policies if p.HasField("configSchema")]
    structs += [entry.properties for entry in info.initialConfig.values()]
    assert len(structs) > 10
    for struct in structs:
        assert repr(struct_dict(struct)) == repr(json_format.MessageToDict(struct))
