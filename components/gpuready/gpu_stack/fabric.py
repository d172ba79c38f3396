"""``GpuFabricObjects``: the cluster objects the stack's fabric pools need (``CloudProfile.fabric_objects``).

On GKE, the ``Network`` / ``GKENetworkParamSet`` of each additional node network and Google's NCCL plugin
installers; on AKS, NVIDIA's Network Operator (namespace, Helm release) and its ``NicClusterPolicy``. The manifests
are the pure core's, registered here on the cluster's provider: namespaces, DaemonSets and Helm releases as typed
resources, the rest as custom resources, each after the namespace or release before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pulumi
import pulumi_kubernetes as k8s

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
        after: list[pulumi.Resource] = []
        for obj in manifests:
            key = f"{str(obj['kind']).lower()}-{obj['metadata']['name']}"
            made = _register(f"{name}-{key}", obj, pulumi.ResourceOptions(parent=self, depends_on=after))
            self.resources[key] = made
            if obj["kind"] in ("Namespace", "Release"):  # what follows lives in it, or needs its CRDs
                after = [made]
        self.register_outputs({})


def _register(name: str, obj: Mapping[str, Any], opts: pulumi.ResourceOptions) -> pulumi.CustomResource:
    resource: pulumi.CustomResource
    if obj["apiVersion"] == "helm.sh/v3" and obj["kind"] == "Release":
        spec = obj["spec"]
        resource = k8s.helm.v3.Release(
            name, name=obj["metadata"]["name"], namespace=obj["metadata"]["namespace"], chart=spec["chart"],
            version=spec["version"], repository_opts=k8s.helm.v3.RepositoryOptsArgs(repo=spec["repository"]),
            values=spec["values"], opts=opts,
        )  # fmt: skip
    elif obj["apiVersion"] == "v1" and obj["kind"] == "Namespace":
        resource = k8s.core.v1.Namespace(name, metadata=obj["metadata"], opts=opts)
    elif obj["apiVersion"] == "apps/v1" and obj["kind"] == "DaemonSet":
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
    for _, profile in sorted({spec.cloud: spec.profile for spec in pools if spec.fabric is not None}.items()):
        found.extend(profile.fabric.cluster_objects([p for p in pools if p.profile is profile]))
    return found
