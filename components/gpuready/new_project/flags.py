"""The wiring flags of ``gpuready new``: stack key -> flag. Standard library only (the CLI's parser loads it)."""

from __future__ import annotations

from collections.abc import Mapping

WIRING_FLAGS: Mapping[str, str] = {
    "eksNodeRoleArn": "--eks-node-role-arn",
    "eksSubnetIds": "--eks-subnet-id",
    "aksResourceGroup": "--aks-resource-group",
    "aksVnetSubnetId": "--aks-vnet-subnet-id",
    "gkeLocation": "--gke-location",
    "gkeNodeLocations": "--gke-node-location",
    "gkeServiceAccount": "--gke-service-account",
}
"""Stack key -> the ``gpuready new`` flag that sets it (list keys: the flag repeated). A test checks that every
cloud's required and optional settings have a flag."""
LIST_KEYS = frozenset({"eksSubnetIds", "gkeNodeLocations"})
"""Keys of Pulumi type ``array``: their flag is repeated."""
