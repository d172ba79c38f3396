"""The one normalised record of a GPU pool read back from the resource that declares it. Pure.

Every pool resource is written by one provisioner (``Provisioner``) and read back by that provisioner's reader
(``Provisioner.readers``: Pulumi type token -> ``PoolReader``), which lives beside the code that writes it in the
provisioner's package. Whoever reads a pool (the policy pack, ``gpuready diff``, the round-trip tests) gets a
``PoolFacts``, whatever program planned the resource, and never reads its raw properties by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import TYPE_CHECKING, Any, Literal, cast

from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.k8s_syntax import TaintEffect
from gpuready.core.props import as_mapping, as_text, dig
from gpuready.core.taints import UPPER_SNAKE_EFFECTS, Taint, parse_taint_text
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.capacity.pool_settings import HealthOff, MigSetting, NodeImage
    from gpuready.core.catalog.gpus import GpuModel
    from gpuready.core.clouds.catalog_facts import CloudCatalog
    from gpuready.core.clouds.policy_reading import PolicyReading
    from gpuready.core.clouds.registry import Cloud


@record(frozen=True, kw_only=True, slots=True)
class PoolFacts:
    """One GPU pool as its resource declares it, whichever provisioner wrote it."""

    cloud: Cloud
    provisioner: str
    """Key of the provisioner that writes the resource (``node-group``, ``karpenter``...), "" when not known."""
    kind: str = ""
    """The Kubernetes kind of an elastic pool's object (``NodePool``, ``ComputeClass``); "" for a cloud pool."""
    where: str = ""
    """Field prefix of the pool inside its resource: ``""``, or ``agentPoolProfiles[1].`` in a ManagedCluster."""
    name: str
    """The pool's own name where the resource gives one, else ``""``."""
    props: Mapping[str, Any]
    """The pool's properties (the profile's, inside a ManagedCluster), for the checks not read into the record yet
    (the node fabric's: ``CloudFabric.policy_problems``)."""
    reading: PolicyReading = field(repr=False, compare=False)
    """How the pool's cloud reads and fixes its pool resources (the policy pack's questions), resolved by the
    reader once."""
    catalog: CloudCatalog = field(repr=False, compare=False)
    """The pool's cloud's GPU catalog (its instance types and their node fabrics: the fabric rules read it), the
    same profile the reader resolved."""
    why: str = ""
    """What makes an elastic pool a GPU pool, e.g. ``requirement karpenter.k8s.aws/instance-gpu-count In ['1']``."""
    instance_types: tuple[str, ...] = ()
    model: GpuModel | None = None
    """The GPU, when the catalog knows the instance type or accelerator."""
    arch: str | None = None
    taints: tuple[Taint, ...] = ()
    taints_field: str
    """Field path of the taints inside the resource (with ``where``)."""
    refused_taints: tuple[Taint, ...] = ()
    """Those of ``taints`` whose value the cloud refuses (GKE requires one: ``SpecRules.taint_value_problems``)."""
    raw_taints: Any = ()
    """The taints as the resource spells them (a list of entries, unless the resource is malformed)."""
    labels: Mapping[str, str] = field(default_factory=dict)
    labels_field: str
    """Field path of the node labels inside the resource (with ``where``)."""
    min_nodes: int | None = None
    """The autoscaling minimum the resource sets (a whole number), else None."""
    min_nodes_field: str = ""
    """Field path of that minimum (with ``where``), "" when the resource sets none."""
    max_nodes: int | None = None
    """The most nodes the resource allows (a whole number), else None."""
    desired_nodes: int | None = None
    """The nodes the resource asks for at creation (a whole number), else None."""
    gpus_per_node: int | None = None
    """The GPUs each node has (the catalog's count for the instance type, or the accelerators attached), else None."""
    gpu_limit: int | None = None
    """The ``nvidia.com/gpu`` limit of an elastic pool's object, else None."""
    creation_only: tuple[str, ...] = ()
    """Inputs (camelCase paths) the resource must read at creation only (``ignoreChanges``): its initial node count
    once an autoscaler owns the size (a cluster's inline profiles are left out: their counts live in one list with
    the cluster's own settings)."""
    elastic: bool = False
    """Nodes are made on demand from an object (NodePool, ComputeClass), not kept in a sized group."""
    title: str = ""
    """How messages name the elastic provisioner whose object this is (``Karpenter (EKS)``), "" for a cloud pool or
    an object no provisioner claims."""
    untainted_note: str = ""
    """What follows when an elastic object does not taint its GPU nodes (its provisioner's)."""
    reservation_terms: str = ""
    """The field of the node class an elastic object references that selects capacity reservations
    (``capacityReservationSelectorTerms``), "" when its provisioner's node class has none."""
    driver_owner: str = ""
    """Who installs the NVIDIA driver on the pool's nodes outside the GPU stack (``AKS (gpuProfile.driver=...)``),
    or "" (always "" for an elastic pool, whose node class decides it)."""
    platform_plugin: str = ""
    """Who runs a device plugin on the pool's nodes outside the GPU stack (``GKE``, ``EKS Auto Mode``), or ""."""
    image: NodeImage | None = None
    """The node image the resource names for its GPUs, when its cloud's resource names one (EKS ``amiType``)."""
    mig: tuple[MigSetting, ...] = ()
    """The MIG partitioning the cloud's own fields ask of the pool's GPU, one per field that sets one."""
    shared_clients: tuple[SharedClients, ...] = ()
    """The cloud's own GPU time-sharing settings on the pool (clients per GPU), one per field that sets one."""
    health_off: HealthOff | None = None
    """The setting that turns off the cloud's own GPU health checks on the pool's nodes, or None."""
    capacity_problems: tuple[str, ...] = ()
    """How the resource breaks the capacity rules of its provisioner (reservations, queued and flex-start
    capacity: ``Provisioner.policy_capacity_problems``), field and fix in each."""
    limits: Mapping[str, Any] = field(default_factory=dict)
    """An elastic object's resource limits as written (a NodePool's ``spec.limits``)."""
    fixed_count: bool = False
    """The object keeps a fixed count of nodes (a static NodePool's ``spec.replicas``): no limit or consolidation
    applies."""
    consolidation: str | None = None
    """The consolidation policy an elastic object sets (a NodePool's ``spec.disruption.consolidationPolicy``), None
    when it sets none (its provisioner's default applies)."""
    consolidation_blocked: bool = False
    """Consolidation never deletes a node that still runs pods (turned off, or a budget that always blocks it)."""

    @property
    def mig_capable(self) -> bool:
        """Whether the pool's GPU can be MIG-partitioned."""
        return self.model is not None and self.model.mig is not None


@record(frozen=True, slots=True)
class SharedClients:
    """A cloud's own GPU time-sharing setting on a pool: how many clients share each GPU."""

    field: str
    """Its field path inside the resource."""
    value: object
    """As written."""
    most: int
    """The most clients per GPU the cloud allows."""
    setting: str
    """The setting to drop for whole GPUs (``gpuSharingConfig``)."""


ShapeKind = Literal["list", "object"]
OwnSetting = Literal["image", "sharing"]
"""A cloud's own pool setting a policy is scoped to: the node image (``PoolFacts.image``), GPU time-sharing
(``PoolFacts.shared_clients``)."""
SHAPE_TESTS: Mapping[ShapeKind, Callable[[object], bool]] = {
    "list": lambda value: isinstance(value, Sequence) and not isinstance(value, str | bytes),
    "object": lambda value: as_mapping(value) is not None,
}
"""How a value of each shape kind is told apart (a string is no list)."""


@record(frozen=True, slots=True)
class PoolReader:
    """Reads the GPU pools (none, one, or several) a resource of one type token declares, from its properties.

    Reading is lenient (what does not have its shape is read as absent), so any program's resource can be read;
    ``shape`` says which of the fields it reads must be lists or objects when set, for a reader that must refuse
    a malformed resource instead (``gpuready diff``: ``readers.shape_problems``)."""

    read: Callable[[Mapping[str, Any]], tuple[PoolFacts, ...]]
    shape: Mapping[str, ShapeKind]
    """Dotted field path -> the shape it must have when set."""
    settings: frozenset[OwnSetting] = frozenset()
    """The cloud's own settings the resource carries, which the reader reads (the policies checking one are
    scoped to the types whose readers read it: ``readers.types_reading``)."""

    def __call__(self, props: Mapping[str, Any]) -> tuple[PoolFacts, ...]:
        return self.read(props)

    def problems(self, props: Mapping[str, Any]) -> tuple[str, ...]:
        """``field: a list, not str`` for every field of ``shape`` set to a value of another shape."""
        found = []
        for path, kind in self.shape.items():
            value = dig(props, *path.split("."))
            if value is not None and not SHAPE_TESTS[kind](value):
                found.append(f"{path}: {'a list' if kind == 'list' else 'an object'}, not {type(value).__name__}")
        return tuple(found)


API_EFFECTS: Mapping[str, str] = {api: effect for effect, api in UPPER_SNAKE_EFFECTS.items()}
"""Cloud API effect spelling (``NO_SCHEDULE``) -> Kubernetes spelling (``NoSchedule``)."""


def api_taint(entry: object) -> Taint | None:
    """A cloud API taint object (``{key, value, effect: NO_SCHEDULE}``) or a Kubernetes one; the effect is kept as
    written when it is not in API spelling, so callers can report it."""
    mapping = as_mapping(entry)
    if mapping is None:
        return None
    key = as_text(mapping.get("key")) or ""
    effect = as_text(mapping.get("effect")) or ""
    return Taint(key, as_text(mapping.get("value")) or "", cast("TaintEffect", API_EFFECTS.get(effect, effect)))


def text_taint(text: str) -> Taint | None:
    """A ``key=value:Effect`` or ``key:Effect`` taint, or None when malformed; the effect is kept as written."""
    parts = parse_taint_text(text)
    return None if parts is None else Taint(parts[0], parts[1], cast("TaintEffect", parts[2]))


def whole(value: object) -> int | None:
    """A whole number given as a number (the engine's are floats) or as digits, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float) and float(value).is_integer() and value >= 0:
        return int(value)
    text = as_text(value)
    return int(text) if text is not None and text.isdigit() else None


def cloud_pool(
    cloud: Cloud,
    provisioner: str,
    props: Mapping[str, Any],
    *,
    where: str = "",
    name: str,
    instance_types: tuple[str, ...],
    model: GpuModel | None,
    arch: str | None,
    taints: tuple[Taint, ...],
    labels: Mapping[str, str],
    fields: tuple[str, str],
    min_size_fields: tuple[str, ...],
    max_nodes: int | None,
    desired_nodes: int | None,
    gpus_per_node: int | None,
    driver_owner: str,
    platform_plugin: str = "",
    creation_only: tuple[str, ...] = (),
    shared_clients: tuple[SharedClients, ...] = (),
    image: NodeImage | None = None,
    mig: tuple[MigSetting, ...] = (),
    health_off: HealthOff | None = None,
) -> PoolFacts:
    """The facts of a cloud's own node pool resource (a node group, agent pool, node pool) as its reader read them
    (``fields``: the paths of its taints and labels; ``min_size_fields``: of its autoscaling minimum, the first one
    set wins), with the taint values its cloud refuses (the profile's ``SpecRules``) and what is wrong with how it
    gets capacity (its provisioner's), asked once here."""
    profile = cloud_profile(cloud)
    found = next(((f, v) for f in min_size_fields if (v := dig(props, *f.split("."))) is not None), None)
    return PoolFacts(
        cloud=cloud,
        provisioner=provisioner,
        where=where,
        name=name,
        props=props,
        reading=profile,
        catalog=profile,
        instance_types=instance_types,
        model=model,
        arch=arch,
        taints=taints,
        refused_taints=tuple(t for t in taints if profile.taint_value_problems(where, t)),
        taints_field=where + fields[0],
        raw_taints=dig(props, *fields[0].split(".")) or [],
        labels=labels,
        labels_field=where + fields[1],
        min_nodes=whole(found[1]) if found is not None else None,
        min_nodes_field=where + found[0] if found is not None else "",
        max_nodes=max_nodes,
        desired_nodes=desired_nodes,
        gpus_per_node=gpus_per_node,
        creation_only=creation_only,
        driver_owner=driver_owner,
        platform_plugin=platform_plugin,
        image=image,
        mig=mig,
        shared_clients=shared_clients,
        health_off=health_off,
        capacity_problems=tuple(profile.provisioners[provisioner].policy_capacity_problems(where, props)),
    )
