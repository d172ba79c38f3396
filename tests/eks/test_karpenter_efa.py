"""An EFA pool on Karpenter: the EC2NodeClass's network interfaces (the primary ``interface``, an ``efa-only`` per
EFA card) and placement group selector, and the NodePool's one zone, strictly valid for the pinned CRDs
(aws/karpenter-provider-aws v1.14.1) with their CEL rules, for every EFA type; and the placement group made."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core import pool_config
from gpuready.core.specs import GpuPoolSpec
from gpuready.eks import karpenter
from gpuready.eks.fabric_facts import EFA_TYPES
from tests.crd_schemas import crd_problems
from tests.eks.test_karpenter import NODE_CLASS_CRD, NODE_POOL_CRD, WIRING
from tests.eks.test_karpenter_pool import COMPONENT, NODE_CLASS, build
from tests.pulumi_mocks import CapturingMonitor

PLACEMENT_GROUP = "aws:ec2/placementGroup:PlacementGroup"


def _spec(instance_type: str = "p5.48xlarge", **extra: Any) -> GpuPoolSpec:
    entry = {"name": "train", "instanceType": instance_type, "maxSize": 2, "provisioner": "karpenter",
             "fabric": "efa", "zones": ["us-east-1a"], **extra}  # fmt: skip
    (spec,) = pool_config.parse_pools([entry], "eks")
    return spec


@pytest.mark.parametrize("name", sorted(EFA_TYPES))
def test_node_class_interfaces_of_every_efa_type_pass_the_crd_and_its_cel_rules(name: str) -> None:
    node_class = karpenter.node_class(_spec(name), WIRING, "train-pg")
    interfaces = node_class["spec"]["networkInterfaces"]
    fabric = EFA_TYPES[name]
    assert interfaces[0] == {"networkCardIndex": 0, "deviceIndex": 0, "interfaceType": "interface"}
    assert [i["networkCardIndex"] for i in interfaces[1:]] == list(fabric.cards)
    assert {i["interfaceType"] for i in interfaces[1:]} == {"efa-only"}
    assert node_class["spec"]["placementGroupSelector"] == {"name": "train-pg"}
    assert crd_problems(NODE_CLASS_CRD, node_class) == []


def test_the_cel_rules_would_refuse_a_second_efa_only_on_a_card() -> None:
    node_class = karpenter.node_class(_spec(), WIRING, "train-pg")
    node_class["spec"]["networkInterfaces"].append(
        {"networkCardIndex": 1, "deviceIndex": 2, "interfaceType": "efa-only"}
    )
    assert any("at most one efa device per network card" in p for p in crd_problems(NODE_CLASS_CRD, node_class))


def test_node_pool_requires_the_one_zone() -> None:
    pool = karpenter.node_pool(_spec())
    requirements = pool["spec"]["template"]["spec"]["requirements"]
    assert {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["us-east-1a"]} in requirements
    assert crd_problems(NODE_POOL_CRD, pool) == []


def test_a_pool_without_fabric_has_no_interfaces() -> None:
    spec = pool_config.parse_pools([{"name": "l4", "instanceType": "g6.xlarge", "maxSize": 2,
                                     "provisioner": "karpenter"}], "eks")[0]  # fmt: skip
    body = karpenter.node_class(spec, WIRING)["spec"]
    assert "networkInterfaces" not in body and "placementGroupSelector" not in body


@pytest.mark.parametrize(("fabric", "made", "selected"), [
    ("efa", True, "inference-placement-offline"),
    ({"kind": "efa", "placementGroup": "shared-pg"}, False, "shared-pg"),
])  # fmt: skip
def test_the_pool_makes_or_selects_its_placement_group(
    mocked: CapturingMonitor, fabric: object, made: bool, selected: str
) -> None:
    build(_spec(fabric=fabric))
    groups = mocked.of_type(PLACEMENT_GROUP)
    assert len(groups) == int(made)
    if made:
        assert groups[0].inputs["strategy"] == "cluster"
        assert groups[0].parent == mocked.one(COMPONENT).urn
    node_class = mocked.one(NODE_CLASS).inputs
    assert node_class["spec"]["placementGroupSelector"] == {"name": selected}
    assert len(node_class["spec"]["networkInterfaces"]) == 33
