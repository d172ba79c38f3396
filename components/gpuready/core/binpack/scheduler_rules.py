"""Validation of a ``SchedulerFields``: every problem collected, one ``SpecError``. Pure.

Field paths use camelCase, like the pool rules; the release is checked in ``scheduler_version``. Sources:
"Configure Multiple Schedulers" (unique scheduler names), "Namespaces" (the ``kube-`` prefix is reserved for
system namespaces), "Extended resources" (fully qualified names outside ``kubernetes.io``), the Pod API (a
toleration with ``Exists`` takes no value), apimachinery's DNS-1123 rules and its resource.Quantity grammar.
"""

from __future__ import annotations

import re
from fractions import Fraction

from gpuready.core import namespaces
from gpuready.core.binpack import scheduler_version
from gpuready.core.binpack.scheduler_fields import (
    DEFAULT_SCHEDULER_NAME,
    TOLERATION_OPERATORS,
    SchedulerFields,
    SchedulerToleration,
)
from gpuready.core.k8s_syntax import TAINT_EFFECTS, label_value_problem, prefix_is_under, qualified_name_problem
from gpuready.core.quantities import parse_quantity
from gpuready.core.scheduling import GPU_RESOURCE, GPU_TAINT_KEY, LABEL_GPU_POOL
from gpuready.core.workload_placement import BINPACK_SCHEDULER
from gpuready.errors import Problem, SpecError

_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?\Z")
_DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\Z")

DNS_LABEL_RULE = "a lowercase DNS label: a-z, 0-9 and '-', at most 63 characters, alphanumeric at both ends"


def validate(spec: SchedulerFields) -> str:
    """Check ``spec``; return the kube-scheduler release (``v1.33.4``) or raise ``SpecError`` with every problem."""
    problems: list[Problem] = []
    _check_names(spec, problems)
    version = scheduler_version.resolve_version(spec, problems)
    _check_gpu_resources(spec, problems)
    _check_pod(spec, problems)
    _check_placement(spec, problems)
    _check_image_repository(spec, problems)
    if problems or version is None:
        raise SpecError(problems)
    return version


def _check_names(spec: SchedulerFields, problems: list[Problem]) -> None:
    if not _DNS_LABEL.match(spec.name):
        problems.append(Problem("name", "not a valid object name", spec.name, (DNS_LABEL_RULE,), "e.g. gpu-binpack"))
    if namespaces.is_shared(spec.namespace):
        problems.append(
            Problem(
                "namespace",
                "the scheduler needs a namespace of its own, which gpuready creates and deletes: not default, "
                "and not a kube- namespace (the prefix is reserved for Kubernetes system namespaces)",
                spec.namespace,
                (namespaces.BINPACK_SCHEDULER, "any other namespace of its own"),
                f"leave namespace unset for {namespaces.BINPACK_SCHEDULER}",
            )
        )
    elif not _DNS_LABEL.match(spec.namespace):
        problems.append(
            Problem("namespace", "not a valid namespace name", spec.namespace, (DNS_LABEL_RULE,), "e.g. gpu-scheduling")
        )
    if spec.scheduler_name == DEFAULT_SCHEDULER_NAME:
        problems.append(
            Problem(
                "schedulerName",
                "is the cluster's own scheduler; every scheduler needs a unique name",
                spec.scheduler_name,
                (BINPACK_SCHEDULER, "any other DNS subdomain"),
                "leave schedulerName unset for gpu-binpack",
            )
        )
    elif len(spec.scheduler_name) > 253 or not _DNS_SUBDOMAIN.match(spec.scheduler_name):
        problems.append(
            Problem(
                "schedulerName",
                "not a valid scheduler name (Pod spec.schedulerName is a DNS subdomain)",
                spec.scheduler_name,
                ("lowercase a-z, 0-9, '-' and '.', at most 253 characters",),
                "e.g. gpu-binpack",
            )
        )


def _check_gpu_resources(spec: SchedulerFields, problems: list[Problem]) -> None:
    seen: set[str] = set()
    for index, name in enumerate(spec.gpu_resources):
        path = f"gpuResources[{index}]"
        reason = qualified_name_problem(name) if isinstance(name, str) else "must be a string"
        if reason is None and "/" not in name:
            reason = "an extended resource name needs a domain prefix"
        if reason is None and (prefix_is_under(name, "kubernetes.io") or prefix_is_under(name, "k8s.io")):
            reason = "extended resources live outside the kubernetes.io and k8s.io domains"
        if reason is not None:
            problems.append(
                Problem(
                    path, reason, name, ("nvidia.com/gpu.shared", "nvidia.com/mig-1g.10gb"), "use the name pods request"
                )
            )
        elif name == GPU_RESOURCE or name in seen:
            problems.append(
                Problem(
                    path, "listed twice", name, ("names other than nvidia.com/gpu",), "nvidia.com/gpu is always scored"
                )
            )
        seen.add(name)


def _check_pod(spec: SchedulerFields, problems: list[Problem]) -> None:
    if isinstance(spec.replicas, bool) or not isinstance(spec.replicas, int) or spec.replicas < 1:
        problems.append(
            Problem("replicas", "must be 1 or more", spec.replicas, ("1", "2", "3"), "2 survives a node loss")
        )
    cpu = _quantity("cpuRequest", spec.cpu_request, "100m", problems)
    if cpu is not None and cpu <= 0:
        problems.append(Problem("cpuRequest", "must be more than 0", spec.cpu_request, ("100m", "0.5"), "e.g. 100m"))
    request = _quantity("memoryRequest", spec.memory_request, "256Mi", problems)
    if spec.memory_limit is None:
        return
    limit = _quantity("memoryLimit", spec.memory_limit, "1Gi", problems)
    if request is not None and limit is not None and limit < request:
        problems.append(
            Problem(
                "memoryLimit",
                f"is below memoryRequest ({spec.memory_request})",
                spec.memory_limit,
                (f">= {spec.memory_request}",),
                "raise memoryLimit or remove it",
            )
        )


def _quantity(path: str, text: str, example: str, problems: list[Problem]) -> Fraction | None:
    value = parse_quantity(text) if isinstance(text, str) and not text.startswith("-") else None  # requests >= 0
    if value is None:
        problems.append(
            Problem(
                path, "not a Kubernetes quantity", text, (example, "0.5", "1Gi"), "a number with an optional suffix"
            )
        )
        return None
    return value


def _check_placement(spec: SchedulerFields, problems: list[Problem]) -> None:
    for key, value in spec.node_selector.items():
        path = f"nodeSelector[{key!r}]"
        reason = qualified_name_problem(key) or (label_value_problem(value) if isinstance(value, str) else "not text")
        if reason:
            problems.append(Problem(path, reason, f"{key}={value}", ("<label key>=<label value>",), "use a node label"))
        elif key == LABEL_GPU_POOL:
            problems.append(
                Problem(
                    path,
                    "gpuready keeps the scheduler off GPU nodes with this label itself",
                    key,
                    ("labels of your system or CPU nodes",),
                    "remove it",
                )
            )
    gpu_keys = ("", GPU_TAINT_KEY, *spec.gpu_taint_keys)  # "" with Exists tolerates every taint
    for index, toleration in enumerate(spec.tolerations):
        _check_toleration(f"tolerations[{index}]", toleration, gpu_keys, problems)


def _check_toleration(
    path: str, toleration: SchedulerToleration, gpu_keys: tuple[str, ...], problems: list[Problem]
) -> None:
    key, operator, value, effect = toleration.key, toleration.operator, toleration.value, toleration.effect
    if key in gpu_keys:
        problems.append(
            Problem(
                f"{path}.key",
                f"would let the scheduler run on GPU nodes (tolerates {f'the {key} taint' if key else 'every taint'})",
                key,
                ("keys of your system nodes' taints, e.g. CriticalAddonsOnly",),
                "the scheduler belongs on CPU nodes; remove this toleration",
            )
        )
    elif reason := qualified_name_problem(key):
        problems.append(Problem(f"{path}.key", reason, key, ("<taint key>",), "e.g. CriticalAddonsOnly"))
    if operator not in TOLERATION_OPERATORS:
        problems.append(
            Problem(f"{path}.operator", "unknown operator", operator, TOLERATION_OPERATORS, "Exists ignores the value")
        )
    elif operator == "Exists" and value:
        problems.append(
            Problem(
                f"{path}.value",
                "must be empty with operator Exists",
                value,
                ("an empty value",),
                "remove it, or use Equal",
            )
        )
    elif reason := label_value_problem(value):
        problems.append(Problem(f"{path}.value", reason, value, ("<taint value>",), "copy the taint's value"))
    if effect is not None and effect not in TAINT_EFFECTS:
        problems.append(
            Problem(
                f"{path}.effect", "unknown taint effect", effect, TAINT_EFFECTS, "leave unset to tolerate all effects"
            )
        )


def _check_image_repository(spec: SchedulerFields, problems: list[Problem]) -> None:
    repository = spec.image_repository
    last = repository.rpartition("/")[2]
    if not repository or any(c.isspace() for c in repository) or "@" in repository or ":" in last:
        problems.append(
            Problem(
                "imageRepository",
                "not an image repository without tag or digest",
                repository,
                ("registry.k8s.io/kube-scheduler", "<your mirror>/kube-scheduler"),
                "gpuready appends the tag from the kube-scheduler version",
            )
        )
