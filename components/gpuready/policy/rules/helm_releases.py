"""Rules on Helm releases of the NVIDIA GPU Operator and device-plugin charts (``kubernetes:helm.sh/v3:Release``).

Pure: ``(resource_type, props, config) -> messages``. Chart facts live in ``charts``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core import namespaces, scheduling
from gpuready.core.conventions import gpu_taint_of
from gpuready.core.props import as_flag, as_list, as_mapping, as_number, as_text, show
from gpuready.policy.rules.charts import (
    DEFAULT_ALLOWED_VERSIONS,
    DEFAULT_NAMESPACE,
    FABRIC_CHART_VERSIONS,
    INSTALL_TYPES,
    NFD_KEY,
    OPERATOR,
    gpu_release,
)
from gpuready.policy.rules.cross_resource import chart_name_of
from gpuready.policy.rules.k8s import any_tolerates, tolerates_every_value

DEFAULT_MIN_TIMEOUT_SECONDS = 900
"""The chart rolls NFD workers and operands across every GPU node; Helm's 300 s default is too short on
large clusters (METR/hawk#1363 needed 1800 s for about 180 nodes)."""
HELM_DEFAULT_TIMEOUT = 300
NFD_LABEL_PREFIX = "feature.node.kubernetes.io/"
_OPERATOR_NFD_KEYS = frozenset({"enabled", "nodefeaturerules"})
"""The only ``nfd.*`` values the GPU Operator chart reads (GO values L8-10); its NFD subchart is not aliased."""


def version_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """The chart version is pinned to an allowed one (config ``allowedVersions``: chart -> versions)."""
    release = gpu_release(resource_type, props)
    if release is None:
        return _fabric_chart_problems(resource_type, props, config)
    configured = as_mapping(config.get("allowedVersions"))
    allowed_raw = configured.get(release.chart) if configured is not None else None
    allowed = [v for v in as_list(allowed_raw) if isinstance(v, str)] or list(DEFAULT_ALLOWED_VERSIONS[release.chart])
    version = as_text(props.get("version"))
    if not version:
        return [
            f"version: not set, so every deploy installs whatever {release.chart} chart is newest. "
            f"Pin version: {allowed[0]!r}"
        ]
    if version not in allowed:
        hint = " (gpu-operator chart versions start with 'v')" if release.chart == OPERATOR else ""
        return [f"version: {version!r} is not an allowed {release.chart} chart version{hint}. Allowed: {allowed}"]
    return []


def _fabric_chart_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """A fabric chart's release (NVIDIA's Network Operator, the EFA device plugin) pins an allowed version too."""
    chart = chart_name_of(props) if resource_type in INSTALL_TYPES else ""
    if chart not in FABRIC_CHART_VERSIONS:
        return []
    configured = as_mapping(config.get("allowedVersions"))
    allowed_raw = configured.get(chart) if configured is not None else None
    allowed = [v for v in as_list(allowed_raw) if isinstance(v, str)] or list(FABRIC_CHART_VERSIONS[chart])
    version = as_text(props.get("version"))
    if not version:
        return [f"version: not set, so every deploy installs whatever {chart} chart is newest. Pin version: "
                f"{allowed[0]!r}"]  # fmt: skip
    if version not in allowed:
        return [f"version: {version!r} is not an allowed {chart} chart version. Allowed: {allowed}"]
    return []


def namespace_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """The release has its own namespace: without one it lands in ``default``, which the device-plugin chart
    refuses (``allowDefaultNamespace: false``) and which mixes node agents with workloads."""
    release = gpu_release(resource_type, props)
    if release is None:
        return []
    namespace = as_text(props.get("namespace"))
    if namespace and namespace != namespaces.DEFAULT:
        return []
    want = DEFAULT_NAMESPACE[release.chart]
    got = "not set (the provider's default namespace)" if not namespace else f"{namespace!r}"
    return [
        f"namespace: {got}; install {release.chart} into its own namespace. Set namespace: {want!r} and "
        "createNamespace: True"
    ]


def timeout_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """The release waits long enough for NFD and the operands to roll out (config ``minTimeoutSeconds``)."""
    release = gpu_release(resource_type, props)
    if release is None or as_flag(props.get("skipAwait")) is True:
        return []
    minimum = as_number(config.get("minTimeoutSeconds")) or DEFAULT_MIN_TIMEOUT_SECONDS
    timeout = as_number(props.get("timeout"))
    seconds = HELM_DEFAULT_TIMEOUT if timeout is None else timeout
    if seconds >= minimum:
        return []
    got = f"{seconds:g} s" + (" (Helm's default)" if timeout is None else "")
    return [
        f"timeout: {got} is too short for {release.chart} to roll NFD and its DaemonSets across the GPU nodes; "
        f"the release fails (and rolls back with atomic) on large clusters (METR/hawk#1363). Set timeout: "
        f"{minimum:g} or more"
    ]


def nfd_key_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """NFD settings use the chart's own key: ``node-feature-discovery.*`` in the operator, ``nfd.*`` in the
    device plugin. The other spelling is silently ignored (neither chart has a values schema)."""
    release = gpu_release(resource_type, props)
    if release is None:
        return []
    right = NFD_KEY[release.chart]
    wrong: list[str] = []  # top-level keys under the wrong spelling, e.g. nfd.worker
    if release.chart == OPERATOR:
        nfd = as_mapping(release.values.get("nfd")) or {}
        wrong += [f"nfd.{key}" for key in nfd if key not in _OPERATOR_NFD_KEYS]
    elif "node-feature-discovery" in release.values:
        wrong.append("node-feature-discovery")
    if "nodeFeatureDiscovery" in release.values:
        wrong.append("nodeFeatureDiscovery")
    return [
        f"values.{key}: the {release.chart} chart never reads this key, so the setting is silently ignored. "
        f"Move it under values.{right}{key.partition('.')[2] and '.' + key.partition('.')[2]}"
        for key in wrong
    ]


def nfd_selector_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """When the release deploys NFD, its worker is restricted to GPU pools by a label the pool has at creation."""
    release = gpu_release(resource_type, props)
    if release is None or not release.nfd_deployed:
        return []
    path = f"{NFD_KEY[release.chart]}.worker.nodeSelector"
    selector = as_mapping(release.value(path)) or {}
    fix = {scheduling.LABEL_GPU_POOL: "true"}
    if not selector:
        return [
            f"values.{path}: not set, so the NFD worker runs on every node of the cluster (NVIDIA/gpu-operator#728). "
            f"Restrict it to GPU pools with a label they carry from creation, e.g. {fix!r}"
        ]
    derived = sorted(k for k in selector if str(k).startswith(NFD_LABEL_PREFIX))
    if derived:
        return [
            f"values.{path}: selects on labels NFD itself writes ({', '.join(derived)}), so no worker ever starts on "
            f"a fresh node (NVIDIA/aicr#230). Select on a label the pool has from creation, e.g. {fix!r}"
        ]
    return []


def toleration_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """Every DaemonSet the chart puts on GPU nodes tolerates ``nvidia.com/gpu`` with ``operator: Exists``, so
    the pools' taint value does not matter (NVIDIA/k8s-device-plugin#1934: ``Equal present`` vs ``=true``)."""
    release = gpu_release(resource_type, props)
    if release is None:
        return []
    problems = []
    taint = gpu_taint_of(config)
    fix = scheduling.toleration_for(taint)
    for path, tolerations, overridden in release.daemonset_tolerations():
        if tolerates_every_value(tolerations, taint.key, taint.effect):
            continue
        if taint != scheduling.GPU_TAINT and any_tolerates(tolerations, taint):
            continue  # the team's own convention names the value: an Equal toleration of it is the convention
        source = "" if overridden else " (the chart default)"
        equal = [t for t in tolerations if as_text(_key(t)) == taint.key and not _exists(t)]
        why = (
            f"tolerates {taint.key} only with value {as_text(_value(equal[0]))!r}, so a pool tainted "
            "with any other value gets no pod and its GPUs are never advertised"
            if equal
            else f"does not tolerate {taint.key} (a Helm list replaces the chart default), so none of "
            f"its pods runs on nodes tainted {taint.key}"
        )
        problems.append(f"values.{path}{source}: {why}; got {show(tolerations)}. Include {fix!r} in values.{path}")
    return problems


def _key(toleration: object) -> Any:
    mapping = as_mapping(toleration)
    return mapping.get("key") if mapping is not None else None


def _value(toleration: object) -> Any:
    mapping = as_mapping(toleration)
    return mapping.get("value") if mapping is not None else None


def _exists(toleration: object) -> bool:
    mapping = as_mapping(toleration)
    return mapping is not None and mapping.get("operator") == "Exists"
