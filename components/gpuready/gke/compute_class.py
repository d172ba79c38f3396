"""A GKE custom compute class as a provisioner (``provisioner: compute-class``): a GPU pool as a
``cloud.google.com/v1`` ComputeClass with node-pool auto-creation, built as a plain object. Pure.

Field names and enums are those of the ComputeClass schema in
``../shared/reference/upstream/crds-catalog/cloud.google.com/computeclass_v1.json`` (datreeio/CRDs-catalog
``7b1e26ef``, extracted from GKE 1.33): ``priorities[].gpu`` (``type``, ``count``, ``driverVersion`` ``default`` /
``latest``, ``gpuSharing`` with ``sharingStrategy`` ``TIME_SHARING`` / ``MPS``, ``maxSharedClientsPerGPU`` and
``gpuPartitionSize``), ``priorities[].spot``, ``nodePoolAutoCreation.enabled``, ``nodePoolConfig`` (``imageType``
``cos_containerd`` / ``ubuntu_containerd``, ``nodeLabels``, ``taints``, ``serviceAccount``) and
``whenUnsatisfiable``. The accelerator type, sharing strategies and driver branches are the GKE node pool's
(``gpuready.gke.plan``): one home per fact.

A spot pool lists the machine twice, spot first and on-demand second: GKE tries the priorities in order, so spot
capacity is used when there is some and on-demand otherwise. The class has no field bounding its nodes or GPUs:
``maxSize`` is what ``gpuready plan`` and verification report, and the cluster's node auto-provisioning resource
limit on the accelerator type (``gcp.container.Cluster`` ``clusterAutoscaling.resourceLimits``), which GKE applies to
the pools it creates for a class (GKE docs, "Configure node pool auto-creation", Limitations), is what bounds it;
gpuready does not set that limit yet.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from gpuready.core import component_entry, scheduling
from gpuready.core.capacity import gpu_choice, node_disk, refusals
from gpuready.core.capacity.capacity_offers import CapacityOffer, reading
from gpuready.core.capacity.interface import Provisioner
from gpuready.core.capacity.node_facts import NodeFacts
from gpuready.core.capacity.pool_facts import PoolFacts, PoolReader
from gpuready.core.health.repair import RepairFacts
from gpuready.core.lifecycle import ResourceTable
from gpuready.core.scale_path.model import ScaleDecider
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning, UpgradePolicy
from gpuready.core.taints import Taint
from gpuready.errors import Problem
from gpuready.gke import capacity_rules, plan, pool_reader, reservation_zone
from gpuready.gke.compute_class_capacity import CLASS_CAPACITIES, capacity_rule
from gpuready.gke.scale_path import CLASS_LABEL, ComputeClassDecider, class_taint

API = ("cloud.google.com/v1", "ComputeClass")
TAINT_VALUE = re.compile(r"^([a-z0-9][-A-Za-z0-9_.]{1,61})?[A-Za-z0-9]$")
"""``nodePoolConfig.taints[].value`` in the schema: stricter than Kubernetes (a lowercase or digit first, and one or
at least three characters: ``ml`` is refused)."""
# CLASS_LABEL (``gke.scale_path``): the node label naming a node's ComputeClass, which workloads select the class by
# (GKE docs, "About custom ComputeClasses").
WHEN_UNSATISFIABLE = "DoNotScaleUp"
"""No GPU machine of the class available: leave the pods pending rather than scale up other machines."""


def driver_version(spec: GpuPoolSpec) -> str:
    """``priorities[].gpu.driverVersion``: the pool's driver branch (the schema's ``default`` / ``latest``)."""
    return spec.driver_version or "default"


def driver_summary(spec: GpuPoolSpec) -> str:
    """Who owns the driver, as the plan table shows it: always GKE, on the class's branch."""
    return f"GKE (ComputeClass driverVersion={driver_version(spec)})"


def _gpu(spec: GpuPoolSpec) -> dict[str, Any]:
    """``priorities[].gpu``: accelerator type and count, driver branch, and the sharing GKE applies."""
    accelerator = plan.guest_accelerator(spec)
    gpu: dict[str, Any] = {
        "type": accelerator["type"],
        "count": accelerator["count"],
        "driverVersion": driver_version(spec),
    }
    sharing = spec.sharing
    if isinstance(sharing, GpuSharing):
        gpu["gpuSharing"] = {
            "sharingStrategy": plan.SHARING_STRATEGIES[sharing.mode],
            "maxSharedClientsPerGPU": sharing.replicas,
        }
    elif isinstance(sharing, MigPartitioning) and sharing.profile is not None:
        gpu["gpuSharing"] = {"gpuPartitionSize": sharing.profile}
    return gpu


def priorities(spec: GpuPoolSpec, zones: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The class's priorities: each machine type (``capacity.gpu_choice``: named, or every catalog type with the
    ``gpuRequirements``) with its GPUs, in order, all spot first then on-demand for a spot pool; ``zones`` are
    the stack's (``gpuready:gkeNodeLocations``), the pool's own win."""
    rule: dict[str, Any] = {"gpu": _gpu(spec)}
    if spec.zones or zones:
        rule["location"] = {"zones": list(spec.zones or zones)}
    rule["storage"] = {"bootDiskSize": node_disk.size_gb(spec)}
    rule |= capacity_rule(spec)
    spots = (True, False) if spec.capacity == "spot" else (False,)
    machines = gpu_choice.instance_types(spec)
    return [{"machineType": machine, **rule, "spot": spot} for spot in spots for machine in machines]


def compute_class(spec: GpuPoolSpec, service_account: str | None = None, zones: Sequence[str] = ()) -> dict[str, Any]:
    """The ``cloud.google.com/v1`` ComputeClass of the pool (named as the pool); ``service_account`` is the stack's
    ``gpuready:gkeServiceAccount`` (None: GKE's default for auto-created pools), ``zones`` its node locations."""
    config: dict[str, Any] = {
        "imageType": plan.IMAGE_TYPES[spec.image_family].lower(),
        "nodeLabels": scheduling.pool_labels(spec),
        "taints": [scheduling.to_k8s_taint(taint) for taint in scheduling.pool_taints(spec)],
        "autoRepair": spec.repair.enabled,
    }
    if service_account:
        config["serviceAccount"] = service_account
    api_version, kind = API
    return {
        "apiVersion": api_version,
        "kind": kind,
        "metadata": {"name": spec.name},
        "spec": {
            "priorities": priorities(spec, zones),
            "nodePoolAutoCreation": {"enabled": True},
            "nodePoolConfig": config,
            "whenUnsatisfiable": WHEN_UNSATISFIABLE,
        },
    }


def zone_warning(spec: GpuPoolSpec, zones: Sequence[str] = ()) -> str:
    """What the plan warns of the class's zones: GKE offers each GPU type in some zones only, and gpuready has no
    offline data of which (``profile.GkeProfile.offerings_unchecked``), so it cannot narrow the class's zones to
    those offering the GPU; a zone without it is one GKE may try for nothing."""
    accelerator = plan.guest_accelerator(spec)["type"]
    check = f"check with: gcloud compute accelerator-types list --filter=name={accelerator}"
    chosen = spec.zones or tuple(zones)
    if chosen:
        return (
            f"ComputeClass {spec.name}: whether its zones ({', '.join(chosen)}) offer {accelerator} is not checked "
            f"(gpuready has no data of GPU types per GKE zone); keep only zones that do ({check})"
        )
    return (
        f"ComputeClass {spec.name} names no zones: GKE may try every zone of the cluster's region, and not all offer "
        f"{accelerator}; set the pool's zones (or gkeNodeLocations) to zones that do ({check})"
    )


def lifecycle_summary(spec: GpuPoolSpec) -> str:
    """The pool's lifecycle in one line, for the plan table."""
    return (
        f"ComputeClass {spec.name}: GKE auto-creates node pools when pods select the class, none kept; "
        f"maxSize {spec.max_size} is not enforced by the class (cluster autoscaling resource limits bound it); "
        f"boot disk {node_disk.size_gb(spec)} GB; the node image follows the auto-created pools' GKE version"
    )


# A custom resource's inputs update in place; its only immutable input is metadata.name, the pool's name, which is
# also the component's: a renamed pool is another resource. Nodes follow the class through GKE's auto-created pools.
COMPUTE_CLASS = ResourceTable(type=f"kubernetes:{API[0]}:{API[1]}", rules=(), unlisted="update")

UNSUPPORTED: Mapping[str, str] = {
    "overrides": "overrides name gcp.container.NodePool inputs, which a compute class does not have; remove them",
    "upgrade": "GKE upgrades the pools it auto-creates itself; remove upgrade",
    "fixedName": "a ComputeClass keeps its name; remove fixedName",
    "gpuLimit": "a ComputeClass has no limit field (its v1 schema: priorities, autoscalingPolicy, nodePoolConfig, ... "
    "no limits); bound GPUs with the cluster's node auto-provisioning resource limits; remove gpuLimit",
}
"""Pool keys a compute-class pool refuses (they configure a node pool), with what to do instead."""


CLASS_FACTS = NodeFacts(
    title="GKE ComputeClass", object_type=COMPUTE_CLASS.type, pool_label=CLASS_LABEL, marker="",
    taints_path="spec.nodePoolConfig.taints", labels_path="spec.nodePoolConfig.nodeLabels",
    own_device_plugin="GKE's NVIDIA device plugin (GKE installs the driver of every ComputeClass GPU)",
    own_plugin_opt_out=plan.LABEL_NO_DEVICE_PLUGIN,
    untainted_note="GKE taints its GPU nodes only in clusters that also have a non-GPU node pool",
)  # fmt: skip
"""How a ComputeClass and the nodes GKE makes for it are recognised and read."""


def read_compute_class(props: Mapping[str, Any]) -> tuple[PoolFacts, ...]:
    """The GPU pool a ComputeClass of any program declares (``pool_reader``), with this provisioner's facts."""
    return pool_reader.read_compute_class(props, CLASS_FACTS)


class GkeComputeClass(Provisioner):
    """A custom compute class with node-pool auto-creation: GKE makes GPU node pools when pods select the class."""

    key: ClassVar[str] = "compute-class"
    cloud: ClassVar[str] = "gke"
    image_version_refusal: ClassVar[str] = (
        "a ComputeClass has no image version field (its v1 schema: nodePoolConfig.imageType only): the pools GKE "
        "creates run the node image of their GKE version; remove imageVersion"
    )
    elastic: ClassVar[bool] = True
    component: ClassVar[component_entry.ComponentEntry] = component_entry.ComponentEntry(
        name="GkeComputeClassGpuPool",
        module="gpuready.gke.compute_class_pool",
        builder="gpuready.gke.compute_class_pool",
        description="A GKE ComputeClass of GPU machines with node-pool auto-creation (provisioner: compute-class). "
        f"Node auto-provisioning must be on in the cluster. {component_entry.KUBERNETES_PROVIDER}",
        wiring=(
            component_entry.ELASTIC_POOL,
            component_entry.Wire(
                "serviceAccount", component_entry.STRING, "Service account e-mail of the auto-created node pools."
            ),
            component_entry.Wire(
                "nodeLocations",
                component_entry.STRINGS,
                "Zones of the nodes unless the pool names its own; absent: any zone.",
            ),
        ),
        known_wiring=True,
    )
    tables: ClassVar[tuple[ResourceTable, ...]] = (COMPUTE_CLASS,)
    pool_table: ClassVar[ResourceTable] = COMPUTE_CLASS
    scale_decider: ClassVar[ScaleDecider] = ComputeClassDecider()
    repair: ClassVar[RepairFacts | None] = RepairFacts(
        on="GKE node auto-repair on the node pools GKE creates for the class (nodePoolConfig.autoRepair true): a node "
        "that stays NotReady about 10 min is recreated",
        off="nodePoolConfig.autoRepair false on the ComputeClass",
        source="cloud.google.com/v1 ComputeClass schema nodePoolConfig.autoRepair",
    )
    node_facts: ClassVar[NodeFacts | None] = CLASS_FACTS
    readers: ClassVar[Mapping[str, PoolReader]] = {
        COMPUTE_CLASS.type: PoolReader(read_compute_class, pool_reader.COMPUTE_CLASS_SHAPE)
    }

    capacities: ClassVar[Mapping[str, CapacityOffer]] = reading(CLASS_CAPACITIES, capacity_rules.RESERVATION_KEYS)
    capacity_keys: ClassVar[frozenset[str]] = frozenset({"maxRunDuration"})

    def name_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        return refusals.object_name_problems(spec.name, API[1])

    def selection_labels(self, spec: GpuPoolSpec) -> dict[str, str]:
        """``cloud.google.com/compute-class=<class>``: GKE makes nodes of the class only for pods selecting it."""
        return {CLASS_LABEL: spec.name}

    def selection_taints(self, spec: GpuPoolSpec) -> tuple[Taint, ...]:
        """The class taint GKE puts on the nodes it creates for the class (``gke.scale_path``)."""
        return (class_taint(spec),)

    def spec_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        found = []
        if spec.driver == "operator":
            found.append(
                Problem("driver", "a ComputeClass always has GKE install the driver (driverVersion is 'default' or "
                        "'latest'; there is no INSTALLATION_DISABLED)", spec.driver, ("cloud",),
                        "use driver: cloud, or provisioner: node-pool for an operator-owned driver")
            )  # fmt: skip
        extra = spec.taints if isinstance(spec.taints, tuple) else ()
        named = [(f"taints[{i}].value", t) for i, t in enumerate(extra)]
        named.append(("conventions.gpuTaint.value", spec.conventions.gpu_taint))  # the team's, on the class too
        for path, taint in named:
            if taint.value and not TAINT_VALUE.match(taint.value):
                found.append(
                    Problem(path, "a ComputeClass taint value starts with a lowercase letter or a "
                            "digit and has 1 or 3-63 characters", taint.value, (), "pick a longer or lowercase value")
                )  # fmt: skip
        sharing = spec.sharing
        if isinstance(sharing, MigPartitioning) and sharing.profile is None:
            found.append(
                Problem("sharing.layout", "a ComputeClass partitions every GPU into one size (gpuPartitionSize)",
                        sharing.layout, (), "give sharing.profile (one MIG profile) instead of a layout")
            )  # fmt: skip
        given = {
            "overrides": spec.overrides or None,
            "upgrade": None if spec.upgrade == UpgradePolicy() else spec.upgrade,
            "fixedName": spec.fixed_name,
            "gpuLimit": spec.gpu_limit,
        }
        found.extend(refusals.unsupported_problems(self.key, given, UNSUPPORTED))
        found.extend(capacity_rules.class_problems(spec))
        found.extend(reservation_zone.problems(spec))
        return found

    def creation_only(self, spec: GpuPoolSpec) -> tuple[str, ...]:
        return ()


PROVISIONER = GkeComputeClass()
"""The one instance (provisioners hold no state)."""
