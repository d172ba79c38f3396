"""``GpuKueueObjects``: the Kueue objects that make a stack's pools usable by Kueue (issue #28), as custom resources
on the cluster's Kubernetes provider. Thin: every object is ``gpuready.core.kueue.objects``'s.

Each object is registered after the one before it (``pool_outputs.custom_resources``), so a pool's AdmissionCheck
comes after the ProvisioningRequestConfig it names. The cluster must run Kueue (v0.19: the ``v1beta2`` API).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pulumi
import pulumi_kubernetes as k8s

from gpuready.core.kueue.objects import KueueSpec, kueue_objects
from gpuready.core.specs import GpuPoolSpec
from gpuready.pool_outputs import custom_resources

TYPE_TOKEN = "gpuready:index:GpuKueueObjects"


@dataclass(frozen=True, kw_only=True)
class GpuKueueObjectsArgs:
    """Inputs of ``GpuKueueObjects``."""

    pools: Sequence[GpuPoolSpec]
    """The stack's validated pools."""
    kueue: KueueSpec
    """Which pools get objects (``gpuready:kueue``)."""
    provider: pulumi.ProviderResource
    """The Kubernetes provider of the cluster."""


class GpuKueueObjects(pulumi.ComponentResource):
    """A ResourceFlavor per chosen pool; a ProvisioningRequestConfig and an AdmissionCheck per queued pool."""

    resources: dict[str, k8s.apiextensions.CustomResource]
    """Every object, keyed ``<kind lowercase>-<pool>``."""
    flavors: list[str]
    """The ResourceFlavors' names (the pools' names), for the team's ClusterQueue."""
    admission_checks: list[str]
    """The AdmissionChecks' names (the queued pools' names)."""

    def __init__(self, name: str, args: GpuKueueObjectsArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        objects = kueue_objects(args.pools, args.kueue)
        super().__init__(TYPE_TOKEN, name, {}, opts)
        made = custom_resources(self, name, list(objects.items()), args.provider)
        self.resources = dict(zip(objects, made, strict=True))
        self.flavors = [obj["metadata"]["name"] for obj in objects.values() if obj["kind"] == "ResourceFlavor"]
        self.admission_checks = [obj["metadata"]["name"] for obj in objects.values() if obj["kind"] == "AdmissionCheck"]
        self.register_outputs({"flavors": self.flavors, "admission_checks": self.admission_checks})
