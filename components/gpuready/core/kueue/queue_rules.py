"""What Kueue refuses of, or never admits through, the queues ``gpuready:kueue`` asks for (issue #28). Pure.

The reasons are ``core.kueue.queues``' (Kueue v0.19.2 webhooks, CRD limits and semantics); here they are checked
before anything registers, each problem with its path under the stack key, the value, what is allowed and a hint.
"""

from __future__ import annotations

from collections.abc import Sequence

from gpuready.core.k8s_syntax import label_value_problem, object_name_problem, qualified_name_problem
from gpuready.core.kueue.queues import MAX_FLAVORS, NAME_LABEL, QUEUE_LABEL, covered_resources, pool_quota
from gpuready.core.kueue.spec import (
    ClusterQueueSpec,
    KueueSpec,
    LocalQueueSpec,
    NamespaceSelector,
    SelectorExpression,
)
from gpuready.core.quantities import parse_quantity
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import Problem


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
    found += _unadmitted_problems(spec, path)
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


def _admits(selector: NamespaceSelector, namespace: str) -> bool | None:
    """Whether ``selector`` admits ``namespace`` judged by its name label alone: True or False when it selects by
    ``kubernetes.io/metadata.name`` only, None when other labels decide (unknown offline)."""
    expressions = [
        *(SelectorExpression(key=key, operator="In", values=(value,)) for key, value in selector.match_labels.items()),
        *selector.match_expressions,
    ]
    if not expressions or any(e.key != NAME_LABEL for e in expressions):
        return None
    for expression in expressions:
        inside = namespace in expression.values
        if (expression.operator, inside) in (("In", False), ("NotIn", True)) or expression.operator == "DoesNotExist":
            return False
    return True


def _unadmitted_problems(spec: KueueSpec, path: str) -> list[Problem]:
    """A LocalQueue in a namespace the ClusterQueue's selector never admits (by the namespace's name label)."""
    queue = spec.cluster_queue
    if queue is None:
        return []
    return [
        Problem(f"{path}.localQueues[{index}].namespace", "is a namespace the ClusterQueue's namespaceSelector does "
                f"not admit (by its {NAME_LABEL} label): its workloads would never be admitted", local.namespace, (),
                "add the namespace to clusterQueue.namespaceSelector, or move the LocalQueue")
        for index, local in enumerate(spec.local_queues)
        if _admits(queue.namespace_selector, local.namespace) is False
    ]  # fmt: skip


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
