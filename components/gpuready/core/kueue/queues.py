"""The ClusterQueue and LocalQueues over a stack's flavored pools (``gpuready:kueue``; issue #28). Pure.

Kueue v0.19.2 semantics (kubernetes-sigs/kueue v0.19.2), each a reason for what is made here:

* A flavor picks nodes by its ``nodeLabels``, which Kueue adds to the admitted pods' ``nodeSelector``, with its
  ``tolerations`` (``site/content/en/docs/concepts/resource_flavor.md`` L29-47): the pool's ResourceFlavor
  (``core.kueue.objects``) is the pool's.
* Kueue gives each resource group of a pod set the first flavor, in the ClusterQueue's order, with unused quota
  (``site/content/en/docs/concepts/cluster_queue.md`` L66-71); resources of one group share the flavor
  (L87-91). So the queue has ONE resource group: every flavored pool, in stack order, over every resource the
  pools advertise (``nvidia.com/gpu``, ``nvidia.com/gpu.shared``, ``nvidia.com/mig-<profile>``) plus the ones the
  stack gives quota for (cpu, memory). A flavor's quota of a GPU resource is what its nodes advertise
  (``Advertiser.allocatable_per_node``) times the nodes it may have; of a resource its nodes lack, 0.
* Each flavor lists the group's resources in ``coveredResources``' order, a flavor and a resource appear in one
  group only (``pkg/webhooks/clusterqueue_webhook.go`` L302-357); quotas are not negative (L359-365).
* A resource a workload requests that the queue does not cover makes the workload inadmissible ("resource ...
  unavailable in ClusterQueue", ``pkg/scheduler/flavorassigner/flavorassigner.go`` L802-812, L1069-1071) unless
  Kueue's configuration excludes it (``resources.excludeResourcePrefixes``, ``apis/config/v1beta2/
  configuration_types.go`` L589-595): the plan warns of a queue without cpu and memory quota (``queue_warnings``).
* An AdmissionCheck runs only for the flavors its ``onFlavors`` names (``apis/kueue/v1beta2/clusterqueue_types.go``
  L182-187; ``site/content/en/docs/concepts/admission_check/_index.md`` L47): a queued pool's check is attached to
  its own flavor in ``admissionChecksStrategy``, so the ProvisioningRequest is made only for workloads on it.
* ``namespaceSelector`` null admits no namespace (``clusterqueue_types.go`` L109-115): gpuready writes ``{}``
  (every namespace) unless the stack gives one.
* A LocalQueue in a namespace the selector does not admit never admits a workload; gpuready judges it when the
  selector selects by the namespace's name label (``kubernetes.io/metadata.name``, set on every namespace) only.
* Workloads name their LocalQueue in the label ``kueue.x-k8s.io/queue-name`` (``pkg/controller/constants/
  constants.go`` L23), so a LocalQueue's name is also a label value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpuready.core.kueue.spec import ClusterQueueSpec, KueueSpec, LocalQueueSpec
from gpuready.core.specs import GpuPoolSpec

API_VERSION = "kueue.x-k8s.io/v1beta2"
MAX_FLAVORS = 64
"""Flavors of one resource group, and resources it covers (v0.19.2 CRD ``resourceGroups[].flavors`` /
``coveredResources`` ``maxItems``)."""
QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
"""The label naming a workload's LocalQueue (kubernetes-sigs/kueue v0.19.2 pkg/controller/constants/constants.go
L23)."""
NAME_LABEL = "kubernetes.io/metadata.name"
"""The label the API server sets on every namespace, its name (kubernetes.io "Well-Known Labels, Annotations and
Taints": kubernetes.io/metadata.name)."""
NODE_RESOURCES = ("cpu", "memory")
"""What nearly every pod requests: a queue without their quota admits only pods that request none."""


def pool_nodes(pool: GpuPoolSpec) -> int:
    """The most nodes the pool may have: ``maxSize``, or fewer under an elastic pool's GPU limit."""
    gpus = pool.resolved.gpu.gpus
    if pool.gpu_limit is not None and gpus > 0:
        return min(pool.max_size, pool.gpu_limit // gpus)
    return pool.max_size


def pool_quota(pool: GpuPoolSpec) -> dict[str, int]:
    """Resource -> what the pool's nodes advertise at most (per node, times ``pool_nodes``)."""
    nodes = pool_nodes(pool)
    return {name: units * nodes for name, units in pool.resolved.advertiser.allocatable_per_node(pool).items()}


def covered_resources(spec: ClusterQueueSpec, flavors: Sequence[GpuPoolSpec]) -> list[str]:
    """The queue's resources: the pools' GPU resources (sorted), then the others the stack gives quota for."""
    advertised = sorted({name for pool in flavors for name in pool_quota(pool)})
    names = {pool.name for pool in flavors}
    given = {name for flavor, quota in spec.quota.items() if flavor in names for name in quota}
    return [*advertised, *sorted(given - set(advertised))]


def cluster_queue(spec: ClusterQueueSpec, flavors: Sequence[GpuPoolSpec], checks: Sequence[str]) -> dict[str, Any]:
    """The ClusterQueue: one resource group over ``flavors`` (the flavored pools, in order); ``checks``: the pools
    whose AdmissionCheck (named as the pool) runs on their own flavor."""
    covered = covered_resources(spec, flavors)
    groups = []
    for pool in flavors:
        quota: dict[str, int | str] = {**pool_quota(pool), **spec.quota.get(pool.name, {})}
        resources = [{"name": name, "nominalQuota": quota.get(name, 0)} for name in covered]
        groups.append({"name": pool.name, "resources": resources})
    body: dict[str, Any] = {
        "namespaceSelector": spec.namespace_selector.manifest(),
        "resourceGroups": [{"coveredResources": covered, "flavors": groups}],
    }
    if spec.cohort is not None:
        body["cohortName"] = spec.cohort
    if checks:
        body["admissionChecksStrategy"] = {"admissionChecks": [{"name": n, "onFlavors": [n]} for n in checks]}
    return {"apiVersion": API_VERSION, "kind": "ClusterQueue", "metadata": {"name": spec.name}, "spec": body}


def local_queue(spec: LocalQueueSpec, cluster_queue_name: str) -> dict[str, Any]:
    """A LocalQueue in its namespace onto the ClusterQueue."""
    metadata = {"name": spec.name, "namespace": spec.namespace}
    return {"apiVersion": API_VERSION, "kind": "LocalQueue", "metadata": metadata,
            "spec": {"clusterQueue": cluster_queue_name}}  # fmt: skip


def queue_warnings(spec: KueueSpec, flavors: Sequence[GpuPoolSpec]) -> list[str]:
    """The plan's warning of a queue without cpu or memory quota: nearly every workload requests them."""
    queue = spec.cluster_queue
    if queue is None or not flavors:
        return []
    missing = [name for name in NODE_RESOURCES if name not in covered_resources(queue, flavors)]
    if not missing:
        return []
    return [
        f"Kueue ClusterQueue {queue.name} has no quota of {' or '.join(missing)}: a workload requesting them is not "
        "admitted unless Kueue's configuration excludes them (resources.excludeResourcePrefixes); give "
        f"gpuready:kueue clusterQueue.quota.<pool>.{missing[0]} for every flavor"
    ]
