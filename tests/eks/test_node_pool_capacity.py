"""``EksGpuNodePool`` of a Capacity Block or reserved pool under Pulumi's mock runtime: the launch template
gpuready makes, the node group pointing at it, and the capacity the component publishes."""

from __future__ import annotations

import pulumi
import pytest

from gpuready.core.specs import Reservation
from gpuready.eks import reservation
from gpuready.offline import invoke_results
from tests.core.conftest import build_spec
from tests.eks.test_node_pool import COMPONENT, NODE_GROUP, build
from tests.pulumi_mocks import CapturingMonitor, failing_program

LAUNCH_TEMPLATE = "aws:ec2/launchTemplate:LaunchTemplate"


def test_a_capacity_block_pool_runs_on_its_own_launch_template(mocked: CapturingMonitor) -> None:
    spec = build_spec(
        "eks", instance_type="p5.48xlarge", capacity="capacity-block", disk_size_gb=200,
        reservation=Reservation(ids=("cr-02168da1478b509e0",), zone="us-east-1a", nodes=2),
        overrides={"subnetIds": ["subnet-0a"]},
    )  # fmt: skip
    build(spec)
    template = mocked.one(LAUNCH_TEMPLATE)
    node_group = mocked.one(NODE_GROUP)
    assert template.parent == node_group.parent == mocked.one(COMPONENT).urn
    assert template.inputs["instanceType"] == "p5.48xlarge"
    assert template.inputs["instanceMarketOptions"] == {"marketType": "capacity-block"}
    assert template.inputs["capacityReservationSpecification"] == {
        "capacityReservationTarget": {"capacityReservationId": "cr-02168da1478b509e0"}
    }
    assert template.inputs["blockDeviceMappings"][0]["ebs"]["volumeSize"] == 200
    assert node_group.inputs["capacityType"] == "CAPACITY_BLOCK"
    assert node_group.inputs["subnetIds"] == ["subnet-0a"]
    assert node_group.inputs["launchTemplate"]["version"] == "1"
    assert "instanceTypes" not in node_group.inputs and "diskSize" not in node_group.inputs
    capacity = mocked.outputs_of(mocked.one(COMPONENT))["capacity"]
    assert capacity["text"] == "block cr-02168da1478b509e0 (2 nodes, us-east-1a)"


def test_an_on_demand_pool_makes_no_launch_template(mocked: CapturingMonitor) -> None:
    build(build_spec("eks", instance_type="g6.xlarge"))
    assert mocked.of_type(LAUNCH_TEMPLATE) == []
    assert "launchTemplate" not in mocked.one(NODE_GROUP).inputs


ZONES = [
    # id, zones the provider reports, problem words ("" when the subnets fit)
    ("in-the-zone", ["us-east-1a"], ""),
    ("not-reported-offline", [None], ""),
    ("elsewhere", ["us-east-1b"], "subnet(s) subnet-0a (us-east-1b) are in another zone"),
]


@pytest.mark.parametrize(("zones", "words"), [z[1:] for z in ZONES], ids=[z[0] for z in ZONES])
def test_the_subnet_zone_rule(zones: list[str | None], words: str) -> None:
    problem = reservation.subnet_zone_problem("train", ["subnet-0a"], zones, "us-east-1a")
    assert (words in problem and problem.endswith("or correct reservation.zone")) if words else problem == ""


def test_a_subnet_outside_the_blocks_zone_stops_the_program(
    mocked: CapturingMonitor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At apply time (the provider answers ``getSubnet``), before the node group is created."""
    answers = {"aws:ec2/getSubnet:getSubnet": {"id": "subnet-0a", "availabilityZone": "us-east-1b"}}
    monkeypatch.setattr(invoke_results, "fake_invoke_result", lambda token, args: answers.get(token, {}))
    spec = build_spec(
        "eks", instance_type="p5.48xlarge", capacity="capacity-block",
        reservation=Reservation(ids=("cr-0a",), zone="us-east-1a"), overrides={"subnetIds": ["subnet-0a"]},
    )  # fmt: skip
    with failing_program(), pytest.raises(pulumi.RunError, match=r"subnet-0a \(us-east-1b\) are in another zone"):
        build(spec)
    assert mocked.of_type(NODE_GROUP) == []
