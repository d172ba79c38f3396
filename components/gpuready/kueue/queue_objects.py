"""``GpuKueueObjects``: the Kueue objects that make a stack's pools usable by Kueue (issue #28), as custom resources
on the cluster's Kubernetes provider. Thin: every object is ``gpuready.core.kueue``'s.

Each object is registered after the one before it (``pool_outputs.custom_resources``), so a pool's AdmissionCheck
comes after the ProvisioningRequestConfig it names, the ClusterQueue after its flavors and checks, and the
LocalQueues after the ClusterQueue. The cluster must run Kueue (v0.19: the ``v1beta2`` API).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pulumi
import pulumi_kubernetes as k8s

from gpuready.core.kueue.objects import flavored, kueue_objects, unqueued_warnings
from gpuready.core.kueue.queues import queue_warnings
from gpuready.core.kueue.spec import KueueSpec
from gpuready.core.specs import GpuPoolSpec
from gpuready.pool_outputs import custom_resources
from gpuready.record import record

TYPE_TOKEN = "gpuready:index:GpuKueueObjects"


@record(frozen=True, kw_only=True)
class GpuKueueObjectsArgs:
    """Inputs of ``GpuKueueObjects``."""

    pools: Sequence[GpuPoolSpec]
    """The stack's validated pools."""
    kueue: KueueSpec
    """Which pools get objects, and the queues over them (``gpuready:kueue``, validated with the pools)."""
    provider: pulumi.ProviderResource
    """The Kubernetes provider of the cluster."""


class GpuKueueObjects(pulumi.ComponentResource):
    """A ResourceFlavor per chosen pool; a ProvisioningRequestConfig and an AdmissionCheck per queued pool; on request
    a ClusterQueue over the flavors and LocalQueues onto it."""

    resources: dict[str, k8s.apiextensions.CustomResource]
    """Every object, keyed ``<kind lowercase>-<name>``."""
    flavors: list[str]
    """The ResourceFlavors' names (the pools' names)."""
    admission_checks: list[str]
    """The AdmissionCheck's names (the queued pools' names)."""
    cluster_queue: str | None
    """The ClusterQueue's name, None when the stack asks for none."""
    local_queues: list[str]
    """The LocalQueues, as ``<namespace>/<name>``."""

    def __init__(self, name: str, args: GpuKueueObjectsArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        objects = kueue_objects(args.pools, args.kueue)
        super().__init__(TYPE_TOKEN, name, {}, opts)
        made = custom_resources(self, name, list(objects.items()), args.provider)
        self.resources = dict(zip(objects, made, strict=True))
        kinds = [(obj["kind"], obj["metadata"]) for obj in objects.values()]
        self.flavors = [meta["name"] for kind, meta in kinds if kind == "ResourceFlavor"]
        self.admission_checks = [meta["name"] for kind, meta in kinds if kind == "AdmissionCheck"]
        self.cluster_queue = next((meta["name"] for kind, meta in kinds if kind == "ClusterQueue"), None)
        self.local_queues = [f"{meta['namespace']}/{meta['name']}" for kind, meta in kinds if kind == "LocalQueue"]
        for warning in queue_warnings(args.kueue, flavored(args.pools, args.kueue)):
            pulumi.log.warn(warning, resource=self)
        self.register_outputs(self.outputs())

    def outputs(self) -> dict[str, object]:
        """The names the stack exports (``kueue``) and the component package returns."""
        return {
            "flavors": self.flavors,
            "admissionChecks": self.admission_checks,
            **({"clusterQueue": self.cluster_queue} if self.cluster_queue else {}),
            **({"localQueues": self.local_queues} if self.local_queues else {}),
        }


def package_component(
    name: str,
    spec: KueueSpec,
    pools: Sequence[GpuPoolSpec],
    cluster: Callable[[], pulumi.ProviderResource],
    opts: pulumi.ResourceOptions,
) -> tuple[pulumi.ComponentResource, dict[str, Any]]:
    """The component from the component package's parsed inputs (the Kubernetes provider of the resource options),
    and its outputs (its ``SettingEntry``'s builder: ``gpuready.core.kueue.entry``)."""
    objects = GpuKueueObjects(name, GpuKueueObjectsArgs(pools=pools, kueue=spec, provider=cluster()), opts)
    outputs = {**objects.outputs(), "clusterQueue": objects.cluster_queue or "", "localQueues": objects.local_queues}
    return objects, outputs


def stack_component(
    name: str, spec: KueueSpec, pools: Sequence[GpuPoolSpec], cluster: Callable[[], pulumi.ProviderResource]
) -> GpuKueueObjects | None:
    """The Kueue objects of a stack's pools (``gpuready:kueue``), None when no pool gets one (then no provider is
    made); the plan warns of queued pools left without objects."""
    for warning in unqueued_warnings(pools, spec):
        pulumi.log.warn(warning)
    if not flavored(pools, spec):
        return None
    return GpuKueueObjects(name, GpuKueueObjectsArgs(pools=pools, kueue=spec, provider=cluster()))


def stack_exports(spec: KueueSpec, component: pulumi.Resource) -> dict[str, Any]:
    """What the stack exports of its Kueue objects (under ``kueue``)."""
    assert isinstance(component, GpuKueueObjects)  # this module's stack_component made it
    return component.outputs()
