"""Outputs a provider computes on create, faked for the mock runtime so programs that read them run offline. Pure.

The mocks echo inputs as outputs; these are the outputs gpuready's components read that no input holds:
an AKS agent pool's ``name`` (azure-native names it by ``agentPoolName``) and an EKS node group's ``resources``
(``resources[0].autoscalingGroups[0].name``, pulumi-aws 7.51.1 ``eks/outputs.py`` ``NodeGroupResource``), and an EC2
launch template's ``latestVersion`` (its first version is 1; a node group names it). Values
are clearly fake: EKS names real groups ``eks-<node group>-<uuid>``; the offline one ends in ``-offline``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def computed_outputs(type_token: str, name: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Extra outputs for a resource of ``type_token`` registered as ``name`` with ``inputs`` (wire names)."""
    if type_token == "azure-native:containerservice:AgentPool" and "name" not in inputs:
        return {"name": inputs.get("agentPoolName", name)}
    if type_token == "aws:eks/nodeGroup:NodeGroup" and "resources" not in inputs:
        group = inputs.get("nodeGroupName") or name
        return {"resources": [{"autoscalingGroups": [{"name": f"eks-{group}-offline"}]}]}
    if type_token == "aws:ec2/launchTemplate:LaunchTemplate" and "latestVersion" not in inputs:
        return {"latestVersion": 1}
    return {}
