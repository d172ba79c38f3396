"""The pack's capacity policies (issue #28): GKE queued and flex-start pools, AKS reservation and placement groups."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy, Severity

from gpuready.policy.rules import capacity
from gpuready.policy.rules.gpu_pools import POOL_TYPES
from gpuready.policy.scoped import ScopedResourcePolicy

POLICIES: list[Policy] = [
    ScopedResourcePolicy(
        name="gpu-node-pool-capacity-rules",
        description="GPU pools get capacity the way their cloud allows: GKE queued and flex-start pools with location "
        "policy ANY, no reservation, no compact placement (queued) and no auto-repair; AKS reservation and placement "
        "group ids well-formed and not together.",
        rules=[capacity.capacity_problems],
        resource_types=POOL_TYPES,
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.HIGH,
        url="https://cloud.google.com/kubernetes-engine/docs/how-to/provisioningrequest",
        remediation_steps="GKE: for queuedProvisioning / nodeConfig.flexStart set autoscaling.locationPolicy ANY, "
        "reservationAffinity NO_RESERVATION, management.autoRepair false, and no COMPACT placementPolicy on a queued "
        "pool. AKS: capacityReservationGroupID and proximityPlacementGroupID as /subscriptions/<GUID>/resourceGroups/"
        "<group>/providers/Microsoft.Compute/<kind>/<name>, one of the two, no reservation on Spot.",
    ),
]
"""The capacity policies, in the order the pack lists them."""
