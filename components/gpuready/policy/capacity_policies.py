"""The pack's policies on how GPU pools get capacity (issue #28): Capacity Block node groups, reserved NodePools,
GKE queued and flex-start pools, AKS reservation and placement groups (docs/capacity.md)."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy, Severity

from gpuready.policy.rules import capacity
from gpuready.policy.rules.elastic_pools import ELASTIC_TYPES
from gpuready.policy.rules.gpu_pools import POOL_TYPES
from gpuready.policy.scoped import ScopedResourcePolicy, ScopedStackPolicy

POLICIES: list[Policy] = [
    ScopedResourcePolicy(
        name="gpu-pool-capacity-block-wired",
        description="A Capacity Block node group names its instance type and block in a launch template, none on "
        "the group (EKS rejects it otherwise).",
        rules=[capacity.capacity_wiring_problems],
        resource_types=capacity.POOL_TYPES,
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.HIGH,
        url="https://docs.aws.amazon.com/eks/latest/userguide/capacity-blocks-mng.html",
        remediation_steps="Give the node group a launch template with instanceType, instanceMarketOptions.marketType "
        "capacity-block and the block's capacityReservationTarget, and remove instanceTypes from the group.",
    ),
    ScopedStackPolicy(
        name="gpu-reserved-nodepool-selects-reservations",
        description="A GPU NodePool that allows reserved capacity runs on a node class that selects reservations.",
        rules=[capacity.reserved_node_pool_findings],
        resource_types=ELASTIC_TYPES | capacity.NODE_CLASS_TYPES,
        requires_types=ELASTIC_TYPES,
        enforcement_level=EnforcementLevel.MANDATORY,
        severity=Severity.HIGH,
        url="https://karpenter.sh/docs/concepts/nodeclasses/",
        remediation_steps="Add capacityReservationSelectorTerms (ids, or tags and ownerID) to the NodePool's node "
        "class, or drop reserved from its karpenter.sh/capacity-type requirement.",
    ),
    ScopedResourcePolicy(
        name="gpu-reservation-terms-cluster-wide",
        description="Reservation terms on a node class whose platform applies them cluster-wide (EKS Auto Mode: open "
        "ODCRs are no longer used by any NodeClass) are said.",
        rules=[capacity.reservation_caveat_problems],
        resource_types=capacity.NODE_CLASS_TYPES,
        enforcement_level=EnforcementLevel.ADVISORY,
        severity=Severity.MEDIUM,
        url="https://docs.aws.amazon.com/eks/latest/userguide/auto-odcr.html",
        remediation_steps="Select every reservation the cluster's Auto Mode pools should use with "
        "capacityReservationSelectorTerms, or keep reservation terms off Auto Mode NodeClasses.",
    ),
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
"""The capacity policies, in the order ``PolicyPack`` lists them."""
