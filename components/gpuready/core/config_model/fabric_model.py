"""``fabric`` of a ``gpuready:nodePools`` entry: a fabric kind, or a mapping with its kind and placement. Pure.

The kind's validity on the pool's instance types and the cloud's own rules are checked once, by
``gpuready.core.fabric.rules``, when the spec is made.
"""

from __future__ import annotations

from typing import ClassVar

from gpuready.core.config_model.base import ConfigModel, Words, before_model
from gpuready.core.config_model.forms import fabric_from_kind
from gpuready.core.config_model.pool_parts_values import FabricNetworkValues, FabricValues
from gpuready.core.fabric.model import FABRIC_KINDS


class FabricNetworkConfig(FabricNetworkValues, ConfigModel):
    """One additional node network of a fabric pool (GKE): a VPC and a subnet of it, as the stack names them."""

    network: str
    """The VPC network's name."""
    subnetwork: str
    """The subnetwork's name (one per NIC); it also names the cluster's ``Network`` object for it."""


class FabricConfig(FabricValues, ConfigModel):
    """``fabric``: ``efa`` (or another kind), or ``{kind: efa, placementGroup: create}``, with (GKE) its
    additional node networks."""

    shape: ClassVar = Words("must be a fabric kind or a mapping", "fabric: efa, or fabric: {kind: efa}")
    shape_allowed: ClassVar = FABRIC_KINDS

    kind: str
    """The node fabric: efa (EKS), gpudirect-tcpx, gpudirect-tcpxo, gpudirect-rdma (GKE), infiniband (AKS)."""
    placement_group: str | None = None
    """``create`` (gpuready makes a cluster placement group with the pool) or the name of one made elsewhere;
    unset: the cloud's default (EKS: create; GKE: a compact placement of the pool's own)."""
    networks: list[FabricNetworkConfig] | None = None
    """GKE GPUDirect: the additional node networks, one per extra NIC of the machine, in NIC order."""

    _from_kind = before_model(fabric_from_kind)
