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
through a queue (``flex-start``, ``queued``) by default, every pool with ``all``, none with ``none``. A ClusterQueue
stays the team's: it names the flavors and, ``onFlavors``, the admission checks (docs/capacity.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from gpuready.core import scheduling
from gpuready.core.k8s_syntax import object_name_problem
from gpuready.core.pool_parts import QUEUED_CAPACITIES
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import Problem

API_VERSION = "kueue.x-k8s.io/v1beta2"
API_GROUP = "kueue.x-k8s.io"
CONTROLLER = "kueue.x-k8s.io/provisioning-request"
FlavorChoice = Literal["queued", "all", "none"]
FLAVOR_CHOICES: tuple[FlavorChoice, ...] = ("queued", "all", "none")
Manifest = dict[str, Any]


@dataclass(frozen=True, kw_only=True, slots=True)
class KueueSpec:
    """``gpuready:kueue``: which pools get Kueue objects."""

    flavors: FlavorChoice = "queued"
    """``queued``: the flex-start and queued pools; ``all``: every pool; ``none``: no Kueue object."""


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
    return found


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


def kueue_objects(pools: Sequence[GpuPoolSpec], spec: KueueSpec) -> dict[str, Manifest]:
    """Every Kueue object of the stack, keyed ``<kind lowercase>-<pool>``: the flavors first, then each queued pool's
    config and admission check (the check names the config)."""
    objects: dict[str, Manifest] = {}
    for pool in flavored(pools, spec):
        objects[f"resourceflavor-{pool.name}"] = resource_flavor(pool)
        provisioning_class = pool.resolved.provisioner.provisioning_class
        if pool.capacity == "queued" and provisioning_class is not None:
            config = provisioning_request_config(pool, provisioning_class)
            objects[f"provisioningrequestconfig-{pool.name}"] = config
            objects[f"admissioncheck-{pool.name}"] = admission_check(pool)
    return objects
