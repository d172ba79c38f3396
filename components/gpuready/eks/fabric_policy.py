"""What the policy pack finds on an EKS node group of any program whose instance type has EFA. Pure.

A node group of a training-class EFA type (more than one EFA network card) that can hold several nodes, its GPUs
not shared (gpuready's ``gpuready.io/sharing`` label ``none`` or absent: MIG and time-slicing pools serve many
small jobs, not multi-node training), gets EFA
only through a launch template with EFA interfaces and a cluster placement group (terraform-aws-modules/
terraform-aws-eks ``enable_efa_support``; pulumi/pulumi-eks #1564: "add the EFA interfaces to the launch template");
without them NCCL between its nodes runs over TCP. A stack's launch templates are judged as a whole: under
``pulumi preview`` a new template's id is not known yet, so the node group's ``launchTemplate.id`` cannot be matched
to one. EFA does not work across zones (pulumi/pulumi-eks PR #1593); a node group's subnet ids do not say their
zones, so several subnets are flagged for the author to check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.fabric.model import StackItem
from gpuready.core.props import as_list, as_mapping, as_number, as_text, dig
from gpuready.core.scheduling import LABEL_SHARING
from gpuready.eks.fabric_facts import EFA_TYPES

LAUNCH_TEMPLATE = "aws:ec2/launchTemplate:LaunchTemplate"
EFA_INTERFACE_TYPES = ("efa", "efa-only")
FIX = (
    "set fabric: efa on the gpuready pool (docs/fabric.md), or give the node group a launch template with an efa "
    "interface per EFA network card (efa on card 0 device 0, efa-only on the others) and a cluster placement group"
)


def efa_templates(stack: Sequence[StackItem]) -> list[Mapping[str, Any]]:
    """The stack's launch templates with EFA interfaces."""
    found = []
    for kind, props in stack:
        interfaces = as_list(props.get("networkInterfaces")) if kind == LAUNCH_TEMPLATE else []
        if any(as_text(dig(i, "interfaceType")) in EFA_INTERFACE_TYPES for i in interfaces):
            found.append(props)
    return found


def policy_problems(
    where: str, props: Mapping[str, Any], instance_types: Sequence[str], stack: Sequence[StackItem]
) -> list[str]:
    training = [t for t in instance_types if t in EFA_TYPES and EFA_TYPES[t].devices > 1]
    most = as_number(dig(props, "scalingConfig", "maxSize"))
    shared = as_text(dig(props, "labels", LABEL_SHARING)) not in (None, "none")
    if not training or most is None or most < 2 or shared:
        return []  # no multi-node training here: one node, or GPUs shared (MIG, time-slicing) by many small jobs
    devices = EFA_TYPES[training[0]].devices
    templates = efa_templates(stack)
    if as_mapping(props.get("launchTemplate")) is None or not templates:
        return [
            f"{where}launchTemplate: {training[0]} has {devices} EFA interfaces, but this node group's nodes get none "
            f"(no launch template with EFA interfaces): NCCL between its up to {most:g} nodes runs over TCP. {FIX}"
        ]
    found = []
    if not any(as_text(dig(t, "placement", "groupName")) for t in templates):
        found.append(
            f"{where}launchTemplate: the EFA launch template names no placement group: its nodes land anywhere in "
            "the zone, with longer and uneven latency between them. Set placement.groupName to a placement group "
            "of strategy cluster"
        )
    subnets = as_list(props.get("subnetIds"))
    if len(subnets) > 1:
        found.append(
            f"{where}subnetIds: {len(subnets)} subnets for an EFA node group: EFA does not work across zones "
            "(pulumi/pulumi-eks PR #1593) and a cluster placement group is in one zone; if they lie in several "
            "zones, give the node group the subnets of one zone"
        )
    return found
