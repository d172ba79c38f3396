"""What a GPU node should look like: from its pool's spec, or inferred for nodes gpuready did not create. Pure.

Pool expectations come from the same pure functions that built the pool (``pool_labels``, ``pool_taints``,
the pool's advertiser's ``allocatable_per_node``), so verification can never drift from what was deployed.
A foreign node only gets what every GPU node should have: ``nvidia.com/gpu.present``, the accelerator labels,
the GPU taint, and its GPUs advertised (as many as its instance type has, when that is known and nothing
shares or partitions them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field

from gpuready.core.advertisers.extended_resources import EXTENDED_RESOURCES
from gpuready.core.advertisers.registry import advertiser_for_node, is_gpu_resource
from gpuready.core.conventions import DEFAULT as DEFAULT_CONVENTIONS
from gpuready.core.conventions import Conventions
from gpuready.core.fabric.model import NodeFabric
from gpuready.core.quantities import whole_count
from gpuready.core.scheduling import (
    LABEL_ACCELERATOR,
    LABEL_GPU_PRESENT,
    LABEL_SKYPILOT_ACCELERATOR,
    pool_labels,
    pool_taints,
)
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.record import record
from gpuready.verify.fabric import infer_node_fabric
from gpuready.verify.inference import Inference, catalog_instance_type
from gpuready.verify.node_labels import LABEL_GFD_COUNT, LABEL_GFD_PRODUCT
from gpuready.verify.node_sharing import node_sharing
from gpuready.verify.nodes import NodeView
from gpuready.verify.provisioned import gpu_count, node_origin


@record(frozen=True, kw_only=True, slots=True)
class Expectation:
    """What one node should carry."""

    pool: str | None
    """The gpuready pool, or None for a node no known pool owns (then everything below was inferred)."""
    accelerator: str | None
    """Canonical GPU model key (``h100``), or None when it cannot be told."""
    gpus_per_node: int | None
    """Physical GPUs per node, when known."""
    labels: Mapping[str, str] = field(default_factory=dict)
    taints: tuple[Taint, ...] = ()
    allocatable: Mapping[str, int] = field(default_factory=dict)
    """Resource -> units the node should advertise (as its advertiser names them); empty when unknown."""
    replicas: int | None = None
    """Time-slicing / MPS shares per GPU, when the GPUs are shared."""
    mig: bool = False
    """The GPUs are MIG-partitioned."""
    cloud_partition_size: str | None = None
    """The MIG partition the cloud's partition label must name (``CloudNodeLabels.partition_size``: GKE's)."""
    cloud_shared_clients: int | None = None
    """The clients per GPU the cloud's sharing label must count (``CloudNodeLabels.shared_clients``: GKE's)."""
    gfd_expected: bool = False
    """The GPU Operator (and its GPU Feature Discovery) runs on the pool: it owns the driver or the MIG layout."""
    exact_taint_values: bool = True
    """Taints must match value and effect; foreign nodes only need the GPU taint's key and NoSchedule."""
    expected_nodes: int = 0
    """Nodes the pool should have right after deploy (its provisioner's bounds: the initial size of a sized group,
    none for an elastic pool, whose nodes appear on demand)."""
    elastic: bool = False
    """The pool's nodes are made on demand (Karpenter, EKS Auto Mode, NAP, ComputeClass): none may be there yet."""
    provisioner: str = ""
    """Registry key of an elastic pool's provisioner (``karpenter``), for reports; "" for a sized group and for a
    foreign node."""
    advertiser: str = EXTENDED_RESOURCES.key
    """Registry key of the advertiser whose resources the node should carry (it picks the resource checks)."""
    devices: Mapping[str, int] = field(default_factory=dict)
    """DeviceClass -> devices the node should publish in ResourceSlices (DRA); empty when none or unknown."""
    sharing_evidence: str = ""
    """For a foreign node: the node's own labels its sharing or MIG expectation was read from
    (``nvidia.com/device-plugin.config=time-slicing-x4``); "" for a pool's nodes and for unshared nodes."""
    accelerator_evidence: str = ""
    """For a foreign node: where ``accelerator`` was read from (``instance type g6.xlarge``), for messages; "" for a
    pool's nodes (the pool declares it)."""
    fabric: NodeFabric | None = None
    """A fabric pool's node: the fabric devices it should advertise (``verify.fabric``); None otherwise."""

    @property
    def inferred(self) -> bool:
        """True for a foreign node's expectation."""
        return self.pool is None


def expectation_for(spec: GpuPoolSpec) -> Expectation:
    """The expectation for every node of a gpuready pool."""
    model = spec.resolved.gpu.model
    sharing = spec.sharing
    delivered_by = spec.resolved.delivery
    cloud_delivered = delivered_by == "cloud"
    replicas = sharing.replicas if isinstance(sharing, GpuSharing) else None
    labelled = spec.profile.cloud_sharing_labels and cloud_delivered
    advertiser = spec.resolved.advertiser
    provisioner = spec.resolved.provisioner
    bounds = provisioner.bounds(spec)
    return Expectation(
        pool=spec.name,
        accelerator=model.key,
        gpus_per_node=spec.resolved.gpu.gpus,
        labels=pool_labels(spec),
        taints=pool_taints(spec),
        allocatable=advertiser.allocatable_per_node(spec),
        replicas=replicas,
        mig=isinstance(sharing, MigPartitioning),
        cloud_partition_size=sharing.profile if labelled and isinstance(sharing, MigPartitioning) else None,
        cloud_shared_clients=replicas if labelled else None,
        gfd_expected=spec.driver == "operator" or delivered_by == "mig-manager",
        expected_nodes=bounds.expected_nodes,
        elastic=bounds.elastic,
        provisioner=provisioner.key if bounds.elastic else "",
        advertiser=advertiser.key,
        devices=advertiser.devices_per_node(spec),
        fabric=spec.profile.fabric.node_fabric(spec),
    )


def infer_expectation(
    view: NodeView, inference: Inference | None, conventions: Conventions = DEFAULT_CONVENTIONS
) -> Expectation:
    """The expectation for a GPU node that no known gpuready pool owns: what its own labels ask for
    (``node_sharing``: device-plugin config, MIG layout, the cloud's sharing labels, GFD) on the GPUs it has, with
    the team's GPU taint and labels (``conventions``)."""
    labels = view.labels
    listed = catalog_instance_type(view)
    advertiser = advertiser_for_node(view.capacity, labels)
    model = inference.model if inference is not None else None
    sharing = node_sharing(labels, model, shows_partitions=advertiser.shows_partitions(view.capacity))
    mig = sharing.mig or advertiser.shows_partitions(view.capacity)
    gpus = listed.gpus if listed is not None else None
    origin = node_origin(labels)
    if gpus is None and origin is not None:
        gpus = gpu_count(origin, labels)
    if gpus is None and not mig:
        gpus = whole_count(labels.get(LABEL_GFD_COUNT, ""))
    expected_labels = {LABEL_GPU_PRESENT: "true"}
    if inference is not None:
        expected_labels[LABEL_ACCELERATOR] = inference.model.key
        if conventions.skypilot_labels:
            expected_labels[LABEL_SKYPILOT_ACCELERATOR] = inference.model.skypilot
    replicas = None if mig else sharing.replicas
    allocatable = advertiser.inferred_allocatable(
        view.capacity, gpus, replicas, mig=mig, renamed=sharing.renamed,
        mig_layout=sharing.mig_layout, mig_strategy=sharing.mig_strategy,
    )  # fmt: skip
    return Expectation(
        pool=None,
        accelerator=model.key if model is not None else None,
        gpus_per_node=gpus or None,
        labels=expected_labels,
        taints=(conventions.gpu_taint,),
        allocatable=allocatable,
        replicas=replicas,
        mig=mig,
        exact_taint_values=False,
        advertiser=advertiser.key,
        sharing_evidence=sharing.describe() if (replicas or mig) else "",
        accelerator_evidence=describe_inference(inference) if inference is not None else "",
        fabric=infer_node_fabric(view),
    )


def describe_inference(inference: Inference) -> str:
    """Where a node's GPU model was read from, for messages: ``instance type g6.xlarge``."""
    if inference.source == "provisioner-label":
        return inference.evidence  # already label=value
    where = {
        "gfd-product": f"GFD's {LABEL_GFD_PRODUCT}",
        "gke-accelerator": inference.label,
        "instance-type": "instance type",
        "gpuready-label": f"{LABEL_ACCELERATOR}",
    }[inference.source]
    return f"{where} {inference.evidence}" if inference.source == "instance-type" else f"{where}={inference.evidence}"


def advertised_gpu_resources(view: NodeView) -> dict[str, int]:
    """GPU resources the node advertises as allocatable (non-zero only)."""
    return {name: n for name, n in view.allocatable.items() if n > 0 and is_gpu_resource(name)}
