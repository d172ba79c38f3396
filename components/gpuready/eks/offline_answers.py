"""What the AWS provider would answer for an EKS stack, faked for offline plans (``CloudProfile.offline_answers``).
Pure.

Computed outputs gpuready's components read that no input holds: a node group's ``resources``
(``resources[0].autoscalingGroups[0].name``, pulumi-aws 7.51.1 ``eks/outputs.py`` ``NodeGroupResource``), and for
an EFA node group its placement group's ``name`` and its launch template's ``latestVersion``; the values are
clearly fake (EKS names real groups ``eks-<node group>-<uuid>``; the offline one ends in ``-offline``). Invokes
(pulumi-aws 7.51.1 ``eks/get_cluster.py``, ``eks/get_cluster_auth.py``, ``ec2/get_subnets.py``): the cluster and
its token, its VPC and security group (``vpcConfig``) and its subnets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.clouds.offline_answers import OfflineAnswers, Placeholders

EKS_GET_CLUSTER = "aws:eks/getCluster:getCluster"
EKS_GET_CLUSTER_AUTH = "aws:eks/getClusterAuth:getClusterAuth"
EC2_GET_SUBNETS = "aws:ec2/getSubnets:getSubnets"


def _node_group(name: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    if "resources" in inputs:
        return {}
    group = inputs.get("nodeGroupName") or name
    return {"resources": [{"autoscalingGroups": [{"name": f"eks-{group}-offline"}]}]}


def _placement_group(name: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    return {} if "name" in inputs else {"name": f"{name}-offline"}  # Pulumi auto-names it <name>-<random> at create


def _launch_template(name: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    return {} if "latestVersion" in inputs else {"latestVersion": 1}  # EC2 numbers a new template's first version 1


def _name(args: Mapping[str, Any], fake: Placeholders) -> str:
    value = args.get("name")
    return value if isinstance(value, str) and value else fake.cluster


def _cluster(args: Mapping[str, Any], fake: Placeholders) -> dict[str, Any]:
    name = _name(args, fake)
    return {
        "id": name,
        "name": name,
        "endpoint": fake.endpoint,
        "certificateAuthorities": [{"data": fake.ca_b64}],
        "status": "ACTIVE",
        "vpcConfig": {"clusterSecurityGroupId": fake.security_group, "vpcId": fake.vpc},
    }


def _cluster_auth(args: Mapping[str, Any], fake: Placeholders) -> dict[str, Any]:
    name = _name(args, fake)
    return {"id": name, "name": name, "token": fake.token}


def _subnets(args: Mapping[str, Any], fake: Placeholders) -> dict[str, Any]:
    """Every subnet the ``subnet-id`` filter names, as if it met the other filters (its zone: offline, the plan
    cannot know a subnet's zone; the deployment asks EC2)."""
    filters = args.get("filters") or []
    named = next((f.get("values") for f in filters if isinstance(f, Mapping) and f.get("name") == "subnet-id"), None)
    ids = [str(v) for v in named or []]
    return {"id": "offline-subnets", "ids": ids, "filters": filters}


ANSWERS = OfflineAnswers(
    outputs={
        "aws:eks/nodeGroup:NodeGroup": _node_group,
        "aws:ec2/placementGroup:PlacementGroup": _placement_group,
        "aws:ec2/launchTemplate:LaunchTemplate": _launch_template,
    },
    invokes={EKS_GET_CLUSTER: _cluster, EKS_GET_CLUSTER_AUTH: _cluster_auth, EC2_GET_SUBNETS: _subnets},
)
