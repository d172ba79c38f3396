"""``GpuBinPackingScheduler``: a second kube-scheduler with a GPU bin-packing profile, from a validated spec.

A thin adapter: every object comes from ``gpuready.core.binpack.scheduler_objects`` as a manifest and is
registered as the matching ``pulumi_kubernetes`` resource. The Namespace is registered first and everything
else depends on it; the Deployment also waits for its ServiceAccount, RBAC bindings and ConfigMap, so its pods
never start without their permissions or configuration. The caller passes the Kubernetes provider in
``opts`` (``providers=[k8s_provider]``); the children inherit it as the component's children.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pulumi
import pulumi_kubernetes as k8s

from gpuready.core.binpack.scheduler_config import BinPackSchedulerSpec
from gpuready.core.binpack.scheduler_objects import Manifest, scheduler_objects
from gpuready.core.specs import GpuPoolSpec
from gpuready.record import record

TYPE_TOKEN = "gpuready:index:GpuBinPackingScheduler"

_CONSTRUCTORS: Mapping[str, Callable[..., pulumi.CustomResource]] = {
    "Namespace": k8s.core.v1.Namespace,
    "ServiceAccount": k8s.core.v1.ServiceAccount,
    "ConfigMap": k8s.core.v1.ConfigMap,
    "ClusterRoleBinding": k8s.rbac.v1.ClusterRoleBinding,
    "Role": k8s.rbac.v1.Role,
    "RoleBinding": k8s.rbac.v1.RoleBinding,
    "Deployment": k8s.apps.v1.Deployment,
}
"""Manifest kind -> the pulumi_kubernetes resource class that registers it."""
_ARGUMENTS = {"metadata": "metadata", "spec": "spec", "data": "data", "rules": "rules", "roleRef": "role_ref",
              "subjects": "subjects"}  # fmt: skip
"""Manifest field -> constructor keyword (``apiVersion`` and ``kind`` are implied by the class)."""


@record(frozen=True, kw_only=True)
class GpuBinPackingSchedulerArgs:
    """Inputs of ``GpuBinPackingScheduler``."""

    scheduler: BinPackSchedulerSpec
    """The validated scheduler spec (``gpuready:binpackScheduler`` in a stack, or built in a program)."""


class GpuBinPackingScheduler(pulumi.ComponentResource):
    """kube-scheduler with one ``MostAllocated`` profile; pods opt in with ``spec.schedulerName``."""

    spec: BinPackSchedulerSpec
    """The validated spec (plain value)."""
    resources: dict[str, pulumi.CustomResource]
    """Every child, keyed by the suffix of its resource name (``namespace``, ``deployment``, ...)."""
    scheduler_name: pulumi.Output[str]
    """What pods put in ``spec.schedulerName`` to be bin-packed."""
    namespace: pulumi.Output[str]
    """The scheduler's own namespace."""

    def __init__(self, name: str, args: GpuBinPackingSchedulerArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        spec = args.scheduler
        manifests = scheduler_objects(spec)
        super().__init__(TYPE_TOKEN, name, {}, opts)
        self.spec = spec
        self.resources = {}
        namespace_manifest = manifests.pop("namespace")
        deployment_manifest = manifests.pop("deployment")
        namespace = self._register(name, "namespace", namespace_manifest, pulumi.ResourceOptions(parent=self))
        after_namespace = pulumi.ResourceOptions(parent=self, depends_on=[namespace])
        for suffix, manifest in manifests.items():
            self._register(name, suffix, manifest, after_namespace)
        prerequisites = list(self.resources.values())
        self._register(
            name, "deployment", deployment_manifest, pulumi.ResourceOptions(parent=self, depends_on=prerequisites)
        )
        self.scheduler_name = pulumi.Output.from_input(spec.scheduler_name)
        self.namespace = pulumi.Output.from_input(spec.namespace)
        self.register_outputs({"scheduler_name": self.scheduler_name, "namespace": self.namespace})

    @property
    def deployment(self) -> pulumi.CustomResource:
        """The scheduler's Deployment (escape hatch)."""
        return self.resources["deployment"]

    def _register(
        self, name: str, suffix: str, manifest: Manifest, opts: pulumi.ResourceOptions
    ) -> pulumi.CustomResource:
        constructor = _CONSTRUCTORS[manifest["kind"]]
        arguments: dict[str, Any] = {_ARGUMENTS[key]: value for key, value in manifest.items() if key in _ARGUMENTS}
        resource = constructor(f"{name}-{suffix}", opts=opts, **arguments)
        self.resources[suffix] = resource
        return resource


def package_component(
    name: str,
    spec: BinPackSchedulerSpec,
    pools: Sequence[GpuPoolSpec],
    cluster: Callable[[], pulumi.ProviderResource],
    opts: pulumi.ResourceOptions,
) -> tuple[pulumi.ComponentResource, dict[str, Any]]:
    """The component from the component package's parsed inputs, and its outputs (its ``SettingEntry``'s builder:
    ``gpuready.core.binpack.scheduler_entry``). The pools are in the spec; the children inherit the provider of
    ``opts``."""
    scheduler = GpuBinPackingScheduler(name, GpuBinPackingSchedulerArgs(scheduler=spec), opts)
    return scheduler, {"schedulerName": scheduler.scheduler_name, "namespace": scheduler.namespace}


def stack_component(
    name: str, spec: BinPackSchedulerSpec, pools: Sequence[GpuPoolSpec], cluster: Callable[[], pulumi.ProviderResource]
) -> GpuBinPackingScheduler:
    """The component of a stack's ``gpuready:binpackScheduler``, on the stack's Kubernetes provider."""
    return GpuBinPackingScheduler(
        name, GpuBinPackingSchedulerArgs(scheduler=spec), pulumi.ResourceOptions(provider=cluster())
    )


def stack_exports(spec: BinPackSchedulerSpec, component: pulumi.Resource) -> dict[str, Any]:
    """What the stack exports of its scheduler (under ``binpackScheduler``)."""
    return {"schedulerName": spec.scheduler_name, "namespace": spec.namespace, "image": spec.image}
