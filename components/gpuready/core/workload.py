"""The pod-spec fragment that runs a workload on a gpuready pool. Pure.

What the containers ask for, and which requests are valid, belong to the pool's advertiser
(``advertisers.registry.advertiser_for``): with extended resources the request is a whole number of
``nvidia.com/gpu``, ``nvidia.com/gpu.shared`` (renamed time-slicing/MPS) or ``nvidia.com/mig-<profile>``
(MIG ``mixed``), set as both request and limit (``advertisers.extended_resources``). This module adds the
placement: node selector, tolerations and the placement's scheduling fields, and what the pool's cloud needs of
the pods (``CloudProfile.workload_pod_fields`` / ``workload_node_labels``): on a GKE pool whose GPUs GKE shares
with MPS, ``hostIPC: true`` and GKE's MPS node labels, as GKE's "Deploy workloads that use NVIDIA MPS with GPUs"
does (https://cloud.google.com/kubernetes-engine/docs/how-to/nvidia-mps-gpus). MPS by NVIDIA's device plugin
(EKS, AKS, GKE with the GPU Operator) needs neither: the plugin mounts the MPS daemon's pipe and shm directories
into each container (NVIDIA/k8s-device-plugin v0.20.0 ``internal/plugin/mps.go``).

On a DRA pool (``advertise: dra``, ``advertisers.dra``) the pod claims devices from a ResourceClaimTemplate that
``GpuWorkload.objects`` returns for the program to create: a count of whole GPUs (``gpu.nvidia.com``), of MIG
devices of one profile (``mig.nvidia.com`` with a CEL selector on the ``profile`` attribute), or of devices
matching CEL selectors on the attributes the driver publishes (``advertisers.device_selectors``); every container
passed through ``container`` shares the pod's one claim.

On a pool with a node fabric (``fabric``), the pool's cloud says what the pods need to use it
(``CloudProfile.fabric.workload``, data per cloud): on EKS's EFA, ``vpc.amazonaws.com/efa`` (the node's
interfaces in proportion to its GPUs the pod takes, all for a whole-node job), ``hugepages-2Mi`` and libfabric's
``FI_PROVIDER=efa`` (``gpuready.eks.fabric``); ``container`` adds them, ``pod_annotations`` gives what the pod
template carries.

A workload submitted through Kueue names its LocalQueue (``queue``) in the label ``kueue.x-k8s.io/queue-name``
on the job object (a Job's, JobSet's... ``metadata.labels``; a bare Pod's own), the label Kueue reads
(kubernetes-sigs/kueue v0.19.2 ``pkg/controller/constants/constants.go`` L23; ``site/content/en/docs/tasks/run/
jobs.md`` L50): ``queue_labels``. Given the LocalQueues the stack declares (``gpuready:kueue`` ``localQueues``),
the name must be one of them, and ``objects(namespace)`` refuses a namespace without it. The pool's
``nodeSelector`` also makes Kueue choose the pool's own ResourceFlavor: a flavor whose labels the selector does not
match is not assigned (``site/content/en/docs/concepts/resource_flavor.md`` L34-35).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from fractions import Fraction
from typing import Any

from gpuready.core.advertisers.device_selectors import DeviceSelector
from gpuready.core.advertisers.extended_resources import EXTENDED_RESOURCES
from gpuready.core.advertisers.interface import Advertiser, GpuRequest
from gpuready.core.fabric.model import FabricWorkload, fabric_container
from gpuready.core.k8s_syntax import object_name_problem
from gpuready.core.kueue.queue_rules import workload_queue_problems
from gpuready.core.kueue.queues import QUEUE_LABEL
from gpuready.core.kueue.spec import LocalQueueSpec
from gpuready.core.scheduling import node_selector, tolerated_taints, toleration_for
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.workload_placement import Placement
from gpuready.errors import Problem, SpecError
from gpuready.record import record


@record(frozen=True, kw_only=True, slots=True)
class GpuWorkload:
    """Where and with what a workload runs on one pool."""

    pool: str
    resource: str
    """Resource the containers request (as the pool's advertiser names it)."""
    count: int
    """Units per container (requests == limits)."""
    node_selector: Mapping[str, str]
    tolerations: tuple[Mapping[str, str], ...]
    placement: Placement = field(default_factory=Placement)
    advertiser: Advertiser = EXTENDED_RESOURCES
    """The pool's advertiser (resolved with the pool), which shapes ``resources``."""
    cloud_fields: Mapping[str, Any] = field(default_factory=dict)
    """PodSpec fields the pool's cloud needs (GKE's MPS: ``hostIPC: true``)."""
    mig_profile: str | None = None
    """The MIG profile the claimed devices have (DRA pools)."""
    selectors: tuple[DeviceSelector, ...] = ()
    """Conditions on the claimed devices' attributes (DRA pools)."""
    fabric: FabricWorkload = field(default_factory=FabricWorkload)
    """What the pods need to use the pool's node fabric (``CloudFabric.workload``): its devices (all of a node's
    for a whole-node job), huge pages, environment, pod annotations; empty on a pool without one."""
    queue: str | None = None
    """The Kueue LocalQueue the workload is submitted to (``queue_labels``); None: not through Kueue."""
    declared_queues: tuple[LocalQueueSpec, ...] = ()
    """The LocalQueues the stack declares, which ``objects(namespace)`` checks the namespace against."""

    def pod_spec(self) -> dict[str, Any]:
        """Fields to merge into a PodSpec: ``nodeSelector``, ``tolerations``, the placement's fields and any the
        pool's cloud or advertiser needs at pod level."""
        return {
            "nodeSelector": dict(self.node_selector),
            "tolerations": [dict(t) for t in self.tolerations],
            **self.placement.pod_spec(),
            **dict(self.cloud_fields),
            **self.advertiser.pod_fields(self._request()),
        }

    def pod_annotations(self) -> dict[str, str]:
        """Annotations the pod template must carry for the pool's fabric (none on EKS's EFA)."""
        return dict(self.fabric.annotations)

    def sidecars(self) -> list[dict[str, Any]]:
        """Containers to add to the pod beside the workload's own, for the pool's fabric (none without one)."""
        return [dict(c) for c in self.fabric.sidecars]

    def volumes(self) -> list[dict[str, Any]]:
        """Volumes to add to the pod for the fabric's sidecars and containers."""
        return [dict(v) for v in self.fabric.volumes]

    def pod_labels(self) -> dict[str, str]:
        """Labels the pod template must carry for the placement (the pack group's)."""
        return self.placement.pod_labels()

    def queue_labels(self) -> dict[str, str]:
        """Labels of the job object (or bare Pod) that submit it to its Kueue LocalQueue; none without a queue."""
        return {QUEUE_LABEL: self.queue} if self.queue is not None else {}

    def resources(self) -> dict[str, Any]:
        """A container's ``resources`` for the GPU units, as the pool's advertiser asks them."""
        return self.advertiser.container_resources(self._request())

    def objects(self, namespace: str) -> list[dict[str, Any]]:
        """Kubernetes objects to create in the pods' ``namespace`` before them, as the pool's advertiser needs
        (DRA: the ResourceClaimTemplate their claim names, the same name for the same request, so workloads that
        ask alike share one); none for extended resources."""
        if object_name_problem(namespace) is not None or "." in namespace or len(namespace) > 63:
            raise SpecError([Problem("namespace", "is not a namespace name (a DNS label)", namespace, (), "e.g. ml")])
        if self.queue is not None and (found := workload_queue_problems(self.queue, self.declared_queues, namespace)):
            raise SpecError(found)
        return self.advertiser.workload_objects(self._request(), namespace)

    def _request(self) -> GpuRequest:
        return GpuRequest(
            resource=self.resource, count=self.count, mig_profile=self.mig_profile, selectors=self.selectors
        )

    def fabric_resources(self) -> dict[str, dict[str, int | str]]:
        """A container's ``requests`` and ``limits`` (equal) of the fabric's devices and huge pages."""
        units: dict[str, int | str] = {**self.fabric.resources, **self.fabric.hugepages}
        return {"requests": dict(units), "limits": dict(units)} if units else {}

    def container(self, container: Mapping[str, Any]) -> dict[str, Any]:
        """``container`` with the GPU units, and on a fabric pool its devices, huge pages and environment, added
        to its ``resources`` and ``env`` (the container's others kept; its own value of a fabric variable wins).
        On a DRA pool every container passed here names the pod's one claim, so they share the same devices."""
        merged = dict(container)
        current = dict(merged.get("resources") or {})
        for part in (self.resources(), self.fabric_resources()):
            for key, units in part.items():
                if isinstance(units, list):  # resources.claims: the container's other claims kept, the pod's added
                    kept = [c for c in current.get(key) or [] if c not in units]
                    current[key] = [*kept, *units]
                else:
                    current[key] = {**dict(current.get(key) or {}), **units}
        merged["resources"] = current
        if self.fabric.env:
            env = list(merged.get("env") or [])
            named = {e.get("name") for e in env if isinstance(e, Mapping)}
            merged["env"] = env + [{"name": k, "value": v} for k, v in self.fabric.env.items() if k not in named]
        return fabric_container(merged, self.fabric.container)


def gpu_workload(
    pool: GpuPoolSpec,
    gpus: object = 1,
    *,
    resource: str | None = None,
    placement: Placement | None = None,
    mig_profile: str | None = None,
    selectors: Sequence[DeviceSelector] = (),
    queue: str | None = None,
    local_queues: Sequence[LocalQueueSpec] = (),
) -> GpuWorkload:
    """The placement and GPU request for ``gpus`` units of ``resource`` (default: the pool's main one) per
    container on ``pool``; on a DRA pool, devices of ``mig_profile`` matching every one of ``selectors``; with
    ``queue``, submitted to that Kueue LocalQueue, one of ``local_queues`` (the stack's ``kueue.local_queues``) when
    given. Raises ``SpecError`` for fractions, unknown resources, requests no node can hold, MIG profiles the pool
    lacks, unknown device attributes, profiles or selectors on a pool that cannot choose devices so, and a queue
    name that is none or not declared."""
    if queue is not None and (found := workload_queue_problems(queue, local_queues)):
        raise SpecError(found)
    advertiser = pool.resolved.advertiser
    request = advertiser.request(pool, gpus, resource, mig_profile=mig_profile, selectors=selectors)
    provisioner = pool.resolved.provisioner
    taints = (*tolerated_taints(pool), *provisioner.selection_taints(pool))
    cloud = pool.profile
    return GpuWorkload(
        pool=pool.name,
        resource=request.resource,
        count=request.count,
        node_selector={**node_selector(pool), **provisioner.selection_labels(pool), **cloud.workload_node_labels(pool)},
        tolerations=tuple(toleration_for(t) for t in taints),
        placement=placement or Placement(),
        advertiser=advertiser,
        cloud_fields=cloud.workload_pod_fields(pool),
        mig_profile=request.mig_profile,
        selectors=request.selectors,
        fabric=cloud.fabric.workload(pool, share=_node_share(pool, request.count, request.resource)),
        queue=queue,
        declared_queues=tuple(local_queues),
    )


def _node_share(pool: GpuPoolSpec, count: int, resource: str) -> Fraction:
    """The part of a node of the pool a pod asking ``count`` of ``resource`` takes (1: all its units)."""
    units = pool.resolved.advertiser.allocatable_per_node(pool).get(resource, 0)
    return Fraction(min(count, units), units) if units > 0 else Fraction(0)
