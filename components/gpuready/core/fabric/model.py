"""The fabric of a pool's nodes: what a pool asks for (``FabricSpec``), what an instance type has (``TypeFabric``),
and what a cloud knows and decides about it (``CloudFabric``, set on the cloud profile as ``fabric``). Pure.

A cloud fills ``CloudFabric.types`` from its own machine-readable table (EKS: EC2 ``NetworkInfo`` via moto, in
``gpuready.eks.fabric_facts``) and adds its own rules and workload fields by overriding the hooks; callers never
compare cloud names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from gpuready.errors import Problem
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

FabricKind = Literal["efa", "gpudirect-tcpx", "gpudirect-tcpxo", "gpudirect-rdma", "infiniband"]
FABRIC_KINDS: tuple[FabricKind, ...] = ("efa", "gpudirect-tcpx", "gpudirect-tcpxo", "gpudirect-rdma", "infiniband")
StackItem = tuple[str, Mapping[str, Any]]
"""A resource of a stack as the policy hooks read it: (type token, props)."""
CREATE = "create"
"""``placementGroup: create``: gpuready makes the pool's placement group (and deletes it with the pool)."""


@record(frozen=True, kw_only=True, slots=True)
class FabricNetwork:
    """One additional node network (GKE multi-networking: the VPC and subnet of one extra NIC)."""

    network: str
    subnetwork: str


@record(frozen=True, kw_only=True, slots=True)
class FabricSpec:
    """``fabric``: the node-to-node fabric a pool's nodes get (``fabric: efa`` is ``FabricSpec(kind="efa")``)."""

    kind: FabricKind
    placement_group: str | None = None
    """``create`` (gpuready makes a cluster placement group), the name of one made elsewhere, or None: the cloud's
    default (``CloudFabric.default_placement``)."""
    networks: tuple[FabricNetwork, ...] = ()
    """Additional node networks, where the cloud's fabric needs them named (GKE)."""


@record(frozen=True, kw_only=True, slots=True)
class TypeFabric:
    """The fabric one instance type has, from the cloud's machine-readable data."""

    kind: FabricKind
    devices: int
    """Fabric devices per node (EFA interfaces, NICs, HCAs): what a whole-node job requests."""
    cards: tuple[int, ...] = ()
    """Network cards that take a fabric interface (EC2 ``NetworkCards[].NetworkCardIndex`` with ``efa-only``)."""
    primary_card: int = 0
    """The network card of the node's primary interface (EC2 ``DefaultNetworkCardIndex``)."""


@record(frozen=True, kw_only=True, slots=True)
class FabricWorkload:
    """What a workload's pods need to use the fabric of a pool: extended resources per pod, environment,
    pod annotations, and hugepages."""

    resources: Mapping[str, int] = field(default_factory=dict)
    env: Mapping[str, str] = field(default_factory=dict)
    annotations: Mapping[str, str] = field(default_factory=dict)
    hugepages: Mapping[str, str] = field(default_factory=dict)
    """``hugepages-2Mi`` -> quantity (requests and limits alike)."""
    sidecars: tuple[Mapping[str, Any], ...] = ()
    """Containers the pods run beside the workload's own (GKE TCPX/TCPXO: RxDM)."""
    volumes: tuple[Mapping[str, Any], ...] = ()
    """Pod volumes the sidecars and containers mount."""
    container: Mapping[str, Any] = field(default_factory=dict)
    """What each workload container adds: ``env`` and ``volumeMounts`` entries, ``capabilities`` to add."""
    shell_setup: tuple[str, ...] = ()
    """Shell lines a container runs before NCCL (GKE GPUDirect-RDMA: the gIB plugin's ``set_nccl_env.sh``)."""


@record(frozen=True, kw_only=True, slots=True)
class NodeFabric:
    """What a fabric pool's node advertises once its fabric is set up, and what to do when it does not
    (``gpuready verify`` / ``check``); ``{node}`` in ``fix`` is the node's name."""

    kind: FabricKind
    resources: Mapping[str, int]
    """Extended resource -> devices the node should advertise as allocatable."""
    missing_cause: str
    """Why a node advertises none of a resource."""
    short_cause: str
    """Why a node advertises fewer devices than its type has."""
    fix: str


class CloudFabric:
    """What a cloud knows about node fabrics; the defaults are "none here"."""

    types: Mapping[str, TypeFabric] = {}
    """Instance type -> its fabric (types absent have none)."""
    default_placement: str | None = None
    """What ``placementGroup`` is when not given (EKS: ``create``)."""
    plugin_adapter: str | None = None
    """``module:function`` installing what the cluster needs for the stack's fabric pools (EKS: the EFA device
    plugin's release), called as ``function(pool specs, provider, depends_on)``; None: nothing to install."""

    policy_types: tuple[str, ...] = ()
    """Resource types ``policy_problems`` reads beside the pools (EKS: launch templates)."""
    resource_names: tuple[str, ...] = ()
    """Extended resources the cloud's fabric device plugins advertise (EKS: ``vpc.amazonaws.com/efa``)."""
    networks: Mapping[str, int] = {}
    """Instance types whose fabric needs additional node networks -> how many (GKE GPUDirect)."""
    policy_networks_field: str = ""
    """Dotted path of a pool resource's additional node networks (the policy pack counts them)."""
    charts: Mapping[str, str] = {}
    """Helm charts the cloud installs for its fabric pools -> the chart version gpuready pins (the policy pack's
    ``gpu-helm-release-version-pinned`` allows it by default)."""
    nccl_networks: Mapping[str, tuple[str, ...]] = {}
    """Fabric kind -> the NCCL networks (``NCCL INFO Using network <name>``) that prove NCCL runs over it: its net
    plugin's ``ncclNet_t.name``, or NCCL's own ``IB``; the smoke run's two-node all-reduce is judged by them."""
    nccl_images: Mapping[str, str] = {}
    """Fabric kind -> the default image of the smoke run's two-node all-reduce, where an upstream source documents
    one that carries ``torchrun``, NCCL and the fabric's NCCL net plugin (EKS: an AWS Deep Learning Container with
    aws-ofi-nccl); kinds absent take ``smoke_image.DEFAULT_NCCL_IMAGE``."""

    def type_resources(self, instance_type: str) -> dict[str, int]:
        """Extended resource -> devices a node of ``instance_type`` advertises once its fabric is set up."""
        return {}

    def policy_problems(
        self, where: str, props: Mapping[str, Any], instance_types: Sequence[str], stack: Sequence[StackItem]
    ) -> list[str]:
        """The policy pack's findings on a GPU pool resource of any program (``props``, its pool fields under
        ``where``) whose types have a fabric it does not set up; ``stack``: (type, props) of the stack's other
        resources (a launch template the pool uses)."""
        return []

    def problems(self, spec: GpuPoolSpec, fabric: FabricSpec) -> list[Problem]:
        """The cloud's own rules for a fabric pool (zones, provisioner, placement)."""
        return []

    def resources(self, spec: GpuPoolSpec) -> dict[str, int]:
        """Extended resource -> devices per node the fabric's device plugin advertises."""
        return {}

    node_causes: tuple[str, str] = ("", "")
    """Why a fabric node advertises none of its devices, and why fewer than its type has (``node_fabric``)."""
    node_fix: str = ""
    """What to check on such a node (``{node}``: its name), ending with a kubectl command."""

    def node_fabric(self, spec: GpuPoolSpec) -> NodeFabric | None:
        """What ``spec``'s nodes advertise of their fabric (``resources``), with the cloud's advice when they do not;
        None without a fabric or when its devices show on no node resource."""
        resources = self.resources(spec)
        if spec.fabric is None or not resources:
            return None
        missing, short = self.node_causes
        return NodeFabric(kind=spec.fabric.kind, resources=resources, missing_cause=missing, short_cause=short,
                          fix=self.node_fix)  # fmt: skip

    def workload(self, spec: GpuPoolSpec, share: Fraction) -> FabricWorkload:
        """What a pod on ``spec``'s pool requests and sets to use the fabric, taking ``share`` of a node's GPUs
        (1: a whole-node job, all of the node's fabric devices)."""
        return FabricWorkload()

    def summary(self, spec: GpuPoolSpec) -> str:
        """The fabric in a few words, for the plan's FABRIC column."""
        fabric = spec.fabric
        return "-" if fabric is None else fabric.kind

    def outputs(self, spec: GpuPoolSpec) -> dict[str, Any]:
        """What a pool publishes of its fabric (the plan's ``fabric``): ``{}`` without one."""
        fabric = spec.fabric
        if fabric is None:
            return {}
        devices = self.devices(spec)
        return {"kind": fabric.kind, "devices": devices, "placementGroup": self.placement(fabric),
                "summary": self.summary(spec)}  # fmt: skip

    def cluster_objects(self, pools: Sequence[GpuPoolSpec]) -> list[Mapping[str, Any]]:
        """Kubernetes objects the stack's fabric pools of this cloud need in the cluster (networks, installers,
        NicClusterPolicy), in creation order; a ``helm.sh/v3`` ``Release`` manifest is a Helm release, and what
        follows it waits for it (its CRDs)."""
        return []

    def stack_problems(self, spec: GpuPoolSpec, stack_kind: str) -> list[Problem]:
        """Problems of a fabric pool under the stack's ``gpuStack.kind`` (the software its fabric needs)."""
        return []

    def operator_values(self, pools: Sequence[GpuPoolSpec]) -> dict[str, Any]:
        """GPU Operator values the pools' fabrics need, by top-level section (merged into the section)."""
        return {}

    def type_of(self, spec: GpuPoolSpec, fabric: FabricSpec) -> str:
        """An instance type of the pool with ``fabric`` (called once the types are known to have it): the one it
        names, the first of those it names, else the first of the cloud's types with the kind (``gpuRequirements``)."""
        given = spec.instance_type
        if isinstance(given, str):
            return given
        if given:
            return given[0]
        return next(name for name, found in sorted(self.types.items()) if found.kind == fabric.kind)

    def devices(self, spec: GpuPoolSpec) -> int:
        """Fabric devices per node of the pool (what ``outputs`` publishes): those its device plugin advertises."""
        return sum(self.resources(spec).values())

    def placement(self, fabric: FabricSpec) -> str | None:
        """The pool's placement group: given, else the cloud's default."""
        return fabric.placement_group if fabric.placement_group is not None else self.default_placement


NO_FABRIC = CloudFabric()
"""A cloud without fabric facts (the profile's default)."""


def fabric_container(container: Mapping[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    """``container`` with a fabric's ``env`` and ``volumeMounts`` entries appended (those of the same name it
    already has kept) and its ``capabilities`` added to ``securityContext.capabilities.add``."""
    merged = dict(container)
    for key in ("env", "volumeMounts"):
        have = list(merged.get(key) or [])
        names = {item.get("name") for item in have if isinstance(item, Mapping)}
        added = [dict(item) for item in fields.get(key) or () if item.get("name") not in names]
        if added:
            merged[key] = [*have, *added]
    wanted = list(fields.get("capabilities") or ())
    if wanted:
        context = dict(merged.get("securityContext") or {})
        capabilities = dict(context.get("capabilities") or {})
        present = list(capabilities.get("add") or [])
        capabilities["add"] = [*present, *(c for c in wanted if c not in present)]
        context["capabilities"] = capabilities
        merged["securityContext"] = context
    return merged
