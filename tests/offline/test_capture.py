"""Capture pieces that need no program run: engine URNs and the echoing mocks.

The monitor itself is exercised through real program runs in test_runner.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from pulumi.runtime import MockCallArgs, MockResourceArgs

from gpuready.offline.capture import PlanMocks, engine_urn, stack_urn

STACK = "urn:pulumi:dev::gp::pulumi:pulumi:Stack::gp-dev"
POOL = "urn:pulumi:dev::gp::gpuready:Cluster$gpuready:GpuPool::pool"


@pytest.mark.parametrize(
    ("parent", "type_", "expected"),
    [
        ("", "pulumi:pulumi:Stack", "urn:pulumi:dev::gp::pulumi:pulumi:Stack::x"),
        (STACK, "gpuready:Cluster", "urn:pulumi:dev::gp::gpuready:Cluster::x"),
        (
            "urn:pulumi:dev::gp::gpuready:Cluster::c",
            "gpuready:GpuPool",
            "urn:pulumi:dev::gp::gpuready:Cluster$gpuready:GpuPool::x",
        ),
        (
            POOL,
            "aws:eks/nodeGroup:NodeGroup",
            "urn:pulumi:dev::gp::gpuready:Cluster$gpuready:GpuPool$aws:eks/nodeGroup:NodeGroup::x",
        ),
        (POOL, "pulumi:providers:aws", "urn:pulumi:dev::gp::gpuready:Cluster$gpuready:GpuPool$pulumi:providers:aws::x"),
    ],
)
def test_engine_urn_keeps_the_whole_parent_chain_without_the_stack(parent: str, type_: str, expected: str) -> None:
    assert engine_urn("dev", "gp", parent, type_, "x") == expected


def test_engine_urn_keeps_names_with_double_colons_whole() -> None:
    parent = "urn:pulumi:dev::gp::gpuready:Cluster::a::b"
    assert engine_urn("dev", "gp", parent, "t:m:T", "c") == "urn:pulumi:dev::gp::gpuready:Cluster$t:m:T::c"


def test_stack_urn_names_the_stack_project_dash_stack() -> None:
    assert stack_urn("dev", "gp") == STACK


def test_plan_mocks_echo_inputs_and_derive_the_id_from_the_name() -> None:
    inputs = {"delaySeconds": 5}
    args = MockResourceArgs(typ="aws:sqs/queue:Queue", name="jobs", inputs=inputs)
    assert PlanMocks().new_resource(args) == ("jobs_id", inputs)


@pytest.mark.parametrize(
    ("type_token", "inputs", "computed"),
    [
        ("aws:eks/nodeGroup:NodeGroup", {"nodeGroupName": "l4-abc123"},
         {"resources": [{"autoscalingGroups": [{"name": "eks-l4-abc123-offline"}]}]}),
        ("azure-native:containerservice:AgentPool", {"agentPoolName": "t4"}, {"name": "t4"}),
    ],
)  # fmt: skip
def test_plan_mocks_add_the_outputs_a_provider_computes(
    type_token: str, inputs: dict[str, Any], computed: dict[str, Any]
) -> None:
    args = MockResourceArgs(typ=type_token, name="pool", inputs=inputs)
    assert PlanMocks().new_resource(args) == ("pool_id", {**inputs, **computed})


def test_plan_mocks_answer_every_call_with_nothing() -> None:
    args = MockCallArgs(token="aws:index/getRegion:getRegion", args={}, provider="")
    assert PlanMocks().call(args) == ({}, [])
