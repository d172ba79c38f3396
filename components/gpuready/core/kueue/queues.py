"""The ClusterQueue and LocalQueues over a stack's flavored pools (``gpuready:kueue``; issue #28). Pure.

Kueue v0.19.2 semantics (kubernetes-sigs/kueue v0.19.2), each a reason for what is made here:

* A flavor picks nodes by its ``nodeLabels``, which Kueue adds to the admitted pods' ``nodeSelector``, with its
  ``tolerations`` (``site/content/en/docs/concepts/resource_flavor.md`` L29-47): the pool's ResourceFlavor
  (``core.kueue.objects``) is the pool's.
* Kueue gives each resource group of a pod set the first flavor, in the ClusterQueue's order, with unused quota
  (``site/content/en/docs/concepts/cluster_queue.md`` L66-71); resources of one group share the flavor
  (L86-93). So the queue has ONE resource group: every flavored pool, in stack order, over every resource the
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
* Workloads name their LocalQueue in the label ``kueue.x-k8s.io/queue-name`` (``pkg/controller/constants/
  constants.go`` L23), so a LocalQueue's name is also a label value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpuready.core.k8s_syntax import label_value_problem, object_name_problem, qualified_name_problem
from gpuready.core.kueue.spec import ClusterQueueSpec, KueueSpec, LocalQueueSpec, NamespaceSelector
from gpuready.core.quantities import parse_quantity
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import Problem

API_VERSION = "kueue.x-k8s.io/v1beta2"
MAX_FLAVORS = 64
"""Flavors of one resource group, and resources it covers (v0.19.2 CRD ``resourceGroups[].flavors`` /
``coveredResources`` ``maxItems``)."""
QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
"""The label naming a workload's LocalQueue (kubernetes-sigs/kueue v0.19.2 pkg/controller/constants/constants.go
L23)."""
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


def queue_problems(
    spec: KueueSpec, flavors: Sequence[GpuPoolSpec], path: str, pools: Sequence[GpuPoolSpec] = ()
) -> list[Problem]:
    """What makes the queues unusable or refused by Kueue (``flavors``: the flavored pools of the stack's ``pools``;
    ``path``: the stack key)."""
    queue = spec.cluster_queue
    found: list[Problem] = []
    for index, local in enumerate(spec.local_queues):
        found += _local_problems(local, f"{path}.localQueues[{index}]")
    names = [(q.namespace, q.name) for q in spec.local_queues]
    found += [Problem(f"{path}.localQueues[{i}]", "repeats a LocalQueue", f"{n[0]}/{n[1]}", (),
                      "list each namespace's queue once") for i, n in enumerate(names) if n in names[:i]]  # fmt: skip
    if queue is None:
        if spec.local_queues:
            found.append(Problem(f"{path}.localQueues", "needs the ClusterQueue the LocalQueues point at", None, (),
                                 "add clusterQueue: {name: training}"))  # fmt: skip
        return found
    where = f"{path}.clusterQueue"
    for key, value in (("name", queue.name), ("cohort", queue.cohort)):
        reason = object_name_problem(value) if value is not None else None
        if reason is not None:
            found.append(Problem(f"{where}.{key}", reason, value, (), "e.g. training"))
    if not flavors:
        found.append(Problem(where, "covers no pool: no pool gets a ResourceFlavor", spec.flavors, (),
                             "set flavors: all (every pool), or give a pool capacity: queued"))  # fmt: skip
        return found
    if len(flavors) > MAX_FLAVORS:
        found.append(Problem(f"{path}.flavors", f"gives the ClusterQueue {len(flavors)} flavors; Kueue allows "
                             f"at most {MAX_FLAVORS} in one resource group", spec.flavors, (),
                             "set flavors: queued"))  # fmt: skip
    found += _selector_problems(queue.namespace_selector, f"{where}.namespaceSelector")
    found += _quota_problems(queue, flavors, f"{where}.quota", pools, spec.flavors)
    return found


def _local_problems(local: LocalQueueSpec, where: str) -> list[Problem]:
    found = []
    namespace = object_name_problem(local.namespace)
    if namespace is not None or "." in local.namespace or len(local.namespace) > 63:
        found.append(Problem(f"{where}.namespace", "is not a namespace name (a DNS label: 'a-z', '0-9', '-', at most "
                             "63)", local.namespace, (), "e.g. team-a"))  # fmt: skip
    reason = object_name_problem(local.name) or label_value_problem(local.name)
    if reason is not None:
        found.append(Problem(f"{where}.name", f"{reason} (workloads name it in the label {QUEUE_LABEL})", local.name,
                             (), "e.g. training"))  # fmt: skip
    return found


def _selector_problems(selector: NamespaceSelector, where: str) -> list[Problem]:
    found = []
    for key, value in selector.match_labels.items():
        reason = qualified_name_problem(key) or label_value_problem(value)
        if reason is not None:
            found.append(Problem(f"{where}.matchLabels.{key}", reason, value, (), "e.g. {team: ml}"))
    for index, expression in enumerate(selector.match_expressions):
        at = f"{where}.matchExpressions[{index}]"
        reason = qualified_name_problem(expression.key)
        if reason is not None:
            found.append(Problem(f"{at}.key", reason, expression.key, (), "e.g. team"))
        needs_values = expression.operator in ("In", "NotIn")
        if needs_values != bool(expression.values):
            wanted = "needs values" if needs_values else "takes no values"
            found.append(Problem(f"{at}.values", f"operator {expression.operator} {wanted}", list(expression.values),
                                 (), "In / NotIn: values: [a]; Exists / DoesNotExist: no values"))  # fmt: skip
        found += [Problem(f"{at}.values[{i}]", reason, v, ()) for i, v in enumerate(expression.values)
                  if (reason := label_value_problem(v)) is not None]  # fmt: skip
    return found


def _quota_problems(
    queue: ClusterQueueSpec, flavors: Sequence[GpuPoolSpec], where: str, pools: Sequence[GpuPoolSpec] = (),
    queue_flavors: str = "queued",
) -> list[Problem]:  # fmt: skip
    found: list[Problem] = []
    names = [pool.name for pool in flavors]
    for flavor, quota in queue.quota.items():
        if flavor not in names:
            hint = "use the name of a pool with a ResourceFlavor"
            if any(pool.name == flavor for pool in pools) and queue_flavors != "all":
                hint += f", or set flavors: all ({flavor} has no ResourceFlavor under flavors: {queue_flavors})"
            found.append(Problem(f"{where}.{flavor}", "names no flavor of the queue (a pool with a ResourceFlavor)",
                                 flavor, names, hint))  # fmt: skip
        for resource, value in quota.items():
            found += _quantity_problems(resource, value, f"{where}.{flavor}.{resource}")
    advertised = {name for pool in flavors for name in pool_quota(pool)}
    covered = covered_resources(queue, flavors)
    if len(covered) > MAX_FLAVORS:
        found.append(Problem(where, f"covers {len(covered)} resources; Kueue allows at most {MAX_FLAVORS}", None, ()))
    for pool in flavors:
        given = queue.quota.get(pool.name, {})
        if not pool_quota(pool) and not given:
            found.append(Problem(f"{where}.{pool.name}", "the pool advertises no extended resource (its GPUs are DRA "
                                 "devices, which Kueue counts only through deviceClassMappings in its own "
                                 "configuration)", None, (), f"give quota.{pool.name} the resource Kueue maps its "
                                 "DeviceClass to, or leave the pool out of the queue (flavors: queued)"))  # fmt: skip
        lacking = [name for name in covered if name not in advertised and name not in given]
        if lacking:
            found.append(Problem(f"{where}.{pool.name}", f"gives no quota of {', '.join(lacking)}, which other flavors "
                                 "of the queue have: this flavor would admit no workload requesting it", None, (),
                                 f"give quota.{pool.name} {lacking[0]} too (every flavor covers the same "
                                 "resources)"))  # fmt: skip
    return found


def _quantity_problems(resource: str, value: int | str, where: str) -> list[Problem]:
    found = []
    reason = qualified_name_problem(resource)
    if reason is not None:
        found.append(Problem(where, f"is not a resource name: {reason}", resource, (), "e.g. cpu, memory"))
    amount = parse_quantity(value) if isinstance(value, str) else value
    if amount is None or amount < 0:
        found.append(Problem(where, "is not a non-negative Kubernetes quantity", value, (), "e.g. 96, 500m, 1024Gi"))
    return found


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


def workload_queue_problems(
    queue: str, declared: Sequence[LocalQueueSpec], namespace: str | None = None
) -> list[Problem]:
    """Why a workload cannot name LocalQueue ``queue`` (in ``namespace``, when known): not a queue name, or, when the
    stack declares LocalQueues (``declared``), none of them (in that namespace)."""
    reason = object_name_problem(queue) or label_value_problem(queue)
    if reason is not None:
        return [Problem("queue", f"{reason} (it is the label {QUEUE_LABEL})", queue, (), "e.g. training")]
    if not declared:
        return []
    names = sorted({q.name for q in declared})
    if queue not in names:
        hint = f"use one of them, or add {{namespace: <the workload's>, name: {queue}}} to localQueues"
        return [Problem("queue", "names no LocalQueue the stack declares (gpuready:kueue localQueues)", queue, names,
                        hint)]  # fmt: skip
    namespaces = sorted(q.namespace for q in declared if q.name == queue)
    if namespace is not None and namespace not in namespaces:
        return [Problem("namespace", f"has no LocalQueue {queue} (gpuready:kueue localQueues)", namespace, namespaces,
                        f"run the workload in one of them, or add {{namespace: {namespace}, name: {queue}}} to "
                        "localQueues")]  # fmt: skip
    return []
