"""Recognise GPU node pools among raw cloud resources and read them in one shape. Pure.

A pool is a GPU pool when its instance type, VM size or accelerators say so, looked up in gpuready's
catalog (``gpuready.core.catalog``) with a fallback on GPU instance families the catalog does not list,
so the rules apply to any program, not only to gpuready's components.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gpuready.core.catalog.gpus import GPU_MODELS, GpuModel, gpu_model_for_gke_accelerator
from gpuready.core.catalog.instance_types import InstanceType
from gpuready.core.clouds.registry import CLOUDS, Cloud, cloud_profile
from gpuready.core.props import as_list, as_mapping, as_text, text_map
from gpuready.core.taints import Taint
from gpuready.policy.rules.k8s import api_taint, parse_aks_taint

EKS_NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
AKS_AGENT_POOL = "azure-native:containerservice:AgentPool"
AKS_MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
GKE_NODE_POOL = "gcp:container/nodePool:NodePool"
POOL_TYPES = frozenset({EKS_NODE_GROUP, AKS_AGENT_POOL, AKS_MANAGED_CLUSTER, GKE_NODE_POOL})

EKS_EXTRA_GPU_FAMILIES = frozenset({"p3", "p6e-gb200"})
"""NVIDIA EC2 families the catalog does not list yet (shared reference nvidia.md 5, clouds.md 8)."""
GKE_EXTRA_GPU_PREFIXES = ("g4-", "a4x-")
"""GCE GPU machine families the catalog does not list yet (G4 RTX PRO 6000, A4X GB200; clouds.md 4.1)."""
_AKS_NVIDIA_SIZE = re.compile(r"^standard_n[cd](?!.*mi300)", re.IGNORECASE)
"""Azure NC/ND sizes are NVIDIA GPU VMs, except the AMD MI300X ND v5 (azure-compute-docs gpu-accelerated)."""

_EKS_FAMILIES = frozenset(name.split(".")[0] for name in cloud_profile("eks").instance_types) | EKS_EXTRA_GPU_FAMILIES
_GKE_PREFIXES = (
    tuple(sorted({name.rsplit("-", 1)[0] + "-" for name in cloud_profile("gke").instance_types}))
    + GKE_EXTRA_GPU_PREFIXES
)
_AKS_FOLDED: Mapping[str, InstanceType] = {name.lower(): t for name, t in cloud_profile("aks").instance_types.items()}
_ANY_FOLDED: Mapping[str, tuple[Cloud, InstanceType]] = {
    name.lower(): (cloud, t) for cloud in CLOUDS for name, t in cloud_profile(cloud).instance_types.items()
}
"""Every catalog instance type by lowercase name (names never collide across clouds), with its cloud."""


@dataclass(frozen=True, slots=True)
class GpuPool:
    """One GPU node pool, whatever resource declared it."""

    cloud: Cloud
    where: str
    """Field prefix of the pool inside its resource: ``""``, or ``agentPoolProfiles[1].`` in a ManagedCluster."""
    name: str
    """The pool's own name where the resource gives one, else ``""``."""
    props: Mapping[str, Any]
    """The pool's properties (the profile's, inside a ManagedCluster)."""
    instance_types: tuple[str, ...]
    model: GpuModel | None
    """The GPU, when the catalog knows the instance type or accelerator."""
    arch: str | None
    taints: tuple[Taint, ...]
    labels: Mapping[str, str]
    own_plugin: str | None = None
    """Who runs a device plugin on the pool outside the GPU stack when the pool object says it (an elastic
    provisioner's own, ``""`` for none); None: the cloud profile reads the pool resource."""

    @property
    def taints_field(self) -> str:
        return self.where + cloud_profile(self.cloud).policy_fields[0]

    @property
    def labels_field(self) -> str:
        return self.where + cloud_profile(self.cloud).policy_fields[1]

    @property
    def mig_capable(self) -> bool:
        return self.model is not None and self.model.mig is not None


_READ: dict[int, tuple[Mapping[str, Any], str, tuple[GpuPool, ...]]] = {}
"""``id(props)`` -> (props, type, pools) for read-only props; the entry holds ``props``, so the id stays its."""
_READ_LIMIT = 4096


def gpu_pools(resource_type: str, props: Mapping[str, Any]) -> list[GpuPool]:
    """The GPU pools a resource declares: none, one, or one per GPU profile of a ManagedCluster.

    Every resource policy and every stack policy reads the pools of the same resource; the analyzer hands them
    all one read-only props object, so the answer is remembered per object. Plain dicts (which a caller may
    change between calls) are read afresh each time.
    """
    if type(props) is dict:
        return _read_pools(resource_type, props)
    seen = _READ.get(id(props))
    if seen is not None and seen[0] is props and seen[1] == resource_type:
        return list(seen[2])
    pools = _read_pools(resource_type, props)
    if len(_READ) >= _READ_LIMIT:
        _READ.clear()
    _READ[id(props)] = (props, resource_type, tuple(pools))
    return pools


def _read_pools(resource_type: str, props: Mapping[str, Any]) -> list[GpuPool]:
    if resource_type == EKS_NODE_GROUP:
        pool = _eks_pool(props)
        return [pool] if pool is not None else []
    if resource_type == AKS_AGENT_POOL:
        pool = _aks_pool(props, "", as_text(props.get("agentPoolName")) or "")
        return [pool] if pool is not None else []
    if resource_type == AKS_MANAGED_CLUSTER:
        pools = []
        for index, profile in enumerate(as_list(props.get("agentPoolProfiles"))):
            mapping = as_mapping(profile)
            if mapping is not None:
                name = as_text(mapping.get("name")) or ""
                pool = _aks_pool(mapping, f"agentPoolProfiles[{index}].", name)
                if pool is not None:
                    pools.append(pool)
        return pools
    if resource_type == GKE_NODE_POOL:
        pool = _gke_pool(props)
        return [pool] if pool is not None else []
    return []


def describe(pool: GpuPool, resource_name: str = "") -> str:
    """How messages name a pool: its resource name, plus the profile inside a ManagedCluster."""
    if pool.where:
        return f"{resource_name} {pool.where.rstrip('.')} ({pool.name})".strip()
    return resource_name or pool.name


def _eks_pool(props: Mapping[str, Any]) -> GpuPool | None:
    types = tuple(t for t in as_list(props.get("instanceTypes")) if isinstance(t, str))
    listed = [cloud_profile("eks").instance_types[t] for t in types if t in cloud_profile("eks").instance_types]
    ami = as_text(props.get("amiType")) or ""
    gpu = bool(listed) or any(t.split(".")[0] in _EKS_FAMILIES for t in types)
    if not types:  # instance types from a launch template: only the AMI type tells
        gpu = "NVIDIA" in ami or ami.endswith("_GPU")
    if not gpu:
        return None
    model, arch = (GPU_MODELS[listed[0].gpu], listed[0].arch) if listed else (None, None)
    taints = tuple(t for t in (api_taint(e) for e in as_list(props.get("taints"))) if t is not None)
    return GpuPool(
        "eks",
        "",
        as_text(props.get("nodeGroupName")) or "",
        props,
        types,
        model,
        arch,
        taints,
        text_map(props.get("labels")),
    )


def _aks_pool(props: Mapping[str, Any], where: str, name: str) -> GpuPool | None:
    size = as_text(props.get("vmSize")) or ""
    listed = _AKS_FOLDED.get(size.lower())
    gpu = (
        listed is not None
        or bool(_AKS_NVIDIA_SIZE.match(size))
        or props.get("gpuProfile") is not None
        or props.get("gpuInstanceProfile") is not None
    )
    if not gpu:
        return None
    taints = tuple(t for t in (parse_aks_taint(e) for e in as_list(props.get("nodeTaints")) if isinstance(e, str)) if t)
    model = GPU_MODELS[listed.gpu] if listed else None
    return GpuPool(
        "aks",
        where,
        name,
        props,
        (size,) if size else (),
        model,
        listed.arch if listed else None,
        taints,
        text_map(props.get("nodeLabels")),
    )


def _gke_pool(props: Mapping[str, Any]) -> GpuPool | None:
    config = as_mapping(props.get("nodeConfig")) or {}
    machine = as_text(config.get("machineType")) or ""
    profile = cloud_profile("gke")
    accelerators = profile.policy_accelerators(config)
    listed = profile.instance_types.get(machine)
    if not accelerators and listed is None and not machine.startswith(_GKE_PREFIXES):
        return None
    model = GPU_MODELS[listed.gpu] if listed else None
    for accelerator in accelerators:
        model = gpu_model_for_gke_accelerator(as_text(accelerator.get("type")) or "") or model
    taints = tuple(t for t in (api_taint(e) for e in as_list(config.get("taints"))) if t is not None)
    return GpuPool(
        "gke",
        "",
        as_text(props.get("name")) or "",
        props,
        (machine,) if machine else (),
        model,
        listed.arch if listed else None,
        taints,
        text_map(config.get("labels")),
    )


def gpu_instance_type(name: str) -> tuple[Cloud, InstanceType | None] | None:
    """The cloud and catalog entry of a GPU instance type / VM size / machine type of any cloud (the entry None for a
    GPU family the catalog does not list), or None when it is not a known GPU type."""
    listed = _ANY_FOLDED.get(name.lower())
    if listed is not None:
        return listed
    if _AKS_NVIDIA_SIZE.match(name):
        return "aks", None
    if "." in name and name.split(".", maxsplit=1)[0] in _EKS_FAMILIES:
        return "eks", None
    return ("gke", None) if name.startswith(_GKE_PREFIXES) else None


def eks_gpu_family(family: str) -> bool:
    """Whether an EC2 instance family (``g6``, ``p5``) is an NVIDIA GPU family."""
    return family in _EKS_FAMILIES


def gke_gpu_family(family: str) -> bool:
    """Whether a GCE machine family (``g2``, ``a3``) is a GPU family."""
    return any(prefix.startswith(family + "-") for prefix in _GKE_PREFIXES)


def first(items: Sequence[str]) -> str:
    """The first item, or ``""``; for naming an instance type in a message."""
    return items[0] if items else ""
