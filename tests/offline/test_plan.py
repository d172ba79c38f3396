"""Plans from hand-built captures: JSON normalisation, ordering, the file format and the tree."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from pulumi.output import Unknown
from pulumi.runtime import rpc

from gpuready.offline.capture import CapturedRun, RegisteredResource, stack_urn
from gpuready.offline.plan import (
    JsonValue,
    Plan,
    PlannedResource,
    build_plan,
    lifecycle_note,
    render_tree,
    to_json_value,
)

STACK = stack_urn("dev", "gp")
CLUSTER = "urn:pulumi:dev::gp::gpuready:Cluster::main"
POOL = "urn:pulumi:dev::gp::gpuready:Cluster$gpuready:GpuPool::gpu"
NODE_GROUP = "urn:pulumi:dev::gp::gpuready:Cluster$gpuready:GpuPool$aws:eks/nodeGroup:NodeGroup::gpu-ng"
QUEUE = "urn:pulumi:dev::gp::aws:sqs/queue:Queue::jobs"
AN_UNKNOWN = Unknown()  # type: ignore[no-untyped-call]  # the SDK leaves its constructor unannotated


def _resource(urn: str, parent: str, inputs: dict[str, Any] | None = None) -> RegisteredResource:
    chain, name = urn.split("::")[2:4]
    return RegisteredResource(
        urn=urn,
        type=chain.split("$")[-1],
        name=name,
        parent=parent,
        custom=bool(inputs),
        provider="",
        dependencies=(),
        property_dependencies={},
        object=None,
        inputs=inputs or {},
    )


def _run(*resources: RegisteredResource, outputs: dict[str, Any] | None = None) -> CapturedRun:
    return CapturedRun(
        project="gp", stack="dev", preview=False, stack_urn=STACK, resources=resources, outputs=outputs or {}
    )


GPU_RUN = _run(  # registration order is random; the plan must not depend on it
    replace(
        _resource(NODE_GROUP, POOL, {"scalingConfig": {"desiredSize": 2.0}, "amiType": "AL2_x86_64_GPU"}),
        dependencies=(POOL, POOL),
        options={"ignoreChanges": ["scalingConfig.desiredSize"], "deleteBeforeReplace": False},
    ),
    _resource(QUEUE, STACK, {"delaySeconds": 5.0}),
    _resource(CLUSTER, STACK),
    _resource(POOL, CLUSTER),
    outputs={"size": 2.0, "token": rpc.wrap_rpc_secret("s3cr3t")},
)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (4.0, 4),
        (-0.0, 0),
        (2.5, 2.5),
        (7, 7),
        (True, True),
        (None, None),
        ("text", "text"),
        (float("inf"), "inf"),
        (float("nan"), "nan"),
        ([1.0, [2.0]], [1, [2]]),
        ((1.0, "a"), [1, "a"]),
        ({"b": 1.0, "a": {"d": 2.0, "c": 3.5}}, {"a": {"c": 3.5, "d": 2}, "b": 1}),
        ({1: "x"}, {"1": "x"}),
        (rpc.wrap_rpc_secret("hunter2"), "[secret]"),
        ({"password": rpc.wrap_rpc_secret({"n": 1.0})}, {"password": "[secret]"}),
        (AN_UNKNOWN, "[unknown]"),
        (rpc.UNKNOWN, "[unknown]"),
        ([AN_UNKNOWN, 1.0], ["[unknown]", 1]),
        (object(), "[object]"),
    ],
)
def test_to_json_value_normalises_pulumi_values(value: object, expected: JsonValue) -> None:
    result = to_json_value(value)
    assert result == expected
    assert json.loads(json.dumps(result, allow_nan=False)) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (rpc.wrap_rpc_secret("hunter2"), "hunter2"),
        (rpc.wrap_rpc_secret({"n": 1.0}), {"n": 1}),
        ({"a": [rpc.wrap_rpc_secret(2.0)]}, {"a": [2]}),
    ],
)
def test_show_secrets_reveals_the_secret_values(value: object, expected: JsonValue) -> None:
    assert to_json_value(value, show_secrets=True) == expected


def test_whole_floats_become_ints_and_not_bools() -> None:
    assert type(to_json_value(1.0)) is int
    assert type(to_json_value(True)) is bool


def test_build_plan_sorts_by_urn_and_normalises_inputs_and_outputs() -> None:
    plan = build_plan(GPU_RUN)
    assert plan.resources == (
        PlannedResource("aws:sqs/queue:Queue", "jobs", STACK, QUEUE, True, {"delaySeconds": 5}),
        PlannedResource(
            "aws:eks/nodeGroup:NodeGroup",
            "gpu-ng",
            POOL,
            NODE_GROUP,
            True,
            {"amiType": "AL2_x86_64_GPU", "scalingConfig": {"desiredSize": 2}},
            dependencies=(POOL,),  # sorted, each once
            options={"deleteBeforeReplace": False, "ignoreChanges": ["scalingConfig.desiredSize"]},
        ),
        PlannedResource("gpuready:GpuPool", "gpu", CLUSTER, POOL, False, {}),
        PlannedResource("gpuready:Cluster", "main", STACK, CLUSTER, False, {}),
    )
    assert plan.outputs == {"size": 2, "token": "[secret]"}
    assert (plan.stack, plan.project, plan.violations) == ("dev", "gp", ())


def test_build_plan_does_not_depend_on_registration_order() -> None:
    shuffled = _run(*reversed(GPU_RUN.resources), outputs=dict(GPU_RUN.outputs))
    assert build_plan(shuffled) == build_plan(GPU_RUN)
    assert render_tree(build_plan(shuffled)) == render_tree(build_plan(GPU_RUN))


def test_to_json_dict_has_exactly_the_plan_file_keys() -> None:
    violation: JsonValue = {"policy": "gpu-taint", "urn": NODE_GROUP, "message": "missing taint"}
    document = build_plan(GPU_RUN, violations=[violation]).to_json_dict()
    assert list(document) == ["formatVersion", "stack", "project", "resources", "outputs", "violations"]
    resources = document["resources"]
    assert isinstance(resources, list)
    assert all(isinstance(r, dict) and list(r)[:4] == ["type", "name", "urn", "parent"] for r in resources)
    assert resources[1] == {
        "type": "aws:eks/nodeGroup:NodeGroup",
        "name": "gpu-ng",
        "urn": NODE_GROUP,
        "parent": POOL,
        "custom": True,
        "dependencies": [POOL],
        "options": {"ignoreChanges": ["scalingConfig.desiredSize"], "deleteBeforeReplace": False},
        "inputs": {"amiType": "AL2_x86_64_GPU", "scalingConfig": {"desiredSize": 2}},
    }
    assert document["violations"] == [violation]
    assert json.loads(json.dumps(document)) == document


def test_violations_default_to_an_empty_list() -> None:
    assert build_plan(GPU_RUN).to_json_dict()["violations"] == []


def test_render_tree_nests_children_under_parents_in_urn_order() -> None:
    assert render_tree(build_plan(GPU_RUN)) == (
        "pulumi:pulumi:Stack  gp-dev\n"
        "├─ aws:sqs/queue:Queue  jobs\n"
        "└─ gpuready:Cluster  main\n"
        "   └─ gpuready:GpuPool  gpu\n"
        "      └─ aws:eks/nodeGroup:NodeGroup  gpu-ng"
        "  [deleteBeforeReplace: false; ignoreChanges: scalingConfig.desiredSize; dependsOn: gpu]\n"
    )


def test_lifecycle_note_groups_dependencies_on_another_components_children() -> None:
    release = PlannedResource(
        "kubernetes:helm.sh/v3:Release", "gpu-stack-release", STACK, "urn:release", True, {},
        dependencies=(NODE_GROUP, QUEUE), options={"aliases": ["type=a", "type=b"], "protect": True},
    )  # fmt: skip
    plan = build_plan(GPU_RUN)
    by_urn = {r.urn: r for r in (*plan.resources, release)}
    assert lifecycle_note(release, by_urn) == "  [aliases: 2; protect: true; dependsOn: gpu (1), jobs]"


def test_render_tree_puts_resources_with_unknown_parents_at_the_top() -> None:
    orphan = PlannedResource("t:m:T", "orphan", "urn:pulumi:dev::gp::t:m:Gone::x", "urn:x", True, {})
    plan = Plan(stack="dev", project="gp", resources=(orphan,), outputs={})
    assert render_tree(plan) == "pulumi:pulumi:Stack  gp-dev\n└─ t:m:T  orphan\n"


def test_render_tree_of_an_empty_plan_is_the_stack_alone() -> None:
    assert render_tree(build_plan(_run())) == "pulumi:pulumi:Stack  gp-dev\n"
