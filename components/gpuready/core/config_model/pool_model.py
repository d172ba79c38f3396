"""One entry of ``gpuready:nodePools``: the config model of a GPU pool, sharing by ``mode``. Pure.

The model checks the shape (its light class, ``pool_values.PoolValues``, makes the spec); the values that depend on
the cloud and the catalog (names, sizes, capacity, image, driver, labels, taints, sharing fit) are checked once, by
``pool_rules`` when the ``GpuPoolSpec`` is made.
"""

from __future__ import annotations

from typing import Any, ClassVar

from gpuready.core.config_model.base import ConfigModel, Words, before_field
from gpuready.core.config_model.fabric_model import FabricConfig
from gpuready.core.config_model.forms import sharing_form
from gpuready.core.config_model.pool_parts_model import (
    GpuConfig,
    GpuRequirementsConfig,
    InstanceTypes,
    RepairConfig,
    ReservationConfig,
    SharingConfig,
    TaintConfig,
    UpgradeConfig,
)
from gpuready.core.config_model.pool_values import PoolValues


class PoolConfig(PoolValues, ConfigModel):
    """One pool entry as a user writes it."""

    shape: ClassVar = Words("must be a mapping of pool settings")
    words: ClassVar = {
        "labels:dict_type": Words("must be a mapping of label key to value"),
        "labels:string_type": Words("must be a string (quote numbers and booleans)"),
        "labels:key": Words("label keys must be strings (quote them in YAML)"),
        "taints:list_type": Words("must be a list of taints"),
        "sharing.mode": Words("unknown sharing mode"),
        "overrides:dict_type": Words("must be a mapping of resource inputs (provider spelling, e.g. launchTemplate)"),
        "zones:list_type": Words("must be a list of zones"),
    }

    name: str
    """Pool name, unique in the stack."""
    instance_type: InstanceTypes | None = None
    """Instance / VM / machine type with GPUs (e.g. ``p4d.24xlarge``); the catalog knows its GPUs. An elastic pool
    may list several of one GPU model and count, or give ``gpuRequirements`` instead."""
    gpu_requirements: GpuRequirementsConfig | None = None
    """Elastic pools: the GPU model and count of the nodes instead of ``instanceType``."""
    min_size: int | None = None
    """Fewest nodes (0 scales to zero); required for a fixed pool, 0 or absent for an elastic one."""
    max_size: int
    """Most nodes."""
    gpu_limit: int | None = None
    """Elastic pools: most GPUs (the NodePool's ``nvidia.com/gpu`` limit); unset: ``maxSize`` x GPUs per node."""
    desired_size: int | None = None
    """Nodes at creation."""
    capacity: str | None = None
    """How the nodes get capacity: on-demand, spot, reserved, capacity-block, flex-start or queued (what the pool's
    provisioner offers; see docs/capacity.md)."""
    reservation: ReservationConfig | None = None
    """The reservation a reserved or capacity-block pool draws on (ids, zone, nodes, fallback; GKE affinity...)."""
    location_policy: str | None = None
    """GKE node pools: how the autoscaler picks zones, ``ANY`` or ``BALANCED``; unset: by ``capacity``."""
    max_run_duration: int | None = None
    """GKE flex-start and queued pools: seconds a node runs before GKE removes it."""
    provisioner: str | None = None
    """How the nodes are made: the cloud's fixed pool (default) or an elastic provisioner."""
    advertise: str | None = None
    """How the GPUs reach the scheduler: device-plugin (default; nvidia.com/gpu extended resources) or dra
    (Dynamic Resource Allocation through NVIDIA's DRA driver)."""
    image: str | None = None
    """Node image family; unset: the cloud's GPU image."""
    driver: str | None = None
    """Who installs the NVIDIA driver (see docs/pool-keys.md)."""
    driver_version: str | None = None
    """NVIDIA driver version, where the cloud lets it be chosen."""
    gpu: GpuConfig | None = None
    sharing: SharingConfig | None = None
    """GPU sharing by ``mode``: none, time-slicing, mps or mig."""
    labels: dict[str, str] | None = None
    """Extra Kubernetes labels on the pool's nodes."""
    taints: list[TaintConfig] | None = None
    """Extra taints on the pool's nodes (mappings, or ``key=value:Effect`` text)."""
    upgrade: UpgradeConfig | None = None
    """How node upgrades roll."""
    repair: RepairConfig | None = None
    """Node auto repair: on (default) or off, and how many GPU nodes at once (see docs/gpu-health.md)."""
    release_version: str | None = None
    """Node image release version to pin."""
    fixed_name: bool | None = None
    """Keep the cloud name fixed: no rename on replacement (a replacement then fails at create)."""
    disk_size_gb: int | None = None
    """Node disk size in GB; elastic pools default to one that holds GPU images (docs/elastic-pools.md)."""
    image_version: str | None = None
    """Karpenter pools: the AMI alias version to pin (al2023 ``v20260714``, bottlerocket ``v1.61.0``), or
    ``latest`` to follow every release on purpose (each release then drifts, so replaces, every node)."""
    expire_after: str | None = None
    """NodePool pools: a node's most lifetime (``720h``) or ``Never`` (the default for GPU pools)."""
    termination_grace_period: str | None = None
    """NodePool pools: how long a node being removed drains before its pods are deleted (default ``168h``)."""
    disruption_budgets: dict[str, int | str] | None = None
    """NodePool pools: nodes Karpenter may disrupt at once, by reason (``Drifted``, ``Underutilized``, ``Empty``):
    a count or a percentage (``"10%"``); reasons left out keep gpuready's default."""
    zones: list[str] | None = None
    """Zones of the pool's nodes."""
    fabric: FabricConfig | None = None
    """The node-to-node fabric of a multi-node training pool (docs/fabric.md): efa, gpudirect-tcpx,
    gpudirect-tcpxo, gpudirect-rdma or infiniband, or a mapping {kind, placementGroup, networks} (GKE and AKS:
    docs/fabric-gke-aks.md)."""
    overrides: dict[str, Any] | None = None
    """Extra inputs of the cloud resource; keys are checked by ``pool_rules`` against the SDK's inputs."""

    _sharing_form = before_field("sharing", sharing_form)


POOL_KEYS = tuple(field.alias or name for name, field in PoolConfig.model_fields.items())
"""Keys a pool entry accepts."""
