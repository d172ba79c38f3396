"""``GkeGpuNodePool``: a GKE node pool for GPUs, from a validated pool spec."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field

import pulumi
import pulumi_gcp as gcp

from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import SpecError
from gpuready.gke import capacity, lifecycle, plan, reservation_zone
from gpuready.gke import zones as gke_zones
from gpuready.pool_outputs import GpuNodePoolBase, require_default_provisioner
from gpuready.record import record


@record(frozen=True, kw_only=True)
class GkeGpuNodePoolArgs:
    """Inputs of ``GkeGpuNodePool``: the pool decisions plus the cluster wiring."""

    pool: GpuPoolSpec
    """The validated pool spec (``cloud="gke"``)."""
    cluster_name: pulumi.Input[str]
    location: pulumi.Input[str]
    """Region or zone of the existing cluster."""
    node_locations: Sequence[str] | None = None
    """Zones for the pool's nodes; required unless ``location`` is a zone (GKE counts nodes per zone)."""
    service_account: pulumi.Input[str] | None = None
    resource_labels: Mapping[str, str] = field(default_factory=dict)
    """GCE labels on the node VMs (the counterpart of tags)."""


class GkeGpuNodePool(GpuNodePoolBase):
    """A GPU node pool on GKE with guest accelerators, driver, sharing, GPU taint and gpuready's labels."""

    node_pool: gcp.container.NodePool
    """The underlying node pool (escape hatch)."""

    def __init__(self, name: str, args: GkeGpuNodePoolArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        if args.pool.cloud != "gke":
            raise SpecError.one("pool.cloud", "GkeGpuNodePool needs a GKE pool spec", args.pool.cloud, ("gke",))
        require_default_provisioner("GkeGpuNodePool", args.pool)
        spec = args.pool
        location = args.location if isinstance(args.location, str) else None
        zones = gke_zones.zone_count(location, spec.zones or args.node_locations)
        spanned = tuple(spec.zones or args.node_locations or ()) or (
            (location,) if location and gke_zones.ZONE.match(location) else ()
        )
        if not spec.zones:  # the pool spans the wiring's zones: its specific reservation's zone must be one of them
            outside = reservation_zone.outside_problems(spec, spanned, "pool.")
            if outside:
                raise SpecError(outside)
        node_pool_args = plan.node_pool_args(spec, zones)
        node_config = node_pool_args["node_config"]
        if args.service_account is not None:
            node_config["service_account"] = args.service_account
        if args.resource_labels:
            node_config["resource_labels"] = dict(args.resource_labels)
        if args.node_locations and not spec.zones:  # a pool's own zones win over the stack's
            node_pool_args["node_locations"] = list(args.node_locations)
        super().__init__("gpuready:index:GkeGpuNodePool", name, {}, opts)
        wiring = {"cluster": args.cluster_name, "location": args.location}
        decided = dict(node_pool_args)
        node_pool_args["name"] = pulumi.Output.all(**wiring).apply(
            lambda resolved: lifecycle.cloud_name(spec, {**decided, **resolved})
        )
        self.node_pool = gcp.container.NodePool(
            f"{name}-node-pool",
            opts=pulumi.ResourceOptions(
                parent=self,
                ignore_changes=list(capacity.PROVISIONER.creation_only(spec)),
                # Never delete first: a replacement gets a new name and is created while the old pool serves.
                delete_before_replace=False,
            ),
            **wiring,
            **node_pool_args,
        )
        self._publish(spec, self.node_pool.name, plan.driver_summary(spec), lifecycle.summary(spec, zones))
        for warning in (
            reservation_zone.project_warning(spec, pulumi.Config("gcp").get("project")),
            reservation_zone.zones_warning(spec, spanned),
        ):
            if warning is not None:
                pulumi.log.warn(warning, resource=self)
