"""The GKE node pool as a provisioner (``node-pool``, the GKE default). Pure: delegates to ``lifecycle``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gpuready.core import component_entry
from gpuready.core.capacity.capacity_offers import CapacityOffer
from gpuready.core.capacity.interface import Provisioner
from gpuready.core.capacity.pool_facts import PoolReader
from gpuready.core.health.repair import RepairFacts
from gpuready.core.lifecycle import ResourceTable
from gpuready.core.scale_path.model import ScaleDecider
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.taints import Taint
from gpuready.errors import Problem
from gpuready.gke import capacity_rules, lifecycle, pool_reader, reservation_zone
from gpuready.gke.scale_path import GkeNodePoolDecider


class GkeNodePool(Provisioner):
    """A node pool of fixed bounds (counted per zone by GKE), scaled by GKE's cluster autoscaler."""

    key: ClassVar[str] = "node-pool"
    cloud: ClassVar[str] = "gke"
    component: ClassVar[component_entry.ComponentEntry] = component_entry.ComponentEntry(
        name="GkeGpuNodePool",
        module="gpuready.gke.node_pool",
        builder="gpuready.gke.stack_adapter",
        description="A GPU node pool on an existing GKE cluster (accelerators, driver, GPU taint, gpuready's labels).",
        wiring=(
            component_entry.POOL,
            component_entry.Wire("clusterName", component_entry.STRING, "Name of the existing GKE cluster.", True),
            component_entry.Wire("location", component_entry.STRING, "Region or zone of the cluster.", True),
            component_entry.Wire(
                "nodeLocations",
                component_entry.STRINGS,
                "Zones of the pool's nodes; required unless location is a zone.",
            ),
            component_entry.Wire("serviceAccount", component_entry.STRING, "Service account e-mail of the nodes."),
            component_entry.Wire("resourceLabels", component_entry.STRING_MAP, "GCE labels on the node VMs."),
        ),
    )
    tables: ClassVar[tuple[ResourceTable, ...]] = lifecycle.TABLES
    pool_table: ClassVar[ResourceTable] = lifecycle.NODE_POOL
    readers: ClassVar[Mapping[str, PoolReader]] = {lifecycle.NODE_POOL.type: pool_reader.NODE_POOL_READER}
    scale_decider: ClassVar[ScaleDecider] = GkeNodePoolDecider()
    repair: ClassVar[RepairFacts | None] = RepairFacts(
        on="GKE node auto-repair (management.autoRepair, set explicitly): GKE recreates a node that stays NotReady "
        "about 10 min or runs out of boot disk; it publishes no GPU condition, so a broken GPU on a Ready node is "
        "gpuready check's to find",
        off="management.autoRepair false: GKE leaves unhealthy nodes in place",
        source="cloud.google.com/kubernetes-engine/docs/how-to/node-auto-repair",
    )

    capacities: ClassVar[Mapping[str, CapacityOffer]] = capacity_rules.OFFERS
    # GKE docs "Run a large-scale workload with flex-start with queued provisioning" (ProvisioningRequest
    # provisioningClassName); kubernetes-sigs/kueue v0.19.2 site/content/en/docs/tasks/troubleshooting/
    # troubleshooting_provreq.md L56.
    provisioning_class: ClassVar[str | None] = "queued-provisioning.gke.io"
    capacity_keys: ClassVar[frozenset[str]] = frozenset({"locationPolicy", "maxRunDuration"})

    def spec_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        return capacity_rules.problems(spec) + reservation_zone.problems(spec)

    def policy_capacity_problems(self, where: str, props: Mapping[str, Any]) -> list[str]:
        return capacity_rules.policy_problems(where, props)

    def selection_taints(self, spec: GpuPoolSpec) -> tuple[Taint, ...]:
        """A queued pool's nodes carry GKE's ``cloud.google.com/gke-queued`` taint."""
        return (capacity_rules.QUEUED_TAINT,) if capacity_rules.facts(spec).queued else ()

    def creation_only(self, spec: GpuPoolSpec) -> tuple[str, ...]:
        return lifecycle.CREATION_ONLY


PROVISIONER = GkeNodePool()
"""The one instance (provisioners hold no state)."""
