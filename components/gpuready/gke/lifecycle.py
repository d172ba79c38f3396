"""Lifecycle of a GKE GPU node pool: replacement facts, creation-only inputs, GPU capacity. Pure.

Replacement facts: pulumi-gcp bridges hashicorp/terraform-provider-google-beta; a field whose schema says
``ForceNew: true`` replaces the node pool (``services/container/resource_container_node_pool.go`` and
``node_config.go``; a ``ForceNew`` on the ``node_config`` block itself only covers adding or removing the block).
Each row cites its lines; ``tests/fidelity/test_replacement_tables.py`` checks every row against the facts
recorded from the cited files (``tests/fidelity/replacement_facts.json``; the provider's code is cited, not copied).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.lifecycle import FieldRule, ResourceTable, pool_cloud_name
from gpuready.core.specs import GpuPoolSpec

TF_GOOGLE_BETA = "hashicorp/terraform-provider-google-beta@{commit}:google-beta/services/container/{file}#L{lines}"
COMMIT = "3dc173a397749158369ea839a2890d89f8c9c370"
"""The google-beta provider pulumi-gcp bridges (pulumi/pulumi-gcp@ed6078a ``upstream``, v7.45.0); what the
cited lines say is recorded in ``tests/fidelity/replacement_facts.json``."""


def _tf(first: int, last: int, file: str = "resource_container_node_pool.go") -> str:
    return TF_GOOGLE_BETA.format(commit=COMMIT, file=file, lines=f"{first}-{last}")


def _nc(first: int, last: int) -> str:
    return _tf(first, last, "node_config.go")


NODE_POOL = ResourceTable(
    type="gcp:container/nodePool:NodePool",
    name_field="name",
    rules=(
        FieldRule("cluster", "replace", _tf(246, 251), "cluster: ForceNew"),
        FieldRule("location", "replace", _tf(252, 258), "location: ForceNew"),
        FieldRule("name", "replace", _tf(527, 533), "name: ForceNew"),
        FieldRule("namePrefix", "replace", _tf(535, 541), "name_prefix: ForceNew"),
        FieldRule("initialNodeCount", "replace", _tf(480, 486), "initial_node_count: ForceNew"),
        FieldRule("nodeConfig.spot", "replace", _nc(635, 641), "spot: ForceNew"),
        FieldRule("nodeConfig.guestAccelerators", "replace", _nc(316, 387), "guest_accelerator: ForceNew"),
        FieldRule("nodeConfig.guestAccelerators.type", "replace", _nc(330, 336), "type: ForceNew"),
        FieldRule("nodeConfig.guestAccelerators.count", "replace", _nc(324, 329), "count: ForceNew"),
        FieldRule(
            "nodeConfig.guestAccelerators.gpuDriverInstallationConfig",
            "replace",
            _nc(337, 355),
            "gpu_driver_installation_config: ForceNew",
        ),
        FieldRule(
            "nodeConfig.guestAccelerators.gpuSharingConfig", "replace", _nc(362, 384), "gpu_sharing_config: ForceNew"
        ),
        FieldRule(
            "nodeConfig.guestAccelerators.gpuPartitionSize", "replace", _nc(356, 361), "gpu_partition_size: ForceNew"
        ),
        FieldRule("nodeConfig.oauthScopes", "replace", _nc(579, 593), "oauth_scopes: ForceNew"),
        FieldRule("nodeConfig.reservationAffinity", "replace", _nc(602, 634), "reservation_affinity: ForceNew"),
        FieldRule("nodeConfig.maxRunDuration", "replace", _nc(1458, 1463), "max_run_duration: ForceNew"),
        FieldRule("nodeConfig.flexStart", "replace", _nc(1464, 1469), "flex_start: ForceNew"),
        FieldRule("queuedProvisioning", "replace", _tf(409, 425), "queued_provisioning: ForceNew"),
        FieldRule("placementPolicy", "replace", _tf(381, 407), "placement_policy: ForceNew"),
        FieldRule("nodeConfig.serviceAccount", "replace", _nc(643, 649), "service_account: ForceNew"),
        FieldRule("placementPolicy", "replace", _tf(381, 407), "placement_policy: ForceNew"),
        FieldRule(
            "networkConfig.additionalNodeNetworkConfigs",
            "replace",
            _tf(601, 625),
            "additional_node_network_configs: ForceNew",
        ),
        FieldRule("nodeCount", "update", _tf(545, 551), "node_count: no ForceNew, updated in place"),
        FieldRule("nodeLocations", "update", _tf(435, 441), "node_locations: no ForceNew, updated in place"),
        FieldRule("autoscaling", "update", _tf(335, 379), "autoscaling: no ForceNew, updated in place"),
        FieldRule("management", "update", _tf(502, 525), "management: no ForceNew, updated in place"),
        FieldRule("upgradeSettings", "update", _tf(443, 478), "upgrade_settings: no ForceNew, updated in place"),
        FieldRule("nodeConfig.machineType", "update", _nc(555, 560), "machine_type: no ForceNew, updated in place"),
        FieldRule("nodeConfig.diskSizeGb", "update", _nc(291, 297), "disk_size_gb: no ForceNew, updated in place"),
        FieldRule("nodeConfig.imageType", "update", _nc(389, 395), "image_type: no ForceNew, updated in place"),
        FieldRule("nodeConfig.labels", "update", _nc(420, 428), "labels: no ForceNew, updated in place"),
        FieldRule("nodeConfig.taints", "update", _nc(692, 716), "taint: no ForceNew, updated in place"),
        FieldRule("nodeConfig.gvnic", "update", _nc(539, 553), "gvnic: no ForceNew, updated in place"),
        FieldRule(
            "nodeConfig.resourceLabels", "update", _nc(430, 436), "resource_labels: no ForceNew, updated in place"
        ),
    ),
)
TABLES = (NODE_POOL,)

CREATION_ONLY = ("initialNodeCount",)
"""``initialNodeCount`` forces recreation and a resize changes what GKE reports (pulumi_gcp 10.2.0
``container/node_pool.py`` docstring): read at creation only, so neither an edit nor a refresh replaces the pool."""


def cloud_name(spec: GpuPoolSpec, args: Mapping[str, Any]) -> str:
    """The node pool's name: the pool name, plus a suffix of the replacement-forcing inputs when it rotates."""
    return pool_cloud_name(spec, NODE_POOL, args, CREATION_ONLY)


def summary(spec: GpuPoolSpec, zones: int) -> str:
    """The pool's lifecycle in one line, for the plan table."""
    per_zone = spec.initial_size // zones
    start = f"initialNodeCount {per_zone} per zone x {zones} zone{'s' if zones > 1 else ''}, at creation only"
    naming = "new name when replaced" if spec.rotates_name else "fixed name: a replacement fails at create"
    policy = spec.upgrade
    if policy.strategy == "blue-green":
        upgrade = f"upgrade BLUE_GREEN, batches of {policy.batch_node_count}, pool soak {policy.pool_soak_seconds}s"
    else:
        upgrade = f"upgrade SURGE, maxSurge {policy.surge}, maxUnavailable {policy.unavailable}"
    fabric = spec.fabric
    if fabric is None:
        return f"{start}; {naming}; {upgrade}"
    placement = f"policy {fabric.placement_group}" if fabric.placement_group else "a policy of its own"
    changes = f"{fabric.kind}: a change of its networks or of its compact placement ({placement}) replaces the pool"
    return f"{start}; {naming}; {upgrade}; {changes}"
