"""Rules on node fabrics in any program's stack (issue #30). Pure.

- GPU pools whose types have a fabric they do not set up (each cloud's ``CloudFabric.policy_problems``), and pods
  that request a fabric's devices on a pool without them. A pod requesting an extended resource no node of the pool
  it selects advertises stays Pending (the scheduler's ``NodeResourcesFit``; kubernetes.io "Resource Management for
  Pods and Containers", extended resources). The pool a pod lands on is read from its ``nodeSelector`` against the
  pools' node labels; a pod without one is not judged.
- A GKE pool on a GPUDirect machine (A3 High / Mega, A3 Ultra, A4) without the additional node networks its NICs
  need leaves NCCL on TCP over the primary NIC (GKE "Maximize GPU network bandwidth with GPUDirect and
  multi-networking": a workload must use all the node's GPUs and secondary NICs); how many each machine needs is the
  cloud's (``CloudFabric.networks``), read wherever the cloud keeps them (``CloudFabric.policy_networks_field``).
- A pod asking for an RDMA device (``rdma/...``, the RDMA shared device plugin's resource prefix) must select pools
  with an InfiniBand fabric, and something must advertise the device there: NVIDIA's Network Operator
  (Azure/aks-rdma-infiniband; chart ``network-operator``), else the pod stays Pending.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from typing import TYPE_CHECKING, Any

from gpuready.core.clouds.registry import cloud_profiles, profiles_for_type
from gpuready.core.clouds.type_scope import TypeScope
from gpuready.core.props import as_list, as_mapping, dig, text_map
from gpuready.policy.rules.charts import INSTALL_TYPES
from gpuready.policy.rules.cross_resource import chart_name_of
from gpuready.policy.rules.gpu_pools import POOL_TYPES, GpuPool, gpu_pools
from gpuready.policy.rules.k8s import selector_matches
from gpuready.policy.rules.stack import Finding, StackResource, collect
from gpuready.policy.rules.workloads import WORKLOAD_TYPES, pod_spec

if TYPE_CHECKING:
    from gpuready.core.clouds.catalog_facts import CloudCatalog

RDMA_PREFIX = "rdma/"
"""Resource prefix of Mellanox/k8s-rdma-shared-dev-plugin (README, "Configuration": ``resourcePrefix``)."""
NETWORK_OPERATOR_CHART = "network-operator"
"""NVIDIA's Network Operator chart (Mellanox/network-operator ``deployment/network-operator/Chart.yaml``)."""
INFINIBAND = "infiniband"


def gpudirect_network_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """A pool on a machine whose fabric needs additional node networks declares all of them."""
    problems = []
    for pool in gpu_pools(resource_type, props):
        fabric = pool.catalog.fabric
        for machine in pool.instance_types:
            needed = fabric.networks.get(machine)
            if not needed:
                continue
            field = fabric.policy_networks_field
            have = len(as_list(dig(pool.props, *field.split("."))))
            if have == needed:
                continue
            kind = fabric.types[machine].kind
            problems.append(
                f"{pool.where}{field}: {machine} has {kind} over {needed} extra NICs, but the pool declares {have} "
                f"additional node networks, so NCCL falls back to TCP on the primary NIC. Give it one network per "
                f"NIC (gpuready: fabric: {{kind: {kind}, networks: [...]}}), or use a machine without GPUDirect for "
                "single-node work"
            )
    return problems


def rdma_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """Pods asking for ``rdma/...`` select InfiniBand pools, and the stack runs the Network Operator for them."""
    pools, _ = collect(resources)
    operator = any(r.type in INSTALL_TYPES and chart_name_of(r.props) == NETWORK_OPERATOR_CHART for r in resources)
    findings = []
    for r in resources:
        asked = _rdma_resources(r.type, r.props)
        found = pod_spec(r.type, r.props)
        if not asked or found is None:
            continue
        selector = text_map(as_mapping(found[1].get("nodeSelector")) or {})
        selected = [p for p in pools if selector and selector_matches(selector, p.pool.labels)]
        if not selected:
            continue  # the pools it lands on are not in this stack: nothing to judge
        kind = r.type.rsplit(":", 1)[-1]
        wanted = ", ".join(sorted(asked))
        without = [p.label for p in selected if not _has_infiniband(p.pool.catalog, p.pool.instance_types)]
        if without:
            findings.append(
                Finding(
                    r.urn,
                    f"{kind} {r.name!r} asks for {wanted}, but the pools its nodeSelector picks have no InfiniBand "
                    f"({', '.join(without)}), so nothing there advertises RDMA devices and its pods stay Pending. "
                    "Select a pool on an ND-series size with fabric: infiniband, or drop the RDMA request",
                )
            )
        elif not operator:
            findings.append(
                Finding(
                    r.urn,
                    f"{kind} {r.name!r} asks for {wanted} on InfiniBand pools ({', '.join(p.label for p in selected)})"
                    ", "
                    "but this stack runs no Network Operator to advertise the RDMA devices, so its pods stay Pending. "
                    "Give the pool fabric: infiniband (gpuready installs NVIDIA's Network Operator and its "
                    "NicClusterPolicy) or install the network-operator chart",
                )
            )
    return findings


def _rdma_resources(resource_type: str, props: Mapping[str, Any]) -> set[str]:
    found = pod_spec(resource_type, props)
    if found is None:
        return set()
    names: set[str] = set()
    for key in ("initContainers", "containers"):
        for container in as_list(found[1].get(key)):
            resources = as_mapping(dig(container, "resources")) or {}
            for section in ("limits", "requests"):
                names.update(n for n in as_mapping(resources.get(section)) or {} if str(n).startswith(RDMA_PREFIX))
    return names


def _has_infiniband(catalog: CloudCatalog, instance_types: Sequence[str]) -> bool:
    fold = catalog.instance_types_fold_case  # Azure VM sizes match whatever their case
    types = {(k.lower() if fold else k): v.kind for k, v in catalog.fabric.types.items()}
    return bool(instance_types) and all(types.get(t.lower() if fold else t) == INFINIBAND for t in instance_types)


def fabric_types() -> Set[str]:
    """The resource types the rule reads: pools, workloads, and what the clouds' fabric hooks read (asked of the
    clouds that may own a type only)."""
    extra = TypeScope(
        lambda token: any(token in p.fabric.policy_types for p in profiles_for_type(token)),
        lambda: {kind for profile in cloud_profiles() for kind in profile.fabric.policy_types},
    )
    return POOL_TYPES | WORKLOAD_TYPES | extra


def fabric_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """Pools without the fabric their types have, and pods asking for a fabric their pool lacks."""
    stack = [(r.type, r.props) for r in resources]
    pools = [(r, pool) for r in resources for pool in gpu_pools(r.type, r.props)]
    findings = []
    for resource, pool in pools:
        for message in pool.catalog.fabric.policy_problems(pool.where, pool.props, pool.instance_types, stack):
            findings.append(Finding(resource.urn, f"{_kind(resource)} {resource.name!r}: {message}"))
    names: set[str] | None = None  # every cloud's fabric resources: asked only of a pod placed on a pool
    for resource in resources:
        found = pod_spec(resource.type, resource.props)
        if found is None:
            continue
        path, spec = found
        selector = as_mapping(spec.get("nodeSelector")) or {}
        placed = [pool for _, pool in pools if selector and all(pool.labels.get(k) == v for k, v in selector.items())]
        requested = _requested(spec) if placed else set()
        if not requested:
            continue
        if names is None:
            names = {name for profile in cloud_profiles() for name in profile.fabric.resource_names}
        wanted = sorted(requested & names)
        for pool in placed if wanted else ():
            findings += _lacking(resource, path, wanted, pool)
    return findings


def _requested(spec: Mapping[str, Any]) -> set[str]:
    names: set[str] = set()
    for key in ("initContainers", "containers"):
        for container in as_list(spec.get(key)):
            for side in ("limits", "requests"):
                names.update(str(n) for n in as_mapping(dig(container, "resources", side)) or {})
    return names


def _lacking(resource: StackResource, path: tuple[str, ...], wanted: list[str], pool: GpuPool) -> list[Finding]:
    fabric = pool.catalog.fabric
    offered: set[str] = set()
    for name in pool.instance_types:
        offered.update(fabric.type_resources(name))
    missing = [name for name in wanted if name not in offered]
    if not missing:
        return []
    types = ", ".join(pool.instance_types) or "its instance types"
    return [
        Finding(
            resource.urn,
            f"{_kind(resource)} {resource.name!r}: {'.'.join(path)} requests {', '.join(missing)}, but its "
            f"nodeSelector picks the pool on {types}, which has none: its pods stay Pending. Select a pool with the "
            "fabric (fabric: efa on a gpuready pool), or drop the request",
        )
    ]


def _kind(resource: StackResource) -> str:
    return resource.type.rsplit(":", 1)[-1]
