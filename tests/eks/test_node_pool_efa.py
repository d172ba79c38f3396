"""An EFA node group under Pulumi's mock runtime: the launch template gpuready owns (one EFA interface per EFA
network card, the placement group, the two security groups), the cluster placement group, the EFA security group,
and the node group on that template in the pool's zone. Every value against botocore's EC2 model and the pulumi-aws
SDK's argument types."""

from __future__ import annotations

from typing import Any

import botocore.session  # type: ignore[import-untyped]
import pulumi_aws as aws
import pytest
from pulumi.runtime import MockCallArgs

from gpuready.core import pool_config
from gpuready.core.specs import GpuPoolSpec
from gpuready.eks import karpenter, launch_template_fabric, lifecycle
from gpuready.eks.fabric_facts import EFA_TYPES
from gpuready.eks.node_pool import EksGpuNodePool, EksGpuNodePoolArgs
from gpuready.eks.offline_answers import EC2_GET_SUBNETS
from gpuready.plan_diff.registry import table_for
from tests.eks.test_fabric_facts import BUNDLED, EFA_IN_EC2
from tests.pulumi_mocks import CapturingMonitor, RecordingMocks, failing_program, install_mocks, runtime_test

LAUNCH_TEMPLATE = "aws:ec2/launchTemplate:LaunchTemplate"
PLACEMENT_GROUP = "aws:ec2/placementGroup:PlacementGroup"
SECURITY_GROUP = "aws:ec2/securityGroup:SecurityGroup"
NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
EC2 = botocore.session.get_session().get_service_model("ec2")
BOTOCORE_MEMBER = {"network_card_index": "NetworkCardIndex", "device_index": "DeviceIndex",
                   "interface_type": "InterfaceType", "delete_on_termination": "DeleteOnTermination",
                   "security_groups": "Groups"}  # fmt: skip
"""pulumi-aws's launch template interface field -> member of botocore's
``LaunchTemplateInstanceNetworkInterfaceSpecificationRequest``."""


def _spec(instance_type: str = "p5.48xlarge", **extra: Any) -> GpuPoolSpec:
    entry = {"name": "train", "instanceType": instance_type, "minSize": 0, "maxSize": 2, "fabric": "efa",
             "zones": ["us-east-1a"], **extra}  # fmt: skip
    (spec,) = pool_config.parse_pools([entry], "eks")
    return spec


def _build(spec: GpuPoolSpec) -> None:
    @runtime_test
    def program() -> None:
        EksGpuNodePool("train", EksGpuNodePoolArgs(pool=spec, cluster_name="ml", node_role_arn="arn:aws:iam::1:role/n",
                                                   subnet_ids=["subnet-a"]))  # fmt: skip

    program()


def test_efa_node_group_resources(mocked: CapturingMonitor) -> None:
    _build(_spec(diskSizeGb=200))
    template = mocked.one(LAUNCH_TEMPLATE).inputs
    interfaces = template["networkInterfaces"]
    assert len(interfaces) == 32
    groups = ["sg-0ff11ne", "train-efa_id"]  # the cluster's security group and the EFA group
    assert interfaces[0] == {"networkCardIndex": 0.0, "deviceIndex": 0.0, "interfaceType": "efa",
                             "deleteOnTermination": "true", "securityGroups": groups}  # fmt: skip
    assert {(i["networkCardIndex"], i["deviceIndex"], i["interfaceType"]) for i in interfaces[1:]} == {
        (float(card), 1.0, "efa-only") for card in range(1, 32)
    }
    assert template["placement"] == {"groupName": "train-placement-offline"}
    assert template["blockDeviceMappings"] == [{"deviceName": "/dev/xvda", "ebs": {
        "volumeSize": 200.0, "volumeType": "gp3", "encrypted": "true", "deleteOnTermination": "true"}}]  # fmt: skip
    assert "userData" not in template and "imageId" not in template  # the NVIDIA AMI and its bootstrap, unchanged
    assert mocked.one(PLACEMENT_GROUP).inputs["strategy"] == "cluster"
    group = mocked.one(SECURITY_GROUP).inputs
    assert group["vpcId"] == "vpc-0ff11ne"
    everything = {"protocol": "-1", "fromPort": 0.0, "toPort": 0.0, "self": True}
    assert group["ingress"] == [everything] and group["egress"] == [everything]
    node_group = mocked.one(NODE_GROUP).inputs
    assert node_group["launchTemplate"] == {"id": "train-launch-template_id", "version": "1"}
    assert node_group["subnetIds"] == ["subnet-a"]
    assert "diskSize" not in node_group  # EKS refuses it beside a launch template: the template sizes the disk


def test_a_named_placement_group_is_used_not_made(mocked: CapturingMonitor) -> None:
    _build(_spec(fabric={"kind": "efa", "placementGroup": "shared-pg"}))
    assert mocked.of_type(PLACEMENT_GROUP) == []
    assert mocked.one(LAUNCH_TEMPLATE).inputs["placement"] == {"groupName": "shared-pg"}


@pytest.mark.parametrize("name", EFA_IN_EC2)
def test_interfaces_of_every_efa_type_follow_ec2(name: str) -> None:
    """One interface per EFA card (plus a plain primary where card 0 takes none), each valid for botocore and for
    pulumi-aws's argument type."""
    spec = _spec(name)
    interfaces = launch_template_fabric.network_interfaces(spec, ["sg-1"])
    fabric = EFA_TYPES[name]
    efa = [i for i in interfaces if i["interface_type"] in ("efa", "efa-only")]
    assert [i["network_card_index"] for i in efa] == list(fabric.cards)
    network = BUNDLED[name]["NetworkInfo"]  # EC2's own data, as moto bundles it
    assert len(efa) == network["EfaInfo"]["MaximumEfaInterfaces"]
    cards = {card["NetworkCardIndex"]: card for card in network["NetworkCards"]}
    assert all("efa-only" in cards[i["network_card_index"]]["InterfaceTypes"] for i in efa)
    assert interfaces[0]["network_card_index"] == 0 and interfaces[0]["device_index"] == 0
    assert interfaces[0]["interface_type"] == ("efa" if 0 in fabric.cards else "interface")
    assert len({(i["network_card_index"], i["device_index"]) for i in interfaces}) == len(interfaces)
    request = EC2.shape_for("LaunchTemplateInstanceNetworkInterfaceSpecificationRequest")
    kinds = EC2.shape_for("NetworkInterfaceType").enum
    for interface in interfaces:
        assert {BOTOCORE_MEMBER[k] for k in interface} <= set(request.members)
        assert interface["interface_type"] in kinds
        aws.ec2.LaunchTemplateNetworkInterfaceArgs(**interface)  # a field the SDK lacks is a TypeError


def test_placement_and_strategy_are_ec2s() -> None:
    assert launch_template_fabric.CLUSTER_STRATEGY in EC2.shape_for("PlacementStrategy").enum
    assert "GroupName" in EC2.shape_for("LaunchTemplatePlacementRequest").members
    aws.ec2.LaunchTemplatePlacementArgs(group_name="pg")
    aws.ec2.LaunchTemplateBlockDeviceMappingArgs(**launch_template_fabric.root_volume(_spec(diskSizeGb=100))[0])


class OtherZoneMocks(RecordingMocks):
    """EC2 finds none of the pool's subnets in its zone."""

    def call(self, args: MockCallArgs) -> tuple[dict[str, Any], list[tuple[str, str]] | None]:
        if args.token == EC2_GET_SUBNETS:
            return {"id": "none", "ids": []}, []
        return super().call(args)


def test_subnets_outside_the_zone_stop_the_deployment() -> None:
    install_mocks(OtherZoneMocks())
    with failing_program(), pytest.raises(ValueError, match=r"subnets subnet-a are not in the pool's zone"):
        _build(_spec())


def test_the_lifecycle_line_and_the_placement_group_table() -> None:
    assert "EFA: gpuready's launch template" in lifecycle.summary(_spec())
    assert "deleted after the node group" in lifecycle.summary(_spec())
    spec = _spec(provisioner="karpenter", minSize=None)
    assert "placementGroupSelector (a change drifts every node" in karpenter.lifecycle_summary(spec)
    table = table_for("aws:ec2/placementGroup:PlacementGroup")
    assert (table.action("strategy"), table.action("name"), table.action("tags")) == ("replace", "replace", "update")


def test_a_capacity_block_efa_pool_has_one_launch_template_with_both(mocked: CapturingMonitor) -> None:
    """The common real case: a Capacity Block of EFA instances. ONE launch template holds the block (market type,
    reservation target, instance type) and the fabric (EFA interfaces, placement group, root volume)."""
    block = "cr-0123456789abcdef0"
    _build(_spec(capacity="capacity-block", diskSizeGb=200, overrides={"subnetIds": ["subnet-a"]},
                 reservation={"ids": [block], "zone": "us-east-1a"}))  # fmt: skip
    template = mocked.one(LAUNCH_TEMPLATE).inputs
    assert template["instanceMarketOptions"] == {"marketType": "capacity-block"}
    assert template["capacityReservationSpecification"] == {"capacityReservationTarget": {
        "capacityReservationId": block}}  # fmt: skip
    assert template["instanceType"] == "p5.48xlarge"
    assert len(template["networkInterfaces"]) == 32
    assert template["networkInterfaces"][0]["interfaceType"] == "efa"
    assert template["placement"] == {"groupName": "train-placement-offline"}
    assert template["blockDeviceMappings"] == [{"deviceName": "/dev/xvda", "ebs": {
        "volumeSize": 200.0, "volumeType": "gp3", "encrypted": "true", "deleteOnTermination": "true"}}]  # fmt: skip
    node_group = mocked.one(NODE_GROUP).inputs
    assert node_group["capacityType"] == "CAPACITY_BLOCK"
    assert node_group["launchTemplate"] == {"id": "train-launch-template_id", "version": "1"}
    assert "instanceTypes" not in node_group and "diskSize" not in node_group
    assert node_group["subnetIds"] == ["subnet-a"]
