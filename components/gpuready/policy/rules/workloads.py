"""Rules on Kubernetes workloads from pulumi-kubernetes: GPU quantities, tolerations, MIG resource names. Pure.

Kubernetes facts (kubernetes/website ``manage-resources-containers.md``, ``scheduling-gpus.md``): extended
resources take whole quantities only (``0.5`` is rejected); GPU requests must equal limits, and requests
without limits are invalid. AKS has no ExtendedResourceToleration (Azure/AKS#1449), so a GPU pod without an
explicit toleration never schedules on a tainted GPU pool there.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from gpuready.core import scheduling
from gpuready.core.advertisers.extended_resources import MIG_RESOURCE_PREFIX
from gpuready.core.conventions import gpu_taint_of
from gpuready.core.props import as_list, as_mapping, as_text, dig, show
from gpuready.policy.rules.gpu_configs import MIG_RESOURCES
from gpuready.policy.rules.k8s import any_tolerates, parse_quantity, tolerates
from gpuready.record import record

POD_SPEC_PATHS: Mapping[str, tuple[str, ...]] = {
    "kubernetes:core/v1:Pod": ("spec",),
    "kubernetes:apps/v1:Deployment": ("spec", "template", "spec"),
    "kubernetes:apps/v1:StatefulSet": ("spec", "template", "spec"),
    "kubernetes:apps/v1:DaemonSet": ("spec", "template", "spec"),
    "kubernetes:apps/v1:ReplicaSet": ("spec", "template", "spec"),
    "kubernetes:batch/v1:Job": ("spec", "template", "spec"),
    "kubernetes:batch/v1:CronJob": ("spec", "jobTemplate", "spec", "template", "spec"),
}
"""Where each workload kind keeps its pod spec."""
WORKLOAD_TYPES = frozenset(POD_SPEC_PATHS)


def pod_spec(resource_type: str, props: Mapping[str, Any]) -> tuple[tuple[str, ...], Mapping[str, Any]] | None:
    """A workload's pod spec and the path it sits at (``POD_SPEC_PATHS``); None for other types or a missing spec."""
    path = POD_SPEC_PATHS.get(resource_type)
    spec = as_mapping(dig(props, *path)) if path else None
    return None if spec is None or path is None else (path, spec)


NODE_AGENT_TYPES = frozenset({"kubernetes:apps/v1:DaemonSet"})
"""Node agents (logging, monitoring, GPU stack) legitimately run on GPU nodes without requesting GPUs."""
_CONTAINER_LISTS = ("initContainers", "containers")


@record(frozen=True, slots=True)
class GpuRequest:
    """One container's GPU resource, as limit and request."""

    field: str
    """``spec.template.spec.containers[0].resources`` and the like."""
    resource: str
    limit: Any
    request: Any


def gpu_requests(resource_type: str, props: Mapping[str, Any]) -> list[GpuRequest]:
    """Every GPU-like extended resource (``nvidia.com/gpu*``, ``nvidia.com/mig-*``) a workload's containers ask for."""
    found_spec = pod_spec(resource_type, props)
    if found_spec is None:
        return []
    path, spec = found_spec
    found = []
    for list_name in _CONTAINER_LISTS:
        for index, container in enumerate(as_list(spec.get(list_name))):
            field = f"{'.'.join(path)}.{list_name}[{index}].resources"
            resources = as_mapping(dig(container, "resources")) or {}
            limits = as_mapping(resources.get("limits")) or {}
            requests = as_mapping(resources.get("requests")) or {}
            for name in sorted({*limits, *requests}):
                if _is_gpu_resource(str(name)):
                    found.append(GpuRequest(field, str(name), limits.get(name), requests.get(name)))
    return found


def quantity_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """GPU limits are whole numbers, requests equal limits, and no request comes without a limit."""
    problems = []
    for gpu in gpu_requests(resource_type, props):
        where = f"{gpu.field}.limits[{gpu.resource!r}]"
        limit = parse_quantity(gpu.limit)
        if gpu.limit is None:
            problems.append(
                f"{gpu.field}.requests[{gpu.resource!r}]: a GPU request without a limit is rejected; got "
                f"{show(gpu.request)}. Set limits[{gpu.resource!r}] to the same whole number"
            )
            continue
        if limit is None or limit.denominator != 1 or limit < 0:
            problems.append(
                f"{where}: GPUs are whole devices, the API server rejects fractions; got {show(gpu.limit)}. "
                "Request 1 (or share GPUs with time-slicing, MPS or MIG on the pool)"
            )
            continue
        request = parse_quantity(gpu.request) if gpu.request is not None else limit
        if request != limit:
            problems.append(
                f"{gpu.field}.requests[{gpu.resource!r}]: GPU requests must equal limits; got request "
                f"{show(gpu.request)} and limit {show(gpu.limit)}. Drop the request or make it equal"
            )
    return problems


def toleration_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """Pods that request GPUs tolerate the GPU taint themselves (no ExtendedResourceToleration on AKS)."""
    if not requests_gpus(resource_type, props):
        return []
    field, tolerations = _tolerations(resource_type, props)
    taint = gpu_taint_of(config)
    if any_tolerates(tolerations, taint):
        return []
    return [
        f"{field}: the pod requests GPUs but does not tolerate the GPU taint {taint}, so it stays Pending on "
        f"tainted GPU pools (AKS adds no toleration: Azure/AKS#1449); got {show(tolerations)}. "
        f"Add {scheduling.toleration_for(taint)!r} to {field}"
    ]


def mig_resource_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """``nvidia.com/mig-<profile>`` names a profile that some MIG GPU has."""
    problems = []
    for gpu in gpu_requests(resource_type, props):
        if gpu.resource.startswith(MIG_RESOURCE_PREFIX) and gpu.resource not in MIG_RESOURCES:
            profile = gpu.resource.removeprefix(MIG_RESOURCE_PREFIX)
            close = sorted(r for r in MIG_RESOURCES if r.split(".")[0] == gpu.resource.split(".")[0])
            problems.append(
                f"{gpu.field}: no MIG GPU has a profile {profile!r}, so nothing advertises {gpu.resource!r} and the "
                f"pod never schedules. Use an existing profile{', e.g. ' + ', '.join(close[:4]) if close else ''}"
            )
    return problems


def non_gpu_toleration_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """Pods that request no GPU do not tolerate the GPU taint, so they cannot take GPU nodes (DaemonSets excepted)."""
    if resource_type not in WORKLOAD_TYPES or resource_type in NODE_AGENT_TYPES:
        return []
    if requests_gpus(resource_type, props) or claims_devices(resource_type, props):
        return []
    field, tolerations = _tolerations(resource_type, props)
    matching = [t for t in tolerations if tolerates(t, gpu_taint_of(config))]
    if not matching:
        return []
    return [
        f"{field}: the pod requests no GPU but tolerates the GPU taint ({show(matching)}), so it can occupy GPU "
        f"nodes. Remove that toleration, or request {scheduling.GPU_RESOURCE}"
    ]


def requests_gpus(resource_type: str, props: Mapping[str, Any]) -> bool:
    """Whether some container asks for a positive amount of a GPU-like resource."""
    for gpu in gpu_requests(resource_type, props):
        amount = parse_quantity(gpu.limit if gpu.limit is not None else gpu.request)
        if amount is None or amount > Fraction(0):
            return True
    return False


def claims_devices(resource_type: str, props: Mapping[str, Any]) -> bool:
    """Whether a container uses one of the pod's DRA ``resourceClaims`` (GPUs on a DRA pool, or other devices)."""
    found_spec = pod_spec(resource_type, props)
    if found_spec is None:
        return False
    _, spec = found_spec
    claims = {as_text(dig(c, "name")) for c in as_list(spec.get("resourceClaims"))} - {None}
    return any(
        as_text(dig(used, "name")) in claims
        for list_name in _CONTAINER_LISTS
        for container in as_list(spec.get(list_name))
        for used in as_list(dig(container, "resources", "claims"))
    )


def _tolerations(resource_type: str, props: Mapping[str, Any]) -> tuple[str, Any]:
    path = POD_SPEC_PATHS[resource_type]
    return ".".join((*path, "tolerations")), as_list(dig(props, *path, "tolerations"))


def _is_gpu_resource(name: str) -> bool:
    return name.startswith((scheduling.GPU_RESOURCE, MIG_RESOURCE_PREFIX))
