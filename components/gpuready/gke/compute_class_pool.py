"""``GkeComputeClassGpuPool``: a GPU pool made by a GKE custom compute class (``provisioner: compute-class``): the
ComputeClass that ``gpuready.gke.compute_class`` builds, as a ``pulumi_kubernetes`` custom resource on the
cluster's Kubernetes provider. Thin: every field is the pure builder's.

GKE creates node pools for pending pods that select the class (node selector ``cloud.google.com/compute-class:
<pool name>``, the label GKE puts on the nodes it creates for a class); the cluster's node auto-provisioning resource
limits also bound those pools (GKE docs, "Configure node pool auto-creation", Limitations:
https://cloud.google.com/kubernetes-engine/docs/how-to/node-auto-provisioning).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pulumi
import pulumi_kubernetes as k8s

from gpuready.core.clouds.registry import Cloud
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import StackSettings
from gpuready.gke import compute_class
from gpuready.gke.settings_keys import GkeSettingsValues
from gpuready.pool_outputs import GpuNodePoolBase, custom_resources, require_provisioner
from gpuready.record import record


@record(frozen=True, kw_only=True)
class GkeComputeClassGpuPoolArgs:
    """Inputs of ``GkeComputeClassGpuPool``: the pool decisions and the cluster's Kubernetes provider."""

    pool: GpuPoolSpec
    """The validated pool spec (``cloud="gke"``, ``provisioner="compute-class"``)."""
    provider: pulumi.ProviderResource
    """The Kubernetes provider of the cluster."""
    service_account: str | None = None
    """Service account of the auto-created node pools; None: GKE's default."""
    node_locations: Sequence[str] = ()
    """Zones of the nodes unless the pool names its own; empty: any zone of the cluster."""


class GkeComputeClassGpuPool(GpuNodePoolBase):
    """A ComputeClass of GPU machines with node-pool auto-creation: nodes appear when GPU pods select it."""

    compute_class: k8s.apiextensions.CustomResource
    """The ``cloud.google.com/v1`` ComputeClass (escape hatch)."""

    def __init__(self, name: str, args: GkeComputeClassGpuPoolArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        spec = args.pool
        require_provisioner("GkeComputeClassGpuPool", spec, compute_class.PROVISIONER)
        obj = compute_class.compute_class(spec, args.service_account, args.node_locations)
        super().__init__("gpuready:index:GkeComputeClassGpuPool", name, {}, opts)
        (self.compute_class,) = custom_resources(self, name, [("compute-class", obj)], args.provider)
        pulumi.log.warn(compute_class.zone_warning(spec, args.node_locations), resource=self)
        self._publish(
            spec,
            pulumi.Output.from_input(spec.name),
            compute_class.driver_summary(spec),
            compute_class.lifecycle_summary(spec),
        )


PACKAGE_CLOUD: Cloud = "gke"
"""The cloud of this module's package component (``gpuready.package.provider``)."""


def package_pool(
    name: str, spec: GpuPoolSpec, wiring: Mapping[str, Any], provider: pulumi.ProviderResource,
    opts: pulumi.ResourceOptions,
) -> GkeComputeClassGpuPool:  # fmt: skip
    """The component built by the package provider from its schema inputs (camelCase wiring, known values)."""
    return GkeComputeClassGpuPool(name, GkeComputeClassGpuPoolArgs(
        pool=spec, provider=provider, service_account=wiring.get("serviceAccount") or None,
        node_locations=wiring.get("nodeLocations") or (),
    ), opts)  # fmt: skip


def build_pool(spec: GpuPoolSpec, settings: StackSettings, provider: pulumi.ProviderResource) -> GkeComputeClassGpuPool:
    """The compute-class component of ``spec`` on the stack's cluster ``provider``, wired from the ``gke*``
    settings."""
    wiring = GkeSettingsValues.of(settings)
    return GkeComputeClassGpuPool(spec.name, GkeComputeClassGpuPoolArgs(
        pool=spec, provider=provider, service_account=wiring.gke_service_account or None,
        node_locations=tuple(wiring.gke_node_locations),
    ))  # fmt: skip
