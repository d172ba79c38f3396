"""The monitor's own answer to a plain registration is the SDK mock monitor's answer, request by request."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format, struct_pb2  # type: ignore[import-untyped]
from pulumi.runtime import rpc

from gpuready.offline import capture, echo, sdk_shortcuts
from gpuready.offline.analyzer import InProcessAnalyzer, load_pack
from gpuready.offline.project import load_project
from gpuready.offline.runner import run_program, run_stack
from gpuready.offline.sdk_private import SPECIAL_SIG_KEY, MockMonitor

ROOT = Path(__file__).resolve().parents[2]
STACKS = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (ROOT / "stacks").glob("Pulumi.*.yaml"))
UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"


@pytest.mark.parametrize(
    ("value", "plain"),
    [
        ({}, True),
        ({"a": "b", "n": 1, "f": 1.5, "t": True, "l": [1, "x", {"k": []}]}, True),
        ({"nan": math.nan}, True),
        ({"a": None}, False),  # the SDK drops a None property; Struct.update would keep it as null
        ({"a": [None]}, False),
        ({"a": UNKNOWN}, False),
        ({"a": {SPECIAL_SIG_KEY: "1b47061264138c4ac30d75fd1eb44270", "value": "s"}}, False),
        ({"a": ("tuple",)}, False),
        ({1: "non-string key"}, False),
        ({"a": object()}, False),
    ],
)
def test_only_json_without_markers_is_plain(value: Any, plain: bool) -> None:
    assert echo.is_plain(value) is plain


class _Compared:
    """``plain_echo`` that also asks the SDK's mock monitor and keeps both answers."""

    def __init__(self) -> None:
        self.pairs: list[tuple[Any, Any]] = []
        self.fallbacks = 0

    def __call__(self, monitor: MockMonitor, request: Any, new_resource: Any) -> Any:
        ours = echo.plain_echo(monitor, request, new_resource)
        if ours is not None:  # the inputs decoded as the SDK decodes them, to the type of each number
            sdk_inputs = sdk_shortcuts.SDK_DESERIALIZE(request.object)  # the run has its own in rpc's place
            assert repr(echo.plain_inputs(request.object)) == repr(sdk_inputs)
        if ours is None:
            self.fallbacks += 1
            return None
        sdk = MockMonitor.RegisterResource(monitor, request)  # type: ignore[no-untyped-call]
        self.pairs.append((ours, sdk))
        return ours


@pytest.mark.parametrize("stack", STACKS)
def test_each_registration_of_an_example_stack_is_answered_as_the_sdk_answers_it(
    stack: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    compared = _Compared()
    monkeypatch.setattr(capture, "plain_echo", compared)
    run_stack(load_project(ROOT), stack)
    assert compared.pairs, f"{stack}: no registration took the plain path"
    for ours, sdk in compared.pairs:
        assert (ours.urn, ours.id) == (sdk.urn, sdk.id)
        assert ours.object == sdk.object, ours.urn


def test_a_secret_is_left_to_the_sdk_the_rest_answered_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "__main__.py").write_text(
        textwrap.dedent(
            """
            import pulumi
            from pulumi_kubernetes.core.v1 import ConfigMap

            plain = ConfigMap("plain", data={"a": "b"})
            ConfigMap("secret", data={"a": pulumi.Output.secret("s")})
            ConfigMap("after", data={"a": "b"}, opts=pulumi.ResourceOptions(depends_on=[plain]))
            pulumi.export("id", plain.id)
            """
        ),
        encoding="utf-8",
    )
    compared = _Compared()
    monkeypatch.setattr(capture, "plain_echo", compared)
    run = run_program(tmp_path, project="p", stack="s", config={}, secret_keys=[])
    assert {r.name for r in run.resources} >= {"plain", "secret", "after"}
    assert compared.fallbacks >= 1  # the secret's registration
    assert len(compared.pairs) >= 2
    for ours, sdk in compared.pairs:
        assert ours.object == sdk.object
    assert run.outputs["id"] == "plain_id"


# The Struct readers

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
        assert repr(echo.struct_dict(struct)) == repr(json_format.MessageToDict(struct))


def test_a_sample_reads_as_both_readers_read_it() -> None:
    struct = _struct(SAMPLE)
    assert repr(echo.struct_dict(struct)) == repr(json_format.MessageToDict(struct))
    assert repr(echo.plain_inputs(struct)) == repr(rpc.deserialize_properties(struct))


def test_an_unset_value_reads_as_each_reader_reads_it() -> None:
    struct = _struct({"a": "b"})
    struct.fields["unset"].Clear()
    assert echo.struct_dict(struct) == json_format.MessageToDict(struct) == {"a": "b", "unset": None}
    for read in (echo.plain_inputs, rpc.deserialize_properties):
        with pytest.raises(ValueError, match="Value not set"):
            read(struct)


@pytest.mark.parametrize("number", [math.inf, -math.inf, math.nan])
def test_a_number_message_to_dict_refuses_is_refused_by_it(number: float) -> None:
    struct = _struct({"deep": {"list": [1, number]}})
    with pytest.raises(ValueError) as theirs:
        json_format.MessageToDict(struct)
    with pytest.raises(ValueError) as ours:
        echo.struct_dict(struct)
    assert str(ours.value) == str(theirs.value)


def test_every_config_schema_of_the_pack_reads_as_message_to_dict_reads_it() -> None:
    name, policies = load_pack()
    info = InProcessAnalyzer(name, policies).info()
    structs = [p.configSchema.properties for p in info.policies if p.HasField("configSchema")]
    structs += [entry.properties for entry in info.initialConfig.values()]
    assert len(structs) > 10
    for struct in structs:
        assert repr(echo.struct_dict(struct)) == repr(json_format.MessageToDict(struct))
