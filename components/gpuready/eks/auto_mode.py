"""EKS Auto Mode as a provisioner (``provisioner: eks-auto-mode``): a GPU pool as a ``karpenter.sh/v1`` NodePool
on an ``eks.amazonaws.com/v1`` NodeClass, built as plain objects. Pure.

The NodeClass fields are those of the schema in
``../shared/reference/upstream/crds-catalog/eks.amazonaws.com/nodeclass_v1.json`` (datreeio/CRDs-catalog ``7b1e26ef``):
``role``, ``subnetSelectorTerms``, ``securityGroupSelectorTerms`` (required), ``ephemeralStorage``, ``tags``; for a
reservation ``capacityReservationSelectorTerms``, which AWS documents for the NodeClass (Amazon EKS User Guide
auto-odcr) and that schema lacks: its shape is Karpenter's EC2NodeClass v1.14.1 property, grafted in by the tests
(``gpuready.eks.auto_mode_capacity``). The NodePool is ``gpuready.core.capacity.karpenter_nodepool``'s; its instance
requirements use Auto Mode's well-known labels (``eks.amazonaws.com/instance-gpu-count``; Amazon EKS User Guide, "Create
a Node Pool for EKS Auto Mode", https://docs.aws.amazon.com/eks/latest/userguide/create-node-pool.html). The wiring
(node role, subnets, security groups) is the Karpenter pool's (``gpuready.eks.karpenter.KarpenterWiring``).

What Auto Mode installs itself decides what such a pool may ask for: Auto Mode chooses the node image and manages
the NVIDIA driver and the NVIDIA device plugin, which "runs automatically and isn't visible as a daemon set"
(Amazon EKS User Guide, "Deploy an accelerated workload",
https://docs.aws.amazon.com/eks/latest/userguide/auto-accelerated.html). So the driver cannot be the GPU
Operator's, the image cannot be chosen, and neither gpuready's per-node device-plugin configuration (time-slicing,
MPS) nor the MIG manager reaches that plugin: sharing is refused (use ``provisioner: karpenter``). The GPU stack
asks ``platform_advertiser``: no NVIDIA device plugin there, the GPU Operator with its driver, toolkit and
device-plugin operands off on these nodes (``gpuready.core.gpu_stack.ownership``). Auto Mode also
enforces a 21-day maximum node lifetime (Amazon EKS User Guide, "Automate cluster infrastructure with EKS Auto
Mode", https://docs.aws.amazon.com/eks/latest/userguide/automode.html).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gpuready.core import component_entry
from gpuready.core.capacity import karpenter_nodepool, node_disk, node_disruption, refusals
from gpuready.core.capacity.capacity_offers import CapacityOffer
from gpuready.core.capacity.karpenter_provisioner import KarpenterNodePoolProvisioner
from gpuready.core.capacity.node_facts import NodeFacts
from gpuready.core.clouds.node_setup import PlatformAdvertiser
from gpuready.core.health.repair import RepairFacts
from gpuready.core.lifecycle import ResourceTable
from gpuready.core.scale_path.karpenter import KarpenterDecider
from gpuready.core.scale_path.model import ScaleDecider
from gpuready.core.specs import GpuPoolSpec, UpgradePolicy
from gpuready.eks import auto_mode_capacity, karpenter
from gpuready.errors import Problem

NODE_CLASS_API = ("eks.amazonaws.com/v1", "NodeClass")
INSTANCE_TYPE = karpenter_nodepool.INSTANCE_TYPE
GPU_COUNT = "eks.amazonaws.com/instance-gpu-count"
INSTEAD = "use provisioner: karpenter (your own Karpenter, the GPU stack configures its nodes) or node-group"
AUTO_MODE_ODCR_CAVEAT = (
    "once a NodeClass of the cluster has capacityReservationSelectorTerms, EKS Auto Mode no longer launches into open "
    "On-Demand Capacity Reservations for any NodeClass of the cluster: each reservation must then be selected by a "
    "NodeClass (Amazon EKS User Guide, auto-odcr)"
)
"""The cluster-wide effect of reservation terms on an Auto Mode NodeClass ("Control deployment of workloads into
Capacity Reservations with EKS Auto Mode", https://docs.aws.amazon.com/eks/latest/userguide/auto-odcr.html,
Warning)."""
MAX_LIFETIME_HOURS = 21 * 24
"""Auto Mode's most node lifetime, 21 days ("Automate cluster infrastructure with EKS Auto Mode"): its NodePools'
``expireAfter`` (default 336h, "Create a Node Pool for EKS Auto Mode") is set to this, not ``Never``."""


def requirements(spec: GpuPoolSpec) -> list[dict[str, Any]]:
    """The NodePool's node requirements: the instance types, their GPU count, architecture and capacity type, for a
    reservation its kind and zone (``auto_mode_capacity``)."""
    return [*karpenter_nodepool.instance_requirements(spec, GPU_COUNT), *auto_mode_capacity.requirements(spec)]


def node_pool(spec: GpuPoolSpec) -> dict[str, Any]:
    """The ``karpenter.sh/v1`` NodePool of the pool, on its NodeClass; GPU limit ``gpuLimit`` or ``maxSize`` x
    GPUs per node."""
    limit = PROVISIONER.summary(spec).max_gpus
    return karpenter_nodepool.node_pool(
        spec, NODE_CLASS_API, requirements(spec), limit, max_lifetime_hours=MAX_LIFETIME_HOURS
    )


def node_class(spec: GpuPoolSpec, wiring: karpenter.KarpenterWiring) -> dict[str, Any]:
    """The ``eks.amazonaws.com/v1`` NodeClass of the pool (named as the pool)."""
    groups: list[dict[str, Any]] = [{"id": group} for group in wiring.security_group_ids] or [
        {"tags": {karpenter.CLUSTER_SG_TAG: wiring.cluster_name}}
    ]
    body: dict[str, Any] = {
        "role": karpenter.role_name(wiring.node_role),
        "subnetSelectorTerms": [{"id": subnet} for subnet in wiring.subnet_ids],
        "securityGroupSelectorTerms": groups,
    }
    body["ephemeralStorage"] = {"size": f"{node_disk.size_gb(spec)}Gi"}
    terms = auto_mode_capacity.reservation_terms(spec)
    if terms:
        body["capacityReservationSelectorTerms"] = terms
    if wiring.tags:
        body["tags"] = dict(wiring.tags)
    api_version, kind = NODE_CLASS_API
    return {"apiVersion": api_version, "kind": kind, "metadata": {"name": spec.name}, "spec": body}


def lifecycle_summary(spec: GpuPoolSpec) -> str:
    """The pool's lifecycle in one line, for the plan table."""
    return (
        f"NodePool {spec.name} (EKS Auto Mode): nodes made when GPU pods are pending, none kept; only empty nodes "
        f"consolidated; {node_disruption.summary(spec, MAX_LIFETIME_HOURS)}; ephemeral storage "
        f"{node_disk.size_gb(spec)} GiB; AWS chooses and updates the image (each new Auto Mode AMI drifts the nodes)"
        f"{auto_mode_capacity.lifecycle_note(spec)}"
    )


NODE_CLASS = ResourceTable(type=f"kubernetes:{NODE_CLASS_API[0]}:{NODE_CLASS_API[1]}", rules=(), unlisted="update")
"""Custom resources update in place; metadata.name is the pool's name and the component's."""

UNSUPPORTED: Mapping[str, str] = {
    "image": "EKS Auto Mode chooses the node image itself; remove image",
    "releaseVersion": "EKS Auto Mode chooses the node image itself; remove releaseVersion",
    "overrides": "overrides name aws.eks.NodeGroup inputs, which an Auto Mode pool does not have; remove them",
    "upgrade": "EKS Auto Mode replaces nodes by the NodePool's disruption budget; remove upgrade",
    "fixedName": "a NodePool keeps its name; remove fixedName",
}
"""Pool keys an Auto Mode pool refuses, with what to do instead."""


class EksAutoMode(KarpenterNodePoolProvisioner):
    """An EKS Auto Mode NodePool: nodes made when pods need them, none kept, with AWS's own NVIDIA stack."""

    key: ClassVar[str] = "eks-auto-mode"
    cloud: ClassVar[str] = "eks"
    component: ClassVar[component_entry.ComponentEntry] = component_entry.ComponentEntry(
        name="EksAutoModeGpuPool",
        module="gpuready.eks.auto_mode_pool",
        builder="gpuready.eks.auto_mode_pool",
        description="An EKS Auto Mode NodePool of GPU nodes with its NodeClass (provisioner: eks-auto-mode), on AWS's "
        f"own NVIDIA driver and device plugin. {component_entry.KUBERNETES_PROVIDER}",
        wiring=karpenter.ELASTIC_WIRING,
        known_wiring=True,
    )
    tables: ClassVar[tuple[ResourceTable, ...]] = (karpenter.NODE_POOL, NODE_CLASS)
    pool_table: ClassVar[ResourceTable] = karpenter.NODE_POOL
    platform_advertiser: ClassVar[PlatformAdvertiser | None] = "eks-auto-mode"
    max_node_lifetime_hours: ClassVar[int | None] = MAX_LIFETIME_HOURS
    capacities: ClassVar[Mapping[str, CapacityOffer]] = auto_mode_capacity.AUTO_MODE_CAPACITIES
    image_version_refusal: ClassVar[str] = (
        "EKS Auto Mode chooses and updates the node image itself: its NodeClass has no image field (schema: role, "
        "subnets, security groups, ephemeralStorage, network policy, tags); remove imageVersion, or use provisioner: "
        "karpenter to pin the AMI"
    )
    # AWS runs Auto Mode's Karpenter: its settings (IGNORE_DRA_REQUESTS, feature gates) are not the cluster's to set.
    scale_decider: ClassVar[ScaleDecider] = KarpenterDecider(
        "EKS Auto Mode",
        "aws/karpenter-provider-aws v1.14.1 pkg/providers/instancetype/types.go L336-349 (computeCapacity)",
        overlay_gate=False,
        overlay_fix=INSTEAD,
    )
    repair: ClassVar[RepairFacts | None] = RepairFacts(
        on="built into EKS Auto Mode: its node monitoring agent reports GPU health and Auto Mode replaces an unhealthy "
        "node (AcceleratedHardwareReady after 10 min; Replace only)",
        off=None,
        source="docs.aws.amazon.com/eks/latest/userguide/node-repair.html (enabled by default in EKS Auto Mode)",
    )
    node_facts: ClassVar[NodeFacts | None] = NodeFacts(
        title="EKS Auto Mode", object_type=karpenter.NODE_POOL.type, node_class_group=NODE_CLASS_API[0].split("/")[0],
        pool_label=karpenter_nodepool.NODE_POOL_LABEL, marker="eks.amazonaws.com/compute-type=auto",
        gpu_name_label="eks.amazonaws.com/instance-gpu-name", gpu_count_label=GPU_COUNT,
        gpu_manufacturer_label="eks.amazonaws.com/instance-gpu-manufacturer",
        instance_family_label="eks.amazonaws.com/instance-family",
        own_device_plugin="EKS Auto Mode's own NVIDIA device plugin",
        reservation_terms="capacityReservationSelectorTerms",  # Amazon EKS User Guide auto-odcr (NodeClass)
        reservation_terms_caveat=AUTO_MODE_ODCR_CAVEAT,
    )  # fmt: skip

    def spec_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        found = refusals.restricted_label_problems(spec.labels, karpenter.RESTRICTED_LABEL_DOMAINS)
        if spec.driver == "operator":
            found.append(
                Problem("driver", "EKS Auto Mode installs and manages the NVIDIA driver on its nodes", spec.driver,
                        ("cloud",), f"remove driver (or set it to cloud), or {INSTEAD}")
            )  # fmt: skip
        if spec.sharing is not None:
            found.append(
                Problem("sharing", "EKS Auto Mode runs its own NVIDIA device plugin, which gpuready's time-slicing, "
                        "MPS and MIG configuration cannot reach", spec.sharing.mode, (), INSTEAD)
            )  # fmt: skip
        given = {
            "image": spec.image,
            "releaseVersion": spec.release_version,
            "overrides": spec.overrides or None,
            "upgrade": None if spec.upgrade == UpgradePolicy() else spec.upgrade,
            "fixedName": spec.fixed_name,
        }
        found.extend(refusals.unsupported_problems(self.key, given, UNSUPPORTED))
        if spec.reservation is not None and spec.capacity in self.capacities:
            found.extend(auto_mode_capacity.reservation_problems(spec))
        return found


PROVISIONER = EksAutoMode()
"""The one instance (provisioners hold no state)."""
