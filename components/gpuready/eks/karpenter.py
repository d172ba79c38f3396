"""Karpenter on EKS as a provisioner (``provisioner: karpenter``): a GPU pool as a ``karpenter.sh/v1`` NodePool and
its ``karpenter.k8s.aws/v1`` EC2NodeClass, built as plain objects. Pure.

Field names and enums are those of the CRDs in ``../shared/reference/upstream/karpenter-aws/``
(aws/karpenter-provider-aws tag ``v1.14.1``, ``pkg/apis/crds/``); the well-known labels are that repository's
``pkg/apis/v1/labels.go`` (``karpenter.k8s.aws/instance-gpu-count``) and kubernetes-sigs/karpenter's
``karpenter.sh/capacity-type``. What the nodes carry (the GPU taint, gpuready's labels, the sharing and MIG labels
the GPU stack configures by) is ``gpuready.core.scheduling``'s, as for node groups.

Wiring comes from the stack settings, as for node groups: the node role is ``gpuready:eksNodeRoleArn`` (its role
name: the EC2NodeClass ``role`` takes a name), the subnets ``gpuready:eksSubnetIds``; the security groups are the
EKS cluster security group, selected by the ``aws:eks:cluster-name`` tag EKS puts on it (AWS EKS User Guide,
"View Amazon EKS security group requirements for clusters"), unless security group ids are given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from gpuready.core import component_entry
from gpuready.core.capacity import karpenter_nodepool, node_disruption, node_overlay, refusals
from gpuready.core.capacity.capacity_offers import PLAIN, CapacityOffer
from gpuready.core.capacity.karpenter_nodepool import NODE_POOL_LABEL
from gpuready.core.capacity.karpenter_provisioner import KarpenterNodePoolProvisioner
from gpuready.core.capacity.node_facts import NodeFacts
from gpuready.core.health.repair import RepairFacts
from gpuready.core.lifecycle import ResourceTable
from gpuready.core.scale_path.karpenter import KarpenterDecider
from gpuready.core.scale_path.model import ScaleDecider
from gpuready.core.specs import GpuPoolSpec, UpgradePolicy
from gpuready.eks import ec2_node_class, launch_template_fabric, reservation
from gpuready.errors import Problem
from gpuready.record import record

CRDS = "aws/karpenter-provider-aws@v1.14.1:pkg/apis/crds"
NODE_POOL_API = karpenter_nodepool.API
NODE_CLASS_API = ("karpenter.k8s.aws/v1", "EC2NodeClass")

CONSOLIDATE_AFTER = karpenter_nodepool.CONSOLIDATE_AFTER
CLUSTER_SG_TAG = "aws:eks:cluster-name"
ZONE_LABEL = "topology.kubernetes.io/zone"
RESTRICTED_LABEL_DOMAINS = ("karpenter.sh", "karpenter.k8s.aws")
"""Label domains the NodePool CRD refuses in ``template.metadata.labels`` (its CEL rules; the few well-known labels
they let through are Karpenter's own, never a user's)."""


@record(frozen=True, kw_only=True, slots=True)
class KarpenterWiring:
    """What a Karpenter pool takes from the stack (``gpuready:clusterName``, ``eksNodeRoleArn``, ``eksSubnetIds``)."""

    cluster_name: str
    node_role: str
    """The nodes' IAM role: an ARN or a role name."""
    subnet_ids: tuple[str, ...]
    security_group_ids: tuple[str, ...] = ()
    """Empty: the EKS cluster security group (by its ``aws:eks:cluster-name`` tag)."""
    tags: Mapping[str, str] | None = None


def role_name(role: str) -> str:
    """The role name of an IAM role ARN (``arn:aws:iam::1:role/path/Name`` -> ``Name``), a name as is."""
    return role.rsplit("/", 1)[-1] if role.startswith("arn:") else role


RESERVATION_TYPE = "karpenter.k8s.aws/capacity-reservation-type"
"""The well-known label of a reserved node's kind of reservation, ``default`` or ``capacity-block``
(aws/karpenter-provider-aws v1.14.1 ``pkg/apis/v1/labels.go`` L144, ``ec2nodeclass_status.go`` L107-132)."""
RESERVATION_TYPES: Mapping[str, str] = {"capacity-block": "capacity-block"}
"""Pool capacity -> the ``RESERVATION_TYPE`` its nodes must have (a Capacity Block pool takes blocks only)."""
ZONE = "topology.kubernetes.io/zone"

KARPENTER_CAPACITIES: Mapping[str, CapacityOffer] = {
    "on-demand": PLAIN,
    "spot": PLAIN,
    # EC2NodeClass capacityReservationSelectorTerms (ReservedCapacity, beta and on by default in v1.14.1:
    # charts/karpenter/values.yaml settings.featureGates.reservedCapacity); the NodePool allows reserved and the
    # pool's fallback, and Karpenter launches into the reservation first.
    "reserved": CapacityOffer(
        reservation="required",
        fields=frozenset({"ids", "selectorTerms", "fallback", "zone", "nodes"}),
        fallbacks=("none", "on-demand", "spot"),
        example=f"{{ids: [{reservation.EXAMPLE_ID}]}} or {{selectorTerms: [{{tags: {{team: ml}}}}]}}",
    ),
    # Capacity Blocks are reserved offerings of reservation type capacity-block (filter.go CapacityBlockFilter).
    "capacity-block": CapacityOffer(
        reservation="required",
        fields=frozenset({"ids", "selectorTerms", "zone", "nodes"}),
        example=f"{{ids: [{reservation.EXAMPLE_ID}]}}",
        starts_later=True,
    ),
}
"""The Karpenter (EKS) row of the capacity table (``capacity.capacity_offers``)."""


def requirements(spec: GpuPoolSpec) -> list[dict[str, Any]]:
    """The NodePool's node requirements: the instance types, their GPU count and architecture, the capacity type,
    for a reservation its kind and zone; an EFA pool's one zone (``eks.fabric``)."""
    found = karpenter_nodepool.instance_requirements(spec, "karpenter.k8s.aws/instance-gpu-count")
    kind = RESERVATION_TYPES.get(spec.capacity)
    if kind is not None:
        found.append(karpenter_nodepool.requirement(RESERVATION_TYPE, kind))
    if spec.reservation is not None and spec.reservation.zone is not None:
        found.append(karpenter_nodepool.requirement(ZONE, spec.reservation.zone))
    elif spec.fabric is not None and spec.zones:
        found.append({"key": ZONE_LABEL, "operator": "In", "values": list(spec.zones)})
    return found


def reservation_terms(spec: GpuPoolSpec) -> list[dict[str, Any]]:
    """``capacityReservationSelectorTerms``: one ``id`` term per reservation id, then the pool's selector terms."""
    given = spec.reservation
    if given is None:
        return []
    terms: list[dict[str, Any]] = [{"id": reservation_id} for reservation_id in given.ids]
    for term in given.selector_terms:
        fields = {"id": term.id, "tags": dict(term.tags) if term.tags is not None else None,
                  "ownerID": term.owner_id, "instanceMatchCriteria": term.instance_match_criteria}  # fmt: skip
        terms.append({key: value for key, value in fields.items() if value is not None})
    return terms


def gpu_limit(spec: GpuPoolSpec) -> int:
    """GPUs the pool may hold: ``gpuLimit``, else ``maxSize`` nodes of the instance type's GPUs."""
    return PROVISIONER.summary(spec).max_gpus


def node_pool(spec: GpuPoolSpec) -> dict[str, Any]:
    """The ``karpenter.sh/v1`` NodePool of the pool (named as the pool), on its EC2NodeClass."""
    return karpenter_nodepool.node_pool(spec, NODE_CLASS_API, requirements(spec), gpu_limit(spec))


def node_class(spec: GpuPoolSpec, wiring: KarpenterWiring, placement_group: str | None = None) -> dict[str, Any]:
    """The ``karpenter.k8s.aws/v1`` EC2NodeClass of the pool (named as the pool); an EFA pool's with its network
    interfaces and ``placement_group`` (``eks.launch_template_fabric``)."""
    api_version, kind = NODE_CLASS_API
    groups: Sequence[dict[str, Any]] = [{"id": group} for group in wiring.security_group_ids] or [
        {"tags": {CLUSTER_SG_TAG: wiring.cluster_name}}
    ]
    body: dict[str, Any] = {
        "role": role_name(wiring.node_role),
        "amiSelectorTerms": [{"alias": ec2_node_class.alias(spec)}],
        "subnetSelectorTerms": [{"id": subnet} for subnet in wiring.subnet_ids],
        "securityGroupSelectorTerms": list(groups),
        **ec2_node_class.storage_fields(spec),
    }
    if spec.fabric is not None:
        body["networkInterfaces"] = launch_template_fabric.node_class_interfaces(spec)
        if placement_group:
            body["placementGroupSelector"] = {"name": placement_group}
    terms = reservation_terms(spec)
    if terms:
        body["capacityReservationSelectorTerms"] = terms
    if wiring.tags:
        body["tags"] = dict(wiring.tags)
    return {"apiVersion": api_version, "kind": kind, "metadata": {"name": spec.name}, "spec": body}


NODE_POOL = karpenter_nodepool.NODE_POOL_TABLE
# The EC2NodeClass updates in place as the NodePool does (``karpenter_nodepool.NODE_POOL_TABLE``).
NODE_CLASS = ResourceTable(type=f"kubernetes:{NODE_CLASS_API[0]}:{NODE_CLASS_API[1]}", rules=(), unlisted="update")


def lifecycle_summary(spec: GpuPoolSpec) -> str:
    """The pool's lifecycle in one line, for the plan table."""
    return (
        f"elastic: Karpenter makes 0-{spec.max_size} nodes on demand (GPU limit {gpu_limit(spec)}, counted as "
        f"nodes report: {karpenter_nodepool.limits_text(spec, gpu_limit(spec))}); "
        f"empty nodes removed after {CONSOLIDATE_AFTER}; {node_disruption.summary(spec)}; "
        f"{ec2_node_class.summary(spec)}"
        + (
            "; EFA: the EC2NodeClass's networkInterfaces and placementGroupSelector (a change drifts every node, "
            "which Karpenter replaces), the placement group deleted after the EC2NodeClass"
            if spec.fabric is not None
            else ""
        )
    )


UNSUPPORTED: Mapping[str, str] = {
    "releaseVersion": "a Karpenter pool pins its AMI alias with imageVersion (e.g. v20260714, or latest); remove "
    "releaseVersion",
    "overrides": "overrides name aws.eks.NodeGroup inputs, which a Karpenter pool does not have; remove them",
    "upgrade": "Karpenter replaces drifted nodes by its disruption budget; remove upgrade",
    "fixedName": "a NodePool keeps its name; remove fixedName",
}
"""Pool keys a Karpenter pool refuses (they configure a node group), with what to do instead."""


KARPENTER_NODE_REPAIR_GATE = "NodeRepair (Helm settings.featureGates.nodeRepair=true)"
"""The feature gate behind Karpenter's node repair.
# aws/karpenter-provider-aws v1.14.1 charts/karpenter/values.yaml L230-233 (settings.featureGates.nodeRepair,
# "ALPHA and is disabled by default"); checked against ../shared by tests/eks/test_repair.py"""


ELASTIC_WIRING = (
    component_entry.ELASTIC_POOL,
    component_entry.Wire(
        "clusterName",
        component_entry.STRING,
        "Name of the existing EKS cluster (selects its security group by tag).",
        True,
    ),
    component_entry.Wire("nodeRoleArn", component_entry.STRING, "IAM role of the nodes: its ARN or its name.", True),
    component_entry.Wire("subnetIds", component_entry.STRINGS, "Subnets of the nodes.", True),
    component_entry.Wire(
        "securityGroupIds",
        component_entry.STRINGS,
        "Security groups of the nodes; absent: the EKS cluster security group.",
    ),
    component_entry.Wire("tags", component_entry.STRING_MAP, "Tags on the EC2 instances."),
)
"""The package inputs wiring a NodePool of the EKS Karpenter provisioners to the cluster (``KarpenterWiring``)."""


class EksKarpenter(KarpenterNodePoolProvisioner):
    """A Karpenter NodePool: nodes made when pods need them, none kept."""

    key: ClassVar[str] = "karpenter"
    cloud: ClassVar[str] = "eks"
    image_version_refusal: ClassVar[str] = ""
    capacities: ClassVar[Mapping[str, CapacityOffer]] = KARPENTER_CAPACITIES
    component: ClassVar[component_entry.ComponentEntry] = component_entry.ComponentEntry(
        name="EksKarpenterGpuPool",
        module="gpuready.eks.karpenter_pool",
        builder="gpuready.eks.karpenter_pool",
        description="A Karpenter NodePool of GPU nodes with its EC2NodeClass (provisioner: karpenter): nodes appear "
        f"when GPU pods need them. Karpenter must already run in the cluster. {component_entry.KUBERNETES_PROVIDER}",
        wiring=(
            *ELASTIC_WIRING,
            component_entry.Wire(
                "karpenterFeatureGates",
                component_entry.STRINGS,
                "Feature gates the cluster's Karpenter runs with on, as its --feature-gates spells them (as "
                "gpuready:karpenterFeatureGates): with NodeOverlay, a pool whose GPUs Karpenter cannot see (MIG mixed, "
                "renamed time-slicing) gets its NodeOverlay instead of a refusal.",
            ),
        ),
    )
    tables: ClassVar[tuple[ResourceTable, ...]] = (NODE_POOL, NODE_CLASS, node_overlay.NODE_OVERLAY_TABLE)
    pool_table: ClassVar[ResourceTable] = NODE_POOL
    scale_decider: ClassVar[ScaleDecider] = KarpenterDecider(
        "Karpenter",
        "aws/karpenter-provider-aws v1.14.1 pkg/providers/instancetype/types.go L336-349 (computeCapacity), "
        "pkg/apis/v1/labels.go L86-99",
        overlay_gate=True,
        overlay_fix="advertise the GPUs as nvidia.com/gpu (MIG strategy: single; time-slicing or MPS without "
        "renameByDefault), or provisioner: node-group",
    )
    repair: ClassVar[RepairFacts | None] = RepairFacts(
        on=f"Karpenter NodeRepair replaces a node whose health conditions stay unhealthy, once the feature gate "
        f"{KARPENTER_NODE_REPAIR_GATE} is on in the cluster's Karpenter (alpha, off by default; gpuready does not "
        "install Karpenter); all AcceleratedHardwareReady repairs are Replace",
        off=None,
        source="aws/karpenter-provider-aws v1.14.1 charts/karpenter/values.yaml settings.featureGates.nodeRepair",
    )
    node_facts: ClassVar[NodeFacts | None] = NodeFacts(
        title="Karpenter (EKS)", object_type=NODE_POOL.type, node_class_group=NODE_CLASS_API[0].split("/")[0],
        pool_label=NODE_POOL_LABEL, marker="karpenter.k8s.aws/", gpu_name_label="karpenter.k8s.aws/instance-gpu-name",
        gpu_count_label="karpenter.k8s.aws/instance-gpu-count",
        gpu_manufacturer_label="karpenter.k8s.aws/instance-gpu-manufacturer",
        gpu_memory_label="karpenter.k8s.aws/instance-gpu-memory",
        instance_family_label="karpenter.k8s.aws/instance-family",
        reservation_terms="capacityReservationSelectorTerms",
    )  # fmt: skip

    def spec_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        given = {
            "releaseVersion": spec.release_version,
            "overrides": spec.overrides or None,
            "upgrade": None if spec.upgrade == UpgradePolicy() else spec.upgrade,
            "fixedName": spec.fixed_name,
        }
        found = refusals.restricted_label_problems(spec.labels, RESTRICTED_LABEL_DOMAINS)
        found.extend(refusals.unsupported_problems(self.key, given, UNSUPPORTED))
        found.extend(ec2_node_class.image_version_problems(spec))
        if spec.reservation is not None and spec.capacity in self.capacities:
            found.extend(reservation.selector_problems(spec, NODE_CLASS_API[1]))
        return found


PROVISIONER = EksKarpenter()
"""The one instance (provisioners hold no state)."""
