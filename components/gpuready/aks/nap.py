"""AKS node auto-provisioning as a provisioner (``provisioner: nap``): a GPU pool as a ``karpenter.sh/v1``
NodePool and its ``karpenter.azure.com/v1beta1`` AKSNodeClass, built as plain objects. Pure.

Field names and enums are those of the CRDs in ``../shared/reference/upstream/karpenter-azure/``
(Azure/karpenter-provider-azure tag ``v1.14.2``, ``pkg/apis/crds/``): ``imageFamily`` (``Ubuntu``, ``AzureLinux``,
the agent pool's OS SKUs), ``gpu.mode`` (``Driver``: AKS installs the NVIDIA driver; ``None``: the GPU Operator
does), ``osDiskSizeGB`` (30-2048; ``capacity.node_disk``'s default when ``diskSizeGb`` is not set), ``tags``.
The well-known labels are that tag's ``pkg/apis/v1beta1/labels.go`` (``karpenter.azure.com/sku-gpu-count``; the
``karpenter.azure.com`` domain is restricted in NodePool labels).
The NodePool itself is ``gpuready.core.capacity.karpenter_nodepool``'s, as on EKS.

AKS partitions MIG GPUs only by an agent pool's ``gpuInstanceProfile``, which an AKSNodeClass does not have: a
MIG pool on NAP needs the GPU Operator's MIG manager (``driver: operator``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gpuready.aks import plan
from gpuready.aks.capacity import AKS_REPAIR
from gpuready.core import component_entry
from gpuready.core.capacity import karpenter_nodepool, node_disk, node_disruption, refusals
from gpuready.core.capacity.karpenter_provisioner import KarpenterNodePoolProvisioner
from gpuready.core.capacity.node_facts import NodeFacts
from gpuready.core.health.repair import RepairFacts
from gpuready.core.lifecycle import ResourceTable
from gpuready.core.scale_path.karpenter import KarpenterDecider
from gpuready.core.scale_path.model import ScaleDecider
from gpuready.core.specs import GpuPoolSpec, MigPartitioning, UpgradePolicy
from gpuready.errors import Problem

NODE_CLASS_API = ("karpenter.azure.com/v1beta1", "AKSNodeClass")
INSTANCE_TYPE = karpenter_nodepool.INSTANCE_TYPE
GPU_COUNT = "karpenter.azure.com/sku-gpu-count"
GPU_MODE: Mapping[str, str] = {"cloud": "Driver", "operator": "None"}
"""Driver owner -> ``AKSNodeClass.spec.gpu.mode``."""
OS_DISK_GB = (30, 2048)
"""``AKSNodeClass.spec.osDiskSizeGB`` minimum and maximum (CRD v1.14.2)."""
RESTRICTED_LABEL_DOMAINS = ("karpenter.sh", "karpenter.azure.com")
"""Label domains Karpenter refuses in a NodePool template (karpenter.sh's and the Azure provider's)."""


def requirements(spec: GpuPoolSpec) -> list[dict[str, Any]]:
    """The NodePool's node requirements: the VM sizes, their GPU count, architecture and capacity type."""
    return karpenter_nodepool.instance_requirements(spec, GPU_COUNT)


def node_pool(spec: GpuPoolSpec) -> dict[str, Any]:
    """The ``karpenter.sh/v1`` NodePool of the pool, on its AKSNodeClass; GPU limit ``gpuLimit`` or ``maxSize`` x
    GPUs per node."""
    limit = PROVISIONER.summary(spec).max_gpus
    return karpenter_nodepool.node_pool(spec, NODE_CLASS_API, requirements(spec), limit)


def node_class(spec: GpuPoolSpec, tags: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The ``karpenter.azure.com/v1beta1`` AKSNodeClass of the pool (named as the pool); ``tags`` are the stack's
    ``gpuready:tags`` for the VMs."""
    body: dict[str, Any] = {"imageFamily": plan.OS_SKUS[spec.image_family], "gpu": {"mode": GPU_MODE[spec.driver]}}
    body["osDiskSizeGB"] = node_disk.size_gb(spec)
    if tags:
        body["tags"] = dict(tags)
    api_version, kind = NODE_CLASS_API
    return {"apiVersion": api_version, "kind": kind, "metadata": {"name": spec.name}, "spec": body}


def driver_summary(spec: GpuPoolSpec) -> str:
    """Who owns the driver, as the plan table shows it (the AKSNodeClass's ``gpu.mode``)."""
    owner = "AKS" if spec.driver == "cloud" else "GPU Operator"
    return f"{owner} (AKSNodeClass gpu.mode={GPU_MODE[spec.driver]})"


def lifecycle_summary(spec: GpuPoolSpec) -> str:
    """The pool's lifecycle in one line, for the plan table."""
    return (
        f"NodePool {spec.name} (AKS node auto-provisioning): nodes made when GPU pods are pending, none kept; "
        f"only empty nodes consolidated; {node_disruption.summary(spec)}; OS disk {node_disk.size_gb(spec)} GB; "
        "NAP takes the image family's newest node image, and each new one drifts the nodes (no field pins it)"
    )


NODE_POOL = karpenter_nodepool.NODE_POOL_TABLE
# The AKSNodeClass updates in place as the NodePool does (``karpenter_nodepool.NODE_POOL_TABLE``).
NODE_CLASS = ResourceTable(type=f"kubernetes:{NODE_CLASS_API[0]}:{NODE_CLASS_API[1]}", rules=(), unlisted="update")

UNSUPPORTED: Mapping[str, str] = {
    "overrides": "overrides name AgentPool inputs, which a NAP pool does not have; remove them",
    "upgrade": "Karpenter replaces drifted nodes by its disruption budget; remove upgrade",
    "fixedName": "a NodePool keeps its name; remove fixedName",
    "zones": "NAP picks zones by its requirements (not planned yet); remove zones",
}
IMAGE_VERSION_REFUSAL = (
    "an AKSNodeClass has no image version field (v1.14.2 spec: imageFamily, osDiskSizeGB, gpu, kubelet, ... ): NAP "
    "runs the family's newest node image; remove imageVersion (the Drifted budget paces the replacements)"
)
"""Pool keys a NAP pool refuses (they configure an agent pool), with what to do instead."""


class AksNodeAutoProvisioning(KarpenterNodePoolProvisioner):
    """A NAP (Karpenter) NodePool on AKS: nodes made when pods need them, none kept."""

    key: ClassVar[str] = "nap"
    cloud: ClassVar[str] = "aks"
    image_version_refusal: ClassVar[str] = IMAGE_VERSION_REFUSAL
    component: ClassVar[component_entry.ComponentEntry] = component_entry.ComponentEntry(
        name="AksNapGpuPool",
        module="gpuready.aks.nap_pool",
        builder="gpuready.aks.nap_pool",
        description="An AKS node auto-provisioning NodePool of GPU nodes with its AKSNodeClass (provisioner: nap). NAP "
        f"must be enabled on the cluster. {component_entry.KUBERNETES_PROVIDER}",
        wiring=(
            component_entry.ELASTIC_POOL,
            component_entry.Wire("tags", component_entry.STRING_MAP, "Azure tags of the VMs."),
        ),
        known_wiring=True,
    )
    tables: ClassVar[tuple[ResourceTable, ...]] = (NODE_POOL, NODE_CLASS)
    pool_table: ClassVar[ResourceTable] = NODE_POOL
    # AKS runs NAP's Karpenter: its settings (IGNORE_DRA_REQUESTS, feature gates such as NodeOverlay) are AKS's.
    scale_decider: ClassVar[ScaleDecider] = KarpenterDecider(
        "AKS node auto-provisioning",
        "Azure/karpenter-provider-azure v1.14.2 pkg/providers/instancetype/instancetype.go L269-278 (computeCapacity)",
        overlay_gate=False,
        overlay_fix="advertise the GPUs as nvidia.com/gpu (MIG strategy: single; time-slicing or MPS without "
        "renameByDefault), or provisioner: node-pool",
    )
    repair: ClassVar[RepairFacts | None] = AKS_REPAIR
    capacity_limit_reason: ClassVar[str] = (
        "its AKSNodeClass has no capacity reservation group or placement group field: Azure/karpenter-provider-azure "
        "v1.14.2 karpenter.azure.com_aksnodeclasses.yaml"
    )
    node_facts: ClassVar[NodeFacts | None] = NodeFacts(
        title="AKS node auto-provisioning", object_type=NODE_POOL.type,
        node_class_group=NODE_CLASS_API[0].split("/")[0], pool_label=karpenter_nodepool.NODE_POOL_LABEL,
        marker="karpenter.azure.com/", gpu_name_label="karpenter.azure.com/sku-gpu-name", gpu_count_label=GPU_COUNT,
        gpu_manufacturer_label="karpenter.azure.com/sku-gpu-manufacturer",
        instance_family_label="karpenter.azure.com/sku-family",
    )  # fmt: skip

    def spec_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        found = refusals.restricted_label_problems(spec.labels, RESTRICTED_LABEL_DOMAINS)
        if isinstance(spec.sharing, MigPartitioning) and spec.driver == "cloud":
            found.append(
                Problem("driver", "AKS partitions MIG GPUs only in agent pools (gpuInstanceProfile); an AKSNodeClass "
                        "cannot", spec.driver, ("operator",),
                        "use driver: operator (the GPU Operator's MIG manager partitions NAP nodes), or "
                        "provisioner: node-pool")
            )  # fmt: skip
        given = {
            "overrides": spec.overrides or None,
            "upgrade": None if spec.upgrade == UpgradePolicy() else spec.upgrade,
            "fixedName": spec.fixed_name,
            "zones": spec.zones or None,
        }
        found.extend(refusals.unsupported_problems(self.key, given, UNSUPPORTED))
        found.extend(node_disk.range_problems(spec, OS_DISK_GB[0], None, "AKSNodeClass osDiskSizeGB"))
        return found


PROVISIONER = AksNodeAutoProvisioning()
"""The one instance (provisioners hold no state)."""
