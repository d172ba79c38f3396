"""``GpuFabricObjects``: the cluster objects the stack's fabric pools need (``CloudProfile.fabric_objects``).

On GKE, the ``Network`` / ``GKENetworkParamSet`` of each additional node network and Google's NCCL plugin
installers; the manifests are the pure core's, registered here on the cluster's provider: DaemonSets as typed
resources, the rest as custom resources.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pulumi
import pulumi_kubernetes as k8s

from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.specs import GpuPoolSpec

TYPE_TOKEN = "gpuready:index:GpuFabricObjects"


class GpuFabricObjects(pulumi.ComponentResource):
    """The cluster side of the stack's multi-node fabrics."""

    resources: dict[str, pulumi.CustomResource]
    """Every child, keyed by ``<kind>-<name>`` (lowercase kind)."""

    def __init__(
        self, name: str, manifests: Sequence[Mapping[str, Any]], opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__(TYPE_TOKEN, name, {}, opts)
        self.resources = {}
        for obj in manifests:
            key = f"{str(obj['kind']).lower()}-{obj['metadata']['name']}"
            self.resources[key] = _register(f"{name}-{key}", obj, pulumi.ResourceOptions(parent=self))
        self.register_outputs({})


def _register(name: str, obj: Mapping[str, Any], opts: pulumi.ResourceOptions) -> pulumi.CustomResource:
    resource: pulumi.CustomResource
    if obj["apiVersion"] == "apps/v1" and obj["kind"] == "DaemonSet":
        resource = k8s.apps.v1.DaemonSet(name, metadata=obj["metadata"], spec=obj["spec"], opts=opts)
    else:
        resource = k8s.apiextensions.CustomResource(
            name, api_version=obj["apiVersion"], kind=obj["kind"], metadata=obj["metadata"],
            spec=obj.get("spec"), opts=opts,
        )  # fmt: skip
    return resource


def fabric_manifests(pools: Sequence[GpuPoolSpec]) -> list[Mapping[str, Any]]:
    """The cluster objects the pools' fabrics need, from each pool's cloud (none without a fabric pool)."""
    found: list[Mapping[str, Any]] = []
    for cloud in sorted({spec.cloud for spec in pools if spec.fabric is not None}):
        found.extend(cloud_profile(cloud).fabric_objects([p for p in pools if p.cloud == cloud]))
    return found
