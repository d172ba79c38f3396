"""``GkeGpuNodePool``: a GKE node pool for GPUs, from a validated pool spec."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pulumi
import pulumi_gcp as gcp

from components.core.specs import GpuPoolSpec
from components.errors import SpecError
from components.gke import plan
from components.pool_outputs import GpuNodePoolBase


@dataclass(frozen=True, kw_only=True)
class GkeGpuNodePoolArgs:
    """Inputs of ``GkeGpuNodePool``: the pool decisions plus the cluster wiring."""

    pool: GpuPoolSpec
    """The validated pool spec (``cloud="gke"``)."""
    cluster_name: pulumi.Input[str]
    location: pulumi.Input[str]
    """Region or zone of the existing cluster."""
    node_locations: Sequence[str] | None = None
    """Zones for the pool's nodes; None uses the cluster's."""
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
        node_pool_args = plan.node_pool_args(args.pool, len(args.node_locations) if args.node_locations else None)
        node_config = node_pool_args["node_config"]
        if args.service_account is not None:
            node_config["service_account"] = args.service_account
        if args.resource_labels:
            node_config["resource_labels"] = dict(args.resource_labels)
        if args.node_locations:
            node_pool_args["node_locations"] = list(args.node_locations)
        super().__init__("gpuready:index:GkeGpuNodePool", name, {}, opts)
        self.node_pool = gcp.container.NodePool(
            f"{name}-node-pool",
            cluster=args.cluster_name,
            location=args.location,
            opts=pulumi.ResourceOptions(parent=self),
            **node_pool_args,
        )
        self._publish(args.pool, self.node_pool.name, plan.driver_summary(args.pool))
