"""The Kueue objects for a stack's pools, as manifests (issue #28). Pure.

Kueue v0.19.2 (kubernetes-sigs/kueue ``config/components/crd/bases``, in ../shared as ``kueue/``; storage version
``v1beta2``):

* a ``ResourceFlavor`` per pool, named as the pool, whose ``nodeLabels`` are the selector that picks exactly the
  pool's nodes and whose ``tolerations`` tolerate every taint on them (the pool's outputs: ``scheduling.node_selector``
  with the provisioner's ``selection_labels``, ``scheduling.tolerated_taints`` with its ``selection_taints``, such as
  GKE's ``cloud.google.com/gke-queued`` on a queued pool): Kueue adds both to the pods it admits on the flavor;
* for a ``queued`` pool, a ``ProvisioningRequestConfig`` with the provisioner's ProvisioningRequest class
  (``Provisioner.provisioning_class``) and the extended resources the pool advertises as ``managedResources``, and
  an ``AdmissionCheck`` of Kueue's ProvisioningRequest controller (``kueue.x-k8s.io/provisioning-request``:
  kubernetes-sigs/kueue v0.19.2 apis/kueue/v1beta2/provisioningrequestconfig_types.go L29) naming it.

Which pools get a flavor is the stack's ``gpuready:kueue`` (``KueueSpec.flavors``): the pools whose capacity comes
through a queue (``flex-start``, ``queued``) by default, every pool with ``all``, none with ``none``. On request
(``clusterQueue``, ``localQueues``) a ClusterQueue over the flavors and LocalQueues onto it (``core.kueue.queues``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpuready.core import scheduling
from gpuready.core.k8s_syntax import object_name_problem
from gpuready.core.kueue.queue_rules import queue_problems
from gpuready.core.kueue.queues import cluster_queue, local_queue
from gpuready.core.kueue.spec import FLAVOR_CHOICES, FlavorChoice, KueueSpec
from gpuready.core.pool_parts import QUEUED_CAPACITIES
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import Problem

API_VERSION = "kueue.x-k8s.io/v1beta2"
API_GROUP = "kueue.x-k8s.io"
CONTROLLER = "kueue.x-k8s.io/provisioning-request"
Manifest = dict[str, Any]
__all__ = ["FLAVOR_CHOICES", "FlavorChoice", "KueueSpec", "Manifest", "flavored", "kueue_objects", "problems"]


def flavored(pools: Sequence[GpuPoolSpec], spec: KueueSpec) -> tuple[GpuPoolSpec, ...]:
    """The pools that get a ResourceFlavor, in stack order."""
    if spec.flavors == "none":
        return ()
    return tuple(pool for pool in pools if spec.flavors == "all" or pool.capacity in QUEUED_CAPACITIES)


def problems(pools: Sequence[GpuPoolSpec], spec: KueueSpec, path: str) -> list[Problem]:
    """A flavored pool whose name is no Kubernetes object name, or a queued pool without a ProvisioningRequest class
    (``path``: the stack key, ``gpuready:kueue``)."""
    found: list[Problem] = []
    for pool in flavored(pools, spec):
        reason = object_name_problem(pool.name)
        if reason is not None:
            found.append(Problem(f"{path}.flavors", f"pool {pool.name!r} names its ResourceFlavor: {reason}",
                                 spec.flavors, FLAVOR_CHOICES, "rename the pool, or set flavors: queued"))  # fmt: skip
        if pool.capacity == "queued" and pool.resolved.provisioner.provisioning_class is None:
            found.append(Problem(f"{path}.flavors", f"pool {pool.name!r}: its provisioner makes no queued capacity",
                                 pool.capacity, (), "remove capacity: queued from the pool"))  # fmt: skip
    return [*found, *queue_problems(spec, flavored(pools, spec), path, pools)]


def _object(kind: str, name: str, spec: dict[str, Any]) -> Manifest:
    return {"apiVersion": API_VERSION, "kind": kind, "metadata": {"name": name}, "spec": spec}


def resource_flavor(pool: GpuPoolSpec) -> Manifest:
    """The pool's ResourceFlavor: its node selector and the tolerations of every taint on its nodes."""
    provisioner = pool.resolved.provisioner
    labels = {**scheduling.node_selector(pool), **provisioner.selection_labels(pool)}
    taints = (*scheduling.tolerated_taints(pool), *provisioner.selection_taints(pool))
    return _object(
        "ResourceFlavor",
        pool.name,
        {"nodeLabels": labels, "tolerations": [scheduling.toleration_for(t) for t in taints]},
    )


def provisioning_request_config(pool: GpuPoolSpec, provisioning_class: str) -> Manifest:
    """A queued pool's ProvisioningRequestConfig: its class, and the extended resources its nodes advertise."""
    spec: dict[str, Any] = {"provisioningClassName": provisioning_class}
    managed = sorted(pool.resolved.advertiser.allocatable_per_node(pool))
    if managed:
        spec["managedResources"] = managed
    return _object("ProvisioningRequestConfig", pool.name, spec)


def admission_check(pool: GpuPoolSpec) -> Manifest:
    """A queued pool's AdmissionCheck: Kueue's ProvisioningRequest controller with the pool's config."""
    parameters = {"apiGroup": API_GROUP, "kind": "ProvisioningRequestConfig", "name": pool.name}
    return _object("AdmissionCheck", pool.name, {"controllerName": CONTROLLER, "parameters": parameters})


def checked(pool: GpuPoolSpec) -> str | None:
    """The ProvisioningRequest class of a queued pool (it gets a config and an AdmissionCheck), else None."""
    return pool.resolved.provisioner.provisioning_class if pool.capacity == "queued" else None


def kueue_objects(pools: Sequence[GpuPoolSpec], spec: KueueSpec) -> dict[str, Manifest]:
    """Every Kueue object of the stack, keyed ``<kind lowercase>-<name>``: per flavored pool its flavor, then a queued
    pool's config and admission check (the check names the config); then the ClusterQueue (it names the flavors and
    checks) and the LocalQueues (``localqueue-<namespace>-<name>``, each naming the ClusterQueue)."""
    objects: dict[str, Manifest] = {}
    flavors = flavored(pools, spec)
    for pool in flavors:
        objects[f"resourceflavor-{pool.name}"] = resource_flavor(pool)
        provisioning_class = checked(pool)
        if provisioning_class is not None:
            config = provisioning_request_config(pool, provisioning_class)
            objects[f"provisioningrequestconfig-{pool.name}"] = config
            objects[f"admissioncheck-{pool.name}"] = admission_check(pool)
    queue = spec.cluster_queue
    if queue is not None and flavors:
        checks = [pool.name for pool in flavors if checked(pool) is not None]
        objects[f"clusterqueue-{queue.name}"] = cluster_queue(queue, flavors, checks)
        for local in spec.local_queues:
            objects[f"localqueue-{local.namespace}-{local.name}"] = local_queue(local, queue.name)
    return objects


def unqueued_warnings(pools: Sequence[GpuPoolSpec], spec: KueueSpec) -> list[str]:
    """The plan's warnings for queued and flex-start pools that get no Kueue objects (``flavors: none``).

    A queued pool's nodes come only through a ProvisioningRequest (pulumi_gcp ``NodePoolQueuedProvisioningArgs``:
    "Makes nodes obtainable through the ProvisioningRequest API exclusively"). GKE's "Run a large-scale workload with
    flex-start with queued provisioning" calls Kueue optional ("(Optional) Kueue automates the lifecycle of ...
    Provisioning Requests") and also shows ProvisioningRequests made by hand, so without Kueue objects the pool is
    usable, not refused: the plan warns. A flex-start pool without queued provisioning scales for pending pods like
    any pool; without a flavor, only Kueue's workloads cannot be placed on it."""
    if spec.flavors != "none":
        return []
    said = {
        "queued": "its nodes come only through a ProvisioningRequest, and without Kueue's AdmissionCheck none is made "
        "for your workloads: create ProvisioningRequests yourself, or set gpuready:kueue flavors: queued",
        "flex-start": "Kueue-managed workloads cannot be admitted onto it (pods outside Kueue still scale it); set "
        "gpuready:kueue flavors: queued to give it a ResourceFlavor",
    }
    return [
        f"pool {pool.name}: capacity {pool.capacity} with gpuready:kueue flavors: none: {said[pool.capacity]}"
        for pool in pools
        if pool.capacity in said
    ]
