"""What must hold of a release gpuready plans, checked on the objects the real chart renders (``tests.helm_render``).

Each check returns the problems it found (empty when the release is right), so a test can assert on a bad
release too (the negative controls in ``test_rendered_releases.py``). Facts the checks rely on: the NFD worker
must land on every GPU pool and nowhere else (NVIDIA/gpu-operator#728, NVIDIA/aicr#230); every DaemonSet that
must reach a GPU node tolerates each taint the pools carry (NVIDIA/k8s-device-plugin#734, NVIDIA/gpu-operator#26);
a config map a release names must exist in its namespace with the keys it names, or the pods never start
(configMap volumes are not optional) or the plugin falls back to no sharing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import yaml

from gpuready.core.gpu_stack.stack_objects import ConfigMapObject
from gpuready.core.gpu_stack.stack_plan import GpuStackPlan
from gpuready.core.scheduling import LABEL_DEVICE_PLUGIN_CONFIG, LABEL_MIG_CONFIG, pool_labels, pool_taints
from gpuready.core.specs import GpuPoolSpec
from tests.helm_render import K8S, Rendered, crd_problems, is_core, pod_specs, selects, strict_problems, tolerates

__all__ = ["K8S", "pool_labels", "replace", "selects"]

NON_GPU_NODE = {"kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64", "node.kubernetes.io/instance-type": "m5"}
"""A system node of the cluster: what the NFD worker must not select."""
NFD_WORKER = "node-feature-discovery-worker"
DRA_KUBE = "1.34.0"
"""The schema version DRA releases validate against: ``resource.k8s.io/v1`` is served from Kubernetes 1.34."""
KUBELET_PLUGIN = "kubelet-plugin"


def kube_version_of(plan: GpuStackPlan) -> str:
    """The Kubernetes schema version a plan's rendered objects validate against."""
    return DRA_KUBE if plan.spec.advertises_by_dra else K8S


def device_plugin_pool_labels(pool: GpuPoolSpec) -> dict[str, str]:
    """The labels ``pool`` would carry as a device-plugin pool (a node of another stack in the same cluster)."""
    return pool_labels(replace(pool, advertise="device-plugin"))


def dra_placement_problems(rendered: Rendered, plan: GpuStackPlan, pools: Sequence[GpuPoolSpec]) -> list[str]:
    """The DRA GPU plugin and NVIDIA's device plugin never share a node: the DRA kubelet plugin selects exactly the
    DRA pools (not a device-plugin pool's nodes, not a system node); no device-plugin DaemonSet selects a DRA pool's
    nodes (those of the stack's pools as DRA pools, so a DRA stack beside this one in the cluster is covered)."""
    daemonsets = [(d["metadata"]["name"], d["spec"]["template"]["spec"]) for d in rendered.of_kind("DaemonSet")]
    if plan.spec.kind == "dra-driver":
        plugins = [(n, s) for n, s in daemonsets if n.endswith(KUBELET_PLUGIN)]
        if len(plugins) != 1:
            return [f"expected one DRA kubelet-plugin DaemonSet, got {[n for n, _ in plugins]}"]
        name, spec = plugins[0]
        problems = [f"{name} does not select DRA pool {p.name!r}" for p in pools if not selects(spec, pool_labels(p))]
        problems += [
            f"{name} selects pool {p.name!r} as a device-plugin pool"
            for p in pools
            if selects(spec, device_plugin_pool_labels(p))
        ]
        if selects(spec, NON_GPU_NODE):
            problems.append(f"{name} selects nodes of no GPU pool")
        return problems
    if plan.spec.kind == "gpu-operator-dra":
        return _gpu_cluster_placement_problems(rendered, pools)
    if plan.spec.kind != "device-plugin":
        return []  # the GPU Operator's device plugin: the DRA pools' nvidia.com/gpu.deploy.device-plugin=false
    dra_nodes = [(p.name, pool_labels(replace(p, advertise="dra"))) for p in pools if p.sharing is None]
    return [
        f"{name} selects the nodes of pool {pool!r} as a DRA pool"
        for name, spec in daemonsets
        if not name.endswith(NFD_WORKER)
        for pool, labels in dra_nodes
        if selects(spec, labels)
    ]


def _gpu_cluster_placement_problems(rendered: Rendered, pools: Sequence[GpuPoolSpec]) -> list[str]:
    """The GPUCluster's DRA kubelet plugin is placed by the operator, not the chart: on every node it labels
    ``nvidia.com/gpu.deploy.dra-driver=true``, which is every node NFD labels with an NVIDIA GPU. So the release's
    NFD worker must select no device-plugin pool's nodes, and the chart renders no ClusterPolicy (whose device
    plugin would run beside it) and no device-plugin DaemonSet of its own."""
    problems = [f"renders a ClusterPolicy ({o['metadata']['name']})" for o in rendered.of_kind("ClusterPolicy")]
    if len(rendered.of_kind("GPUCluster")) != 1:
        problems.append(f"expected one GPUCluster, got {len(rendered.of_kind('GPUCluster'))}")
    for daemonset in rendered.of_kind("DaemonSet"):
        name = daemonset["metadata"]["name"]
        if not name.endswith(NFD_WORKER):
            problems.append(f"renders DaemonSet {name} (the operator makes the GPUCluster's operands)")
            continue
        spec = daemonset["spec"]["template"]["spec"]
        problems.extend(
            f"{name} selects pool {p.name!r} as a device-plugin pool, where the operator would then put the DRA plugin"
            for p in pools
            if selects(spec, device_plugin_pool_labels(p))
        )
    return problems


def nfd_problems(rendered: Rendered, plan: GpuStackPlan, pools: Sequence[GpuPoolSpec]) -> list[str]:
    """The NFD worker DaemonSet selects every GPU pool and no other node, and tolerates every pool taint."""
    workers = [o for o in rendered.of_kind("DaemonSet") if o["metadata"]["name"].endswith(NFD_WORKER)]
    if not plan.spec.deploys_nfd:
        return [f"NFD worker rendered with nfd {plan.spec.nfd!r}"] if workers else []
    if len(workers) != 1:
        return [f"expected one NFD worker DaemonSet, got {[w['metadata']['name'] for w in workers]}"]
    spec = workers[0]["spec"]["template"]["spec"]
    problems = [f"NFD worker does not select pool {p.name!r}" for p in pools if not selects(spec, pool_labels(p))]
    if selects(spec, NON_GPU_NODE):
        problems.append("NFD worker selects nodes of no GPU pool")
    problems.extend(_untolerated("NFD worker", spec.get("tolerations") or [], pools))
    return problems


def toleration_problems(rendered: Rendered, plan: GpuStackPlan, pools: Sequence[GpuPoolSpec]) -> list[str]:
    """Plugin chart: every DaemonSet tolerates every pool taint. Operator chart: the ClusterPolicy's (or GPUCluster's)
    ``spec.daemonsets.tolerations`` (which the operator gives all its operand DaemonSets) do."""
    if plan.spec.kind in ("gpu-operator", "gpu-operator-dra"):
        kind = "ClusterPolicy" if plan.spec.kind == "gpu-operator" else "GPUCluster"
        cr = rendered.one(kind)
        return _untolerated(f"{kind} daemonsets", cr["spec"]["daemonsets"].get("tolerations") or [], pools)
    problems: list[str] = []
    daemonsets = [d for d in rendered.of_kind("DaemonSet") if not d["metadata"]["name"].endswith(NFD_WORKER)]
    if not daemonsets:
        return ["the device-plugin chart rendered no DaemonSet"]
    for daemonset in daemonsets:
        spec = daemonset["spec"]["template"]["spec"]
        problems.extend(_untolerated(daemonset["metadata"]["name"], spec.get("tolerations") or [], pools))
    return problems


def crd_validation_problems(rendered: Rendered, chart_name: str, version: str) -> list[str]:
    """Every ClusterPolicy (and GPUCluster) the chart renders is valid against the chart's own CRD."""
    problems: list[str] = []
    for obj in rendered.objects:
        if obj.get("kind") in ("ClusterPolicy", "GPUCluster"):
            problems.extend(f"{obj['kind']}: {p}" for p in crd_problems(chart_name, version, obj))
    return problems


def config_map_problems(rendered: Rendered, plan: GpuStackPlan, pools: Sequence[GpuPoolSpec]) -> list[str]:
    """Every config map a rendered object names exists in the release namespace (made by the chart, or by gpuready
    beside the release) with the keys it names; the device-plugin and MIG-manager configs hold the config every
    pool's node label picks."""
    available: dict[str, Mapping[str, str]] = dict(rendered.config_maps())
    available.update({o.name: o.data for o in plan.objects if isinstance(o, ConfigMapObject)})
    problems: list[str] = []
    for workload, spec in pod_specs(rendered.objects):
        for name, keys in _pod_config_refs(spec):
            problems.extend(_missing(f"{workload['kind']} {workload['metadata']['name']}", name, keys, available))
    for policy in rendered.of_kind("ClusterPolicy"):
        for section, config in _policy_config_refs(policy["spec"]):
            keys = [config["default"]] if config.get("default") and section == "devicePlugin" else []
            problems.extend(_missing(f"ClusterPolicy {section}", config["name"], keys, available))
    problems.extend(_label_config_problems(rendered, plan, pools, available))
    return problems


def core_schema_problems(rendered: Rendered, kube_version: str = K8S) -> list[str]:
    """Every built-in object is valid against the strict Kubernetes schema (unknown fields refused)."""
    return [
        f"{o['kind']} {o['metadata']['name']}: {p}"
        for o in rendered.objects
        if is_core(o)
        for p in strict_problems(o, kube_version)
    ]


def _untolerated(what: str, tolerations: Sequence[Mapping[str, Any]], pools: Sequence[GpuPoolSpec]) -> list[str]:
    return [
        f"{what} does not tolerate {t.key}={t.value}:{t.effect} of pool {p.name!r}"
        for p in pools
        for t in pool_taints(p)
        if not tolerates(tolerations, t.key, "any-value", t.effect)
    ]


def _pod_config_refs(spec: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    refs: list[tuple[str, list[str]]] = []
    for volume in spec.get("volumes") or []:
        sources = [volume["configMap"]] if "configMap" in volume else []
        sources += [s["configMap"] for s in (volume.get("projected") or {}).get("sources", []) if "configMap" in s]
        refs.extend((s["name"], [i["key"] for i in s.get("items") or []]) for s in sources if not s.get("optional"))
    for container in [*(spec.get("containers") or []), *(spec.get("initContainers") or [])]:
        for env in container.get("env") or []:
            ref = (env.get("valueFrom") or {}).get("configMapKeyRef")
            if ref and not ref.get("optional"):
                refs.append((ref["name"], [ref["key"]]))
        for source in container.get("envFrom") or []:
            ref = source.get("configMapRef")
            if ref and not ref.get("optional"):
                refs.append((ref["name"], []))
    return refs


def _policy_config_refs(spec: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """(operand, its ``config``) for every operand section of a ClusterPolicy that names a config map."""
    return [
        (section, body["config"])
        for section, body in spec.items()
        if isinstance(body, Mapping) and isinstance(body.get("config"), Mapping) and body["config"].get("name")
    ]


def _missing(user: str, name: str, keys: Sequence[str], available: Mapping[str, Mapping[str, str]]) -> list[str]:
    if name not in available:
        return [f"{user} names config map {name!r}, which nothing creates in the namespace"]
    return [f"{user}: config map {name!r} has no key {key!r}" for key in keys if key not in available[name]]


def _label_config_problems(
    rendered: Rendered, plan: GpuStackPlan, pools: Sequence[GpuPoolSpec], available: Mapping[str, Mapping[str, str]]
) -> list[str]:
    problems: list[str] = []
    plugin_maps = _plugin_config_maps(rendered)
    for _, spec in pod_specs(rendered.objects):  # the plugin chart's config-manager: its default config
        for container in [*(spec.get("containers") or []), *(spec.get("initContainers") or [])]:
            for env in container.get("env") or []:
                if env["name"] == "DEFAULT_CONFIG" and env.get("value"):
                    problems.extend(
                        f"plugin config map {m!r} has no default config {env['value']!r}"
                        for m in plugin_maps
                        if env["value"] not in available.get(m, {})
                    )
    for pool in pools:
        labels = pool_labels(pool)
        wanted = labels.get(LABEL_DEVICE_PLUGIN_CONFIG)
        if wanted is not None:
            if not plugin_maps:
                problems.append(f"pool {pool.name!r} picks plugin config {wanted!r}, but the release names none")
            problems.extend(
                f"pool {pool.name!r}: plugin config map {m!r} has no config {wanted!r}"
                for m in plugin_maps
                if wanted not in available.get(m, {})
            )
        mig = labels.get(LABEL_MIG_CONFIG)
        for policy in rendered.of_kind("ClusterPolicy"):
            name = (policy["spec"].get("migManager", {}).get("config") or {}).get("name")
            if mig is not None and name and name in available:
                configs = yaml.safe_load(available[name]["config.yaml"])["mig-configs"]
                if mig not in configs:
                    problems.append(f"pool {pool.name!r}: MIG config {mig!r} is not in config map {name!r}")
    return problems


def _plugin_config_maps(rendered: Rendered) -> list[str]:
    names = [
        c["name"] for p in rendered.of_kind("ClusterPolicy") if (c := p["spec"]["devicePlugin"].get("config") or {})
    ]
    for _, spec in pod_specs(rendered.objects):
        names += [v["configMap"]["name"] for v in spec.get("volumes") or [] if v["name"] == "available-configs"]
    return sorted({n for n in names if n})
