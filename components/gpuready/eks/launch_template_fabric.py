"""The EFA parts of the launch template gpuready owns for an EFA node group, and of a Karpenter EC2NodeClass. Pure.

Network interfaces, one EFA interface per network card that takes one (``fabric_facts.EFA_TYPES``, from EC2
``NetworkInfo``): the primary interface (network card 0, device 0) is ``efa`` (EFA with ENA) where that card takes
EFA, else a plain ``interface``; every other EFA card gets an ``efa-only`` interface at device 1, the way
terraform-aws-modules/terraform-aws-eks ``enable_efa_support`` enumerates the cards
(``modules/eks-managed-node-group/main.tf`` @bef29c4 L40-86: device 0 on card 0, 1 on the others) and Karpenter
generates its own EFA interfaces (aws/karpenter-provider-aws v1.14.1 ``pkg/providers/launchtemplate/
launchtemplate.go`` L299-346 ``generateNetworkInterfaces``). ``efa-only`` interfaces carry no IP address (botocore ec2
``LaunchTemplateInstanceNetworkInterfaceSpecificationRequest.InterfaceType``), so a p5.48xlarge takes one IP, not
32. A launch template that lists interfaces must give their security groups itself: the cluster's and the EFA
group (``efa_security_group``). Field names are botocore's members (``NetworkCardIndex``, ``DeviceIndex``,
``InterfaceType``, ``Groups``) in pulumi-aws's spelling; ``tests/eks/test_launch_template_fabric.py`` checks both.

Placement: a ``cluster`` placement group (botocore ec2 ``PlacementStrategy``), "a logical grouping of instances
within a single Availability Zone" with the lowest latency between them (AWS EC2 User Guide, "Placement
strategies"); the template's ``placement.groupName`` names it.

Security group: EFA "requires a security group that allows all inbound and outbound traffic to and from the
security group itself" (AWS EC2 User Guide, "Get started with EFA and NCCL", step 1).

Karpenter's EC2NodeClass (v1.14.1, ``../shared/reference/upstream/karpenter-aws``): ``networkInterfaces`` take only
``interface`` and ``efa-only``, must include ``interface`` at card 0 device 0, and at most one ``efa-only`` per card
(its CEL rules); so card 0 gets ``interface`` at device 0 and ``efa-only`` at device 1 there. Karpenter then counts
an instance type's ``vpc.amazonaws.com/efa`` as the node class's ``efa-only`` interfaces (v1.14.1
``pkg/providers/instancetype/types.go`` L472-483), which is the type's EFA cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gpuready.core.capacity import gpu_choice
from gpuready.eks.ec2_node_class import DATA_DEVICES
from gpuready.eks.fabric_facts import EFA_TYPES

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

EFA = "efa"
EFA_ONLY = "efa-only"
INTERFACE = "interface"
CLUSTER_STRATEGY = "cluster"
ALL_PROTOCOLS = "-1"


def _cards(spec: GpuPoolSpec) -> tuple[tuple[int, ...], int]:
    fabric = EFA_TYPES[gpu_choice.instance_types(spec)[0]]
    return fabric.cards, fabric.primary_card


def network_interfaces(spec: GpuPoolSpec, security_groups: list[Any]) -> list[dict[str, Any]]:
    """``networkInterfaces`` of the node group's launch template (pulumi-aws ``LaunchTemplateNetworkInterfaceArgs``
    fields), every one in ``security_groups``."""
    cards, primary = _cards(spec)
    found: list[dict[str, Any]] = []
    if primary not in cards:
        found.append(_interface(primary, 0, INTERFACE, security_groups))
    for card in cards:
        found.append(_interface(card, 0, EFA, security_groups) if card == primary
                     else _interface(card, 1, EFA_ONLY, security_groups))  # fmt: skip
    return found


def _interface(card: int, device: int, kind: str, security_groups: list[Any]) -> dict[str, Any]:
    return {"network_card_index": card, "device_index": device, "interface_type": kind,
            "delete_on_termination": "true", "security_groups": security_groups}  # fmt: skip


def node_class_interfaces(spec: GpuPoolSpec) -> list[dict[str, Any]]:
    """EC2NodeClass ``networkInterfaces``: the primary ``interface``, then an ``efa-only`` per EFA card."""
    cards, primary = _cards(spec)
    found = [{"networkCardIndex": primary, "deviceIndex": 0, "interfaceType": INTERFACE}]
    found += [{"networkCardIndex": card, "deviceIndex": 1, "interfaceType": EFA_ONLY} for card in cards]
    return found


def root_volume(spec: GpuPoolSpec) -> list[dict[str, Any]]:
    """The template's block device mappings: ``diskSizeGb`` on the device the image keeps the kubelet's and
    containerd's data (EKS refuses a node group's ``diskSize`` beside a launch template); none when not given, so
    the NVIDIA AMI's own root volume stays as it is."""
    if spec.disk_size_gb is None:
        return []
    device = DATA_DEVICES[spec.image_family]
    return [{"device_name": device, "ebs": {"volume_size": spec.disk_size_gb, "volume_type": "gp3",
                                            "encrypted": "true", "delete_on_termination": "true"}}]  # fmt: skip


def launch_template_args(spec: GpuPoolSpec, security_groups: list[Any], placement_group: Any) -> dict[str, Any]:
    """Keyword arguments of the pool's ``aws.ec2.LaunchTemplate``: EFA interfaces, the placement group, the root
    volume. No image and no user data: EKS then starts the NVIDIA AMI of the node group's ``amiType`` with its own
    bootstrap, unchanged (Amazon EKS User Guide, "Customize managed nodes with launch templates")."""
    args: dict[str, Any] = {
        "network_interfaces": network_interfaces(spec, security_groups),
        "placement": {"group_name": placement_group},
    }
    volumes = root_volume(spec)
    if volumes:
        args["block_device_mappings"] = volumes
    return args


def efa_security_group_rules() -> dict[str, list[dict[str, Any]]]:
    """Ingress and egress of the EFA security group: all traffic from and to itself."""
    rule = {"protocol": ALL_PROTOCOLS, "from_port": 0, "to_port": 0, "self": True}
    return {"ingress": [dict(rule)], "egress": [dict(rule)]}
