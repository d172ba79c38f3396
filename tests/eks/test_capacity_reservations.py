"""``capacity: reserved`` and ``capacity-block`` on EKS: node groups through gpuready's launch template (checked
against botocore's eks / ec2 models and pulumi_aws's ``LaunchTemplate`` inputs), Karpenter pools through
``capacityReservationSelectorTerms`` (checked strictly against the v1.14.1 CRDs, CEL rules evaluated)."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

import botocore.session  # type: ignore[import-untyped]
import pulumi_aws as aws
import pytest

from gpuready.core.specs import Reservation, ReservationTerm
from gpuready.eks import karpenter, launch_template_capacity, plan
from tests.core.conftest import build_spec
from tests.crd_schemas import crd_problems

NODE_POOL_CRD = "karpenter-aws/karpenter.sh_nodepools.v1.14.1.yaml"
NODE_CLASS_CRD = "karpenter-aws/karpenter.k8s.aws_ec2nodeclasses.v1.14.1.yaml"
WIRING = karpenter.KarpenterWiring(cluster_name="ml", node_role="gpu-nodes", subnet_ids=("subnet-a",))
BLOCK = Reservation(ids=("cr-02168da1478b509e0",), zone="us-east-1a", nodes=2)
SUBNETS = {"subnetIds": ["subnet-0a"]}
EC2 = botocore.session.get_session().get_service_model("ec2")
EKS = botocore.session.get_session().get_service_model("eks")

NODE_GROUPS: list[tuple[str, dict[str, Any], str, bool, dict[str, Any]]] = [
    # id, spec fields, capacityType, instance types on the group, launch template arguments
    ("on-demand", {}, "ON_DEMAND", True, {}),
    (
        "capacity-block",
        {"capacity": "capacity-block", "reservation": BLOCK, "overrides": SUBNETS},
        "CAPACITY_BLOCK",
        False,
        {
            "capacity_reservation_specification": {
                "capacity_reservation_target": {"capacity_reservation_id": "cr-02168da1478b509e0"}
            },
            "instance_market_options": {"market_type": "capacity-block"},
            "instance_type": "p5.48xlarge",
        },
    ),
    (
        "odcr-targeted-with-disk",
        {"capacity": "reserved", "reservation": Reservation(ids=("cr-0abc",)), "disk_size_gb": 300},
        "ON_DEMAND",
        True,
        {
            "capacity_reservation_specification": {
                "capacity_reservation_target": {"capacity_reservation_id": "cr-0abc"}
            },
            "block_device_mappings": [
                {"device_name": "/dev/xvda", "ebs": {"volume_size": 300, "volume_type": "gp3", "encrypted": "true"}}
            ],
        },
    ),
    (
        "odcr-resource-group",
        {"capacity": "reserved",
         "reservation": Reservation(resource_group_arn="arn:aws:resource-groups:us-east-1:123456789012:group/gpu")},
        "ON_DEMAND",
        True,
        {
            "capacity_reservation_specification": {"capacity_reservation_target": {
                "capacity_reservation_resource_group_arn": "arn:aws:resource-groups:us-east-1:123456789012:group/gpu"
            }},
        },
    ),
    (
        "odcr-open",
        {"capacity": "reserved", "reservation": Reservation(instance_match_criteria="open")},
        "ON_DEMAND",
        True,
        {"capacity_reservation_specification": {"capacity_reservation_preference": "open"}},
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("fields", "capacity_type", "types_on_group", "template"),
    [case[1:] for case in NODE_GROUPS],
    ids=[case[0] for case in NODE_GROUPS],
)
def test_node_group_and_its_launch_template(
    fields: dict[str, Any], capacity_type: str, types_on_group: bool, template: dict[str, Any]
) -> None:
    spec = build_spec("eks", instance_type="p5.48xlarge", **fields)
    args = plan.node_group_args(spec)
    assert args["capacity_type"] == capacity_type
    assert capacity_type in EKS.shape_for("CapacityTypes").enum
    assert ("instance_types" in args) is types_on_group
    assert "disk_size" not in args or not template  # a launch template sizes the disk instead
    assert launch_template_capacity.template_args(spec) == template


def _pascal(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _botocore_problems(value: Any, shape: Any, path: str) -> list[str]:
    """``value`` (pulumi_aws Python names) against the botocore ec2 shape ``shape``: members and enums."""
    if shape.type_name == "structure":
        found = []
        for key, item in value.items():
            member = shape.members.get(_pascal(key))
            if member is None:
                found.append(f"{path}.{key}: not a member of {shape.name}")
            else:
                found.extend(_botocore_problems(item, member, f"{path}.{key}"))
        return found
    if shape.type_name == "list":
        return [p for i, item in enumerate(value) for p in _botocore_problems(item, shape.member, f"{path}[{i}]")]
    if getattr(shape, "enum", None) and value not in shape.enum:
        return [f"{path}: {value!r} not in {shape.enum}"]
    return []


def _sdk_problems(value: Any, cls: type, path: str) -> list[str]:
    """``value`` against the pulumi_aws ``...Args`` class ``cls``: every key one of its inputs."""
    params = inspect.signature(cls).parameters
    found = []
    for key, item in value.items():
        if key not in params:
            found.append(f"{path}.{key}: not an input of {cls.__name__}")
            continue
        nested = getattr(aws.ec2, f"{cls.__name__.removesuffix('Args')}{_pascal(key)}Args", None)
        items = item if isinstance(item, list) else [item]
        for index, entry in enumerate(items):
            if isinstance(entry, Mapping) and nested is not None:
                found.extend(_sdk_problems(entry, nested, f"{path}.{key}[{index}]"))
    return found


@pytest.mark.parametrize("case", [c for c in NODE_GROUPS if c[4]], ids=[c[0] for c in NODE_GROUPS if c[4]])
def test_every_launch_template_value_is_botocores_and_the_sdks(case: tuple[Any, ...]) -> None:
    spec = build_spec("eks", instance_type="p5.48xlarge", **case[1])
    args = launch_template_capacity.template_args(spec)
    data = EC2.shape_for("RequestLaunchTemplateData")
    assert _botocore_problems(args, data, "LaunchTemplateData") == []
    assert data.members["InstanceMarketOptions"].name == "LaunchTemplateInstanceMarketOptionsRequest"
    assert data.members["CapacityReservationSpecification"].name == (
        "LaunchTemplateCapacityReservationSpecificationRequest"
    )
    assert _sdk_problems(args, aws.ec2.LaunchTemplateArgs, "LaunchTemplate") == []


KARPENTER: list[tuple[str, Reservation, str, dict[str, list[str]], list[dict[str, Any]]]] = [
    # id, reservation, capacity, extra requirement key -> values, capacityReservationSelectorTerms
    (
        "block",
        BLOCK,
        "capacity-block",
        {
            "karpenter.sh/capacity-type": ["reserved"],
            "karpenter.k8s.aws/capacity-reservation-type": ["capacity-block"],
            "topology.kubernetes.io/zone": ["us-east-1a"],
        },
        [{"id": "cr-02168da1478b509e0"}],
    ),
    (
        "odcr-tags-fallback-spot",
        Reservation(
            selector_terms=(ReservationTerm(tags={"team": "ml"}, owner_id="123456789012"),
                            ReservationTerm(instance_match_criteria="open")),
            fallback="spot",
        ),
        "reserved",
        {"karpenter.sh/capacity-type": ["reserved", "spot"]},
        [{"tags": {"team": "ml"}, "ownerID": "123456789012"}, {"instanceMatchCriteria": "open"}],
    ),
    (
        "odcr-ids-no-fallback",
        Reservation(ids=("cr-0a", "cr-0b"), nodes=4),
        "reserved",
        {"karpenter.sh/capacity-type": ["reserved"]},
        [{"id": "cr-0a"}, {"id": "cr-0b"}],
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("reservation", "capacity", "wanted", "terms"), [c[1:] for c in KARPENTER], ids=[c[0] for c in KARPENTER]
)
def test_karpenter_reserved_pools_pass_the_crds(
    reservation: Reservation, capacity: str, wanted: dict[str, list[str]], terms: list[dict[str, Any]]
) -> None:
    spec = build_spec(
        "eks", provisioner="karpenter", instance_type="p5.48xlarge", capacity=capacity, reservation=reservation,
        max_size=2,
    )  # fmt: skip
    node_pool = karpenter.node_pool(spec)
    node_class = karpenter.node_class(spec, WIRING)
    requirements = {r["key"]: r["values"] for r in node_pool["spec"]["template"]["spec"]["requirements"]}
    assert {key: requirements.get(key) for key in wanted} == wanted
    assert node_class["spec"]["capacityReservationSelectorTerms"] == terms
    assert crd_problems(NODE_POOL_CRD, node_pool) == []
    assert crd_problems(NODE_CLASS_CRD, node_class) == []


def test_the_crd_refuses_what_gpuready_refuses_first() -> None:
    """The CEL rule gpuready's own check mirrors (``reservation._term_problems``): ``id`` stands alone."""
    spec = build_spec("eks", provisioner="karpenter", instance_type="p5.48xlarge", capacity="reserved",
                      reservation=Reservation(ids=("cr-0a",)), max_size=2)  # fmt: skip
    node_class = karpenter.node_class(spec, WIRING)
    node_class["spec"]["capacityReservationSelectorTerms"] = [{"id": "cr-0a", "tags": {"team": "ml"}}]
    assert any("mutually exclusive" in p for p in crd_problems(NODE_CLASS_CRD, node_class))
