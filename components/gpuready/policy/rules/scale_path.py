"""Rules on whether any program's GPU pools scale: the scale-path model (``gpuready.core.scale_path``) applied to
raw NodePools, workloads and ComputeClasses (issue #24). Pure.

- A NodePool's ``nvidia.com/gpu`` limit is spent at what each node *reports* (kubernetes-sigs/karpenter v1.14.1
  ``pkg/controllers/state/statenode.go`` L359-375, ``scheduling/scheduler.go`` L1069-1085): a node whose GPUs are
  time-sliced or MPS-shared (``nvidia.com/device-plugin.config`` ``<mode>-x<N>``, gpuready's and the device plugin's
  naming, or any other name whose config the stack carries: ``sharing_configs``) or cut into MIG devices advertised
  as ``nvidia.com/gpu`` (``nvidia.com/mig.config`` ``all-<profile>`` / ``all-balanced``, mig-parted's names) reports
  more than its physical GPUs, so a limit of nodes x physical GPUs stops the pool after one node or two.
- Karpenter ignores pods with ResourceClaims (``IGNORE_DRA_REQUESTS``, default true: ``scheduler.go`` L583-586,
  ``pkg/operator/options/options.go`` L133): a NodePool of DRA nodes (``gpuready.io/advertise=dra``) or a pod that
  claims devices and selects a NodePool never gets a node.
- Karpenter's instance types have ``nvidia.com/gpu`` only (aws/karpenter-provider-aws v1.14.1
  ``pkg/providers/instancetype/types.go`` L336-349; Azure/karpenter-provider-azure v1.14.2 ``instancetype.go``
  L269-278): a pod that selects a NodePool and requests ``nvidia.com/mig-<profile>`` or ``nvidia.com/gpu.shared``
  gets a node only through a NodeOverlay with Karpenter's ``NodeOverlay`` gate on.
- The cluster autoscaler scales a DRA node group up from zero only where its cloud provider builds templates with
  ResourceSlices, which the AWS, Azure and GCE providers do not (kubernetes/autoscaler@55c37cd
  ``cluster-autoscaler/docs/dra_support.md`` L70-73): a DRA node group (``gpuready.io/advertise=dra``) at zero
  nodes never gets one.
- GKE makes nodes of a ComputeClass only for pods that select ``cloud.google.com/compute-class`` (GKE docs, "About
  custom ComputeClasses"): a workload that selects a class's node labels but not the class stays Pending.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.advertisers.registry import advertiser_for_labels
from gpuready.core.capacity.karpenter_nodepool import GPU_LIMIT, NODE_POOL_LABEL
from gpuready.core.catalog import lookup
from gpuready.core.catalog.mig_profiles import mig_config_name
from gpuready.core.node_names import GPU_RESOURCE
from gpuready.core.props import as_list, as_mapping, dig, text_map
from gpuready.core.scale_path.karpenter_limits import NODES, nodes_within
from gpuready.core.scheduling import LABEL_DEVICE_PLUGIN_CONFIG, LABEL_MIG_CONFIG
from gpuready.errors import SpecError
from gpuready.policy.rules.elastic_pools import ELASTIC_TYPES, NODE_POOL_TYPES, ElasticPool, elastic_pools
from gpuready.policy.rules.gpu_pools import POOL_TYPES, gpu_pools
from gpuready.policy.rules.sharing_configs import SOURCE_TYPES, Sharing, stack_sharing
from gpuready.policy.rules.stack import Finding, StackResource
from gpuready.policy.rules.workloads import POD_SPEC_PATHS, pod_spec

SHARED_CONFIG = re.compile(r"^(time-slicing|mps)-x(\d+)(-renamed)?")
"""gpuready's device-plugin config names (``sharing_plan.device_plugin_config_name``): mode, replicas, renamed."""
CLASS_LABEL = "cloud.google.com/compute-class"
LIMIT_CITE = "kubernetes-sigs/karpenter v1.14.1 statenode.go L359-375, scheduler.go L1069-1085"
DRA_CITE = "kubernetes-sigs/karpenter v1.14.1 scheduler.go L583-586, options.go L133 (IGNORE_DRA_REQUESTS=true)"
RESOURCES_CITE = (
    "aws/karpenter-provider-aws v1.14.1 pkg/providers/instancetype/types.go L336-349; "
    "Azure/karpenter-provider-azure v1.14.2 pkg/providers/instancetype/instancetype.go L269-278"
)
DRA_DOC = "kubernetes/autoscaler@55c37cd cluster-autoscaler/docs/dra_support.md L70-73"
MOST = 1000


def limit_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """``limit_problems`` of every NodePool of the stack, its nodes' sharing read from the stack's configs."""
    sharing = stack_sharing(resources)
    return [
        Finding(r.urn, f"NodePool {r.name!r}: {message}")
        for r in resources
        if r.type in NODE_POOL_TYPES
        for message in limit_problems(r.type, r.props, config, sharing)
    ]


def limit_problems(
    resource_type: str,
    props: Mapping[str, Any],
    config: Mapping[str, Any],
    sharing: Mapping[str, Sharing] | None = None,
) -> list[str]:
    """A GPU NodePool's ``nvidia.com/gpu`` limit lets as many nodes launch as it was meant to, counted as they
    report (``sharing``: the stack's device-plugin configs by name, for names that are not ``<mode>-x<N>``)."""
    problems = []
    for pool in elastic_pools(resource_type, props):
        gpus = _instance_gpus(pool)
        limits = as_mapping(dig(props, "spec", "limits")) or {}
        limit = pool.gpu_limit
        if gpus is None or limit is None or pool.kind != "NodePool":
            continue
        reported, why = _reported(pool, gpus, sharing or {})
        meant = limit // gpus
        node_limit = pool.max_nodes
        if node_limit is not None:
            meant = min(meant, node_limit)
        launched = nodes_within(limits, gpus, reported, MOST)
        if launched < meant:
            problems.append(
                f"spec.limits[{GPU_LIMIT!r}] = {limit} is spent at what each node reports: {why}, so Karpenter stops "
                f"after {launched} node(s) of the {meant} the limit was meant for ({LIMIT_CITE}). Set "
                f"{GPU_LIMIT!r} to {meant * reported} and {NODES!r} to {meant}"
            )
    return problems


def dra_node_pool_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """A GPU NodePool's nodes are not DRA nodes: Karpenter never launches one for a pod with ResourceClaims."""
    problems = []
    for pool in elastic_pools(resource_type, props):
        if pool.kind == "NodePool" and advertiser_for_labels(pool.labels).slice_driver is not None:
            problems.append(
                "spec.template.metadata.labels mark DRA nodes, but Karpenter ignores pods with ResourceClaims, so no "
                f"node of this NodePool is ever made for them ({DRA_CITE}). Serve DRA from a node group with at "
                "least one node, or advertise these GPUs through the device plugin"
            )
    return problems


def dra_node_group_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """A DRA node group keeps at least one node: the cluster autoscaler cannot scale it up from zero."""
    problems = []
    for pool in gpu_pools(resource_type, props):
        if advertiser_for_labels(pool.labels).slice_driver is None:
            continue
        if pool.min_nodes_field and pool.min_nodes == 0:
            field = pool.min_nodes_field
            problems.append(
                f"{field}: 0, but the pool's nodes are DRA nodes and the cluster autoscaler builds a "
                "group at zero from a template without ResourceSlices, so pods claiming its devices never scale it "
                f"up ({DRA_DOC}). Set {field.removeprefix(pool.where)} to 1"
            )
    return problems


def workload_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """A pod on a NodePool (selected by ``karpenter.sh/nodepool``, or by labels only one of the stack's GPU
    NodePools' nodes carry) asks only for what Karpenter can make a node for: no ResourceClaims, and no GPU resource
    but ``nvidia.com/gpu`` unless one of the stack's NodeOverlays adds it."""
    pools: list[tuple[str, Mapping[str, str]]] = []
    overlaid: set[str] = set()
    for resource in resources:
        if resource.type == NODE_OVERLAY_TYPE:
            overlaid.update(str(k) for k in as_mapping(dig(resource.props, "spec", "capacity")) or {})
        for pool in elastic_pools(resource.type, resource.props) if resource.type in NODE_POOL_TYPES else ():
            pools.append((pool.name, pool.labels))
    findings: list[Finding] = []
    for resource in resources:
        found = pod_spec(resource.type, resource.props)
        if found is None:
            continue
        path, spec = found
        selector = text_map(spec.get("nodeSelector"))
        target = selector.get(NODE_POOL_LABEL) or next(
            (name for name, labels in pools if selector and all(labels.get(k) == v for k, v in selector.items())),
            None,
        )  # fmt: skip
        if target is not None:
            findings.extend(Finding(resource.urn, m) for m in _pod_problems(".".join(path), spec, target, overlaid))
    return findings


def _pod_problems(where: str, spec: Mapping[str, Any], node_pool: str, overlaid: set[str]) -> list[str]:
    problems = []
    if as_list(spec.get("resourceClaims")):
        problems.append(
            f"{where}.resourceClaims: the pod runs on NodePool {node_pool!r}, and Karpenter ignores pods with "
            f"ResourceClaims: it stays Pending ({DRA_CITE}). Run it on a DRA node group instead"
        )
    for name in sorted(_requested(spec) - overlaid):
        if name != GPU_RESOURCE and name.startswith("nvidia.com/"):
            problems.append(
                f"{where}: requests {name} on NodePool {node_pool!r}, but Karpenter's instance types have "
                f"nvidia.com/gpu only, so no node is made for it ({RESOURCES_CITE}) unless a NodeOverlay adds it "
                "with Karpenter's NodeOverlay feature gate on. Request nvidia.com/gpu (MIG strategy single, sharing "
                "without renameByDefault), or add the NodeOverlay and turn the gate on"
            )
    return problems


def compute_class_selection_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """A workload that selects a GPU ComputeClass's node labels also selects the class itself."""
    classes: list[tuple[str, Mapping[str, str]]] = []
    for resource in resources:
        for pool in elastic_pools(resource.type, resource.props) if resource.type in ELASTIC_TYPES else ():
            if pool.kind == "ComputeClass":
                classes.append((pool.name, pool.labels))
    findings = []
    for resource in resources:
        found = pod_spec(resource.type, resource.props)
        if found is None:
            continue
        path, spec = found
        selector = text_map(spec.get("nodeSelector"))
        for name, labels in classes:
            shared = {k: v for k, v in selector.items() if labels.get(k) == v}
            if shared and selector.get(CLASS_LABEL) != name:
                findings.append(Finding(resource.urn, (
                    f"{'.'.join(path)}.nodeSelector selects the nodes of ComputeClass {name!r} ({shared}) but not the "
                    f"class: GKE creates the class's nodes only for pods that select {CLASS_LABEL}={name}, so the "
                    f"pods stay Pending. Add {CLASS_LABEL}: {name} to the nodeSelector and tolerate the taint "
                    f"{CLASS_LABEL}={name}:NoSchedule"
                )))  # fmt: skip
    return findings


COMPUTE_CLASS_STACK_TYPES = ELASTIC_TYPES | frozenset(POD_SPEC_PATHS)
NODE_OVERLAY_TYPE = "kubernetes:karpenter.sh/v1alpha1:NodeOverlay"
WORKLOAD_STACK_TYPES = NODE_POOL_TYPES | frozenset({*POD_SPEC_PATHS, NODE_OVERLAY_TYPE})
NODE_POOL_RESOURCE_TYPES = NODE_POOL_TYPES
LIMIT_STACK_TYPES = NODE_POOL_TYPES | frozenset(SOURCE_TYPES)
NODE_GROUP_TYPES = POOL_TYPES


def _instance_gpus(pool: ElasticPool) -> int | None:
    if not pool.instance_types:
        return None
    try:
        return lookup.resolve_instance_type(pool.catalog, pool.instance_types[0], None).gpus
    except SpecError:
        return None


def _reported(pool: ElasticPool, gpus: int, sharing: Mapping[str, Sharing]) -> tuple[int, str]:
    """``nvidia.com/gpu`` one node reports (by its sharing and MIG labels), and why."""
    labels = pool.labels
    name = labels.get(LABEL_DEVICE_PLUGIN_CONFIG, "")
    shared = SHARED_CONFIG.match(name)
    named = Sharing(shared.group(1), int(shared.group(2)), bool(shared.group(3))) if shared else sharing.get(name)
    if named is not None:
        source = "" if shared else f" (device-plugin config {name!r} of the stack)"
        if named.renamed:
            return 0, f"its shares are renamed away from nvidia.com/gpu{source}"
        reported = gpus * named.replicas
        return reported, f"{gpus} GPUs x {named.replicas} {named.mode} shares = {reported}{source}"
    layout = labels.get(LABEL_MIG_CONFIG, "")
    model = pool.model
    table = model.mig if model is not None else None
    if layout and table is not None:
        per_gpu = sum(table.balanced.values()) if layout == "all-balanced" else next(
            (n for p, n in table.profiles.items() if mig_config_name(p) == layout), 0
        )  # fmt: skip
        if per_gpu:
            return gpus * per_gpu, (
                f"{gpus} GPUs x {per_gpu} MIG devices ({layout}) = {gpus * per_gpu} when the device plugin "
                "advertises them as nvidia.com/gpu (MIG strategy single)"
            )
    return gpus, f"{gpus} GPUs"


def _requested(spec: Mapping[str, Any]) -> set[str]:
    names: set[str] = set()
    for list_name in ("initContainers", "containers"):
        for container in as_list(spec.get(list_name)):
            resources = as_mapping(dig(container, "resources")) or {}
            for part in ("limits", "requests"):
                names.update(str(k) for k in (as_mapping(resources.get(part)) or {}))
    return names
